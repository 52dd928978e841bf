import { ChallengeCard, type ChallengePlay } from "@/components/play/challenge-card";
import type { PlayerFileView } from "@/lib/ctf/challenges/files/schemas";
import type { PageArtifact } from "@/lib/ctf/play/artifacts/artifacts";
import type { PlayerProgress } from "@/lib/ctf/play/play";
import type { PublicCompetition } from "@/lib/ctf/play/public";
import { isOpen, type CompetitionPhase } from "./phase";

/**
 * What a player gets of each challenge while the competition runs, from what the page read
 * for them: its description, whether they (or their team) solved it, the hints they unlocked,
 * its files and artifact, its attempt cap. A challenge locked for them gets only what opens it
 * (none of its content); before a teams-mode player has a team, `teamRequired`. Without their
 * progress and the descriptions: nothing.
 */
export function playOf({
  progress,
  descriptions,
  files,
  artifacts,
}: {
  progress: Pick<PlayerProgress, "solved" | "hints"> & Partial<Pick<PlayerProgress, "locked" | "caps" | "team_required">> | null;
  descriptions: Record<string, string> | null;
  files: Record<string, PlayerFileView[]> | null;
  artifacts: Record<string, PageArtifact> | null;
}) {
  return (challengeId: string): ChallengePlay | undefined => {
    if (!progress || !descriptions) return undefined;
    const locked = progress.locked?.[challengeId];
    if (locked) return { description: "", solved: false, hints: {}, files: [], locked };
    return {
      description: descriptions[challengeId] ?? "",
      solved: progress.solved.includes(challengeId),
      hints: Object.fromEntries(progress.hints.filter((hint) => hint.challenge_id === challengeId).map((hint) => [hint.hint, hint.text])),
      files: files?.[challengeId] ?? [],
      artifact: artifacts?.[challengeId],
      cap: progress.caps?.[challengeId],
      teamRequired: progress.team_required,
    };
  };
}

/** The published challenges by category; while it runs, `playFor` gives a player's parts of each. */
export function ChallengeList({
  ctf,
  phase,
  playedHere,
  hasPlayer,
  playFor,
}: {
  ctf: PublicCompetition;
  phase: CompetitionPhase;
  playedHere: boolean;
  hasPlayer: boolean;
  playFor: (challengeId: string) => ChallengePlay | undefined;
}) {
  const categories = [...new Set(ctf.challenges.map((challenge) => challenge.category))];
  return (
    <section aria-labelledby="challenges-title" className="mt-10">
      <h2 id="challenges-title" className="text-xl font-semibold">
        Challenges <span className="font-normal text-slate-500">({ctf.challenges.length})</span>
      </h2>
      {phase === "running" && playedHere && !hasPlayer ? (
        <p className="mt-1 text-sm text-slate-600">Players see each challenge and submit flags once they have accepted their invitation.</p>
      ) : null}
      {ctf.challenges.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{isOpen(phase) ? "No challenges are published yet. Come back soon." : "None was published."}</p>
      ) : (
        categories.map((category) => (
          <div key={category} className="mt-6">
            <h3 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">{category}</h3>
            {/* Fills the width: one card takes the row, two or more share it once each is 20rem wide (issue 26). */}
            <div className="grid grid-cols-[repeat(auto-fit,minmax(min(20rem,100%),1fr))] gap-4">
              {ctf.challenges
                .filter((challenge) => challenge.category === category)
                .map((challenge) => (
                  <ChallengeCard key={challenge.id} ctfId={ctf.id} challenge={challenge} play={phase === "running" ? playFor(challenge.id) : undefined} />
                ))}
            </div>
          </div>
        ))
      )}
    </section>
  );
}
