import { ChallengeHeader } from "@/components/competitions/public-challenge";
import { Badge } from "@/components/ui/badge";
import { Markdown } from "@/components/ui/markdown";
import { urlOf } from "@/lib/kernel/contract";
import type { PageArtifact } from "@/lib/ctf/play/artifacts/artifacts";
import type { AttemptCap } from "@/lib/ctf/play/play";
import { fileContracts } from "@/lib/ctf/challenges/files/contracts";
import type { PlayerFileView } from "@/lib/ctf/challenges/files/schemas";
import type { ChallengeSummary } from "@/lib/ctf/play/public";
import { ChallengeArtifact } from "./challenge-artifact";
import { ChallengeFiles } from "./challenge-files";
import { FlagForm } from "./flag-form";
import { Hint } from "./hint";

/** What a player of the running competition gets of one challenge (components/competitions/public/challenge-list.tsx `playOf`). */
export type ChallengePlay = {
  description: string;
  solved: boolean;
  hints: Record<number, string>;
  files: PlayerFileView[];
  artifact?: PageArtifact;
  /** Locked for the player (or their team): the titles of the challenges that open it; none of its content is given. */
  locked?: string[];
  /** Its attempt cap, when it has one: wrong tries used, allowed, and whether it is closed. */
  cap?: AttemptCap;
  /** Teams mode, before the player has a team: nothing can be submitted or unlocked yet. */
  teamRequired?: boolean;
};

/**
 * One challenge of a competition's page. Everyone sees its title, category and points; a
 * player of the running competition also sees its description, its files to download, its
 * hints (text once unlocked) and the flag form, or that it is solved (by them or their team).
 * A locked challenge shows only what opens it; a capped one how many wrong tries are left, and
 * that it is closed once none is.
 */
export function ChallengeCard({
  ctfId,
  challenge,
  play,
}: {
  ctfId: string;
  challenge: ChallengeSummary;
  play?: ChallengePlay;
}) {
  const closed = Boolean(play?.cap?.closed && !play.solved);
  return (
    <article
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="public-challenge"
      data-title={challenge.title}
      data-solved={play?.solved ? "true" : undefined}
      data-locked={play?.locked ? "true" : undefined}
      data-closed={closed ? "true" : undefined}
    >
      <ChallengeHeader challenge={challenge}>
        {challenge.tags.map((tag, index) => (
          <Badge key={index}>{tag}</Badge>
        ))}
        {play?.solved ? <Badge tone="success">Solved</Badge> : play?.locked ? <Badge>Locked</Badge> : closed ? <Badge tone="danger">Closed</Badge> : null}
      </ChallengeHeader>
      {play?.locked ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="challenge-locked">
          Locked — solve {play.locked.map((title, index) => (
            <span key={index}>
              {index ? ", " : ""}“<span className="font-medium">{title}</span>”
            </span>
          ))}{" "}
          first.
        </p>
      ) : play ? (
        <>
          {play.description ? <Markdown text={play.description} className="mt-3 text-sm text-slate-700" /> : null}
          {play.artifact ? <ChallengeArtifact title={challenge.title} artifact={play.artifact} /> : null}
          <ChallengeFiles
            title={challenge.title}
            files={play.files.map((file) => ({ ...file, url: urlOf(fileContracts.playerDownload, { ctf_id: ctfId, challenge_id: challenge.id, file_id: file.id }) }))}
          />
          {challenge.hints.length && !play.teamRequired ? (
            <div className="mt-3 space-y-2">
              {challenge.hints.map((hint, index) => (
                <Hint key={index} ctfId={ctfId} challengeId={challenge.id} n={index + 1} cost={hint.cost} text={play.hints[index + 1]} />
              ))}
            </div>
          ) : null}
          <FlagArea ctfId={ctfId} challenge={challenge} play={play} closed={closed} />
        </>
      ) : null}
    </article>
  );
}

/** Below a playable challenge: nothing once solved; else what stops a flag (no team yet, the cap used up) or the flag form, with the wrong tries left. */
function FlagArea({ ctfId, challenge, play, closed }: { ctfId: string; challenge: ChallengeSummary; play: ChallengePlay; closed: boolean }) {
  if (play.solved) return null;
  if (play.teamRequired) {
    return (
      <p className="mt-4 text-sm text-slate-600" data-testid="team-required">
        Create or join a team to submit flags and unlock hints.
      </p>
    );
  }
  const cap = play.cap;
  if (cap && closed) {
    return (
      <p className="mt-4 text-sm font-medium text-red-800" data-testid="attempts-closed">
        Closed: {cap.max} wrong {cap.max === 1 ? "try" : "tries"} used.
      </p>
    );
  }
  return (
    <>
      {cap ? (
        <p className="mt-4 text-sm text-slate-600" data-testid="attempts-left" data-left={cap.max - cap.used}>
          {cap.max - cap.used} of {cap.max} wrong {cap.max === 1 ? "try" : "tries"} left
        </p>
      ) : null}
      <FlagForm ctfId={ctfId} challengeId={challenge.id} title={challenge.title} capped={Boolean(cap)} />
    </>
  );
}
