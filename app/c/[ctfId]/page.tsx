import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { JoinCompetitionForm } from "@/components/competitions/join-competition-form";
import { formatWindow } from "@/components/competitions/format";
import { ChallengeCard } from "@/components/play/challenge-card";
import { Countdown } from "@/components/play/countdown";
import { ResendLinkForm } from "@/components/play/resend-link-form";
import { Scoreboard } from "@/components/play/scoreboard";
import { Card } from "@/components/ui/card";
import { getDb } from "@/db";
import { artifactsForPage } from "@/lib/ctf/artifacts";
import { challengeDescriptions, playerProgress, runningState } from "@/lib/ctf/play";
import { findPlayer, playerCookieName } from "@/lib/ctf/players";
import { publicCompetition } from "@/lib/ctf/public";
import { publicScoreboard } from "@/lib/ctf/scoreboard";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ ctfId: string }> };

const load = cache(async (ctfId: string) => publicCompetition(await getDb(), ctfId));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const ctf = await load((await params).ctfId);
  return { title: ctf?.title ?? "Competition not found" };
}

const phases = {
  not_started: { label: "Not started yet", tone: "bg-amber-50 text-amber-800 ring-amber-200" },
  running: { label: "Running now", tone: "bg-green-50 text-green-800 ring-green-200" },
  ended: { label: "Ended", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
  not_deployed: { label: "Ended", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
} as const;

/**
 * A deployed competition, served by the built-in host. Anyone may read its title, window,
 * challenge list and live scoreboard; a player (the competition's cookie, set when the
 * invitation was accepted) also gets the challenges' content, hints and flag forms while it
 * runs. Before the start: a countdown; after the end: the final scoreboard.
 */
export default async function PublicCompetitionPage({ params }: Params) {
  const ctf = await load((await params).ctfId);
  if (!ctf) notFound();
  const db = await getDb();
  const state = runningState({ status: "deployed", startsAt: new Date(ctf.starts_at), endsAt: new Date(ctf.ends_at) });
  const player = await findPlayer(db, ctf.id, (await cookies()).get(playerCookieName(ctf.id))?.value);
  const [board, progress, descriptions, artifacts] = await Promise.all([
    publicScoreboard(db, ctf.id, { page: 1, per_page: 100 }),
    player ? playerProgress(db, player) : null,
    player && state === "running" ? challengeDescriptions(db, ctf.id) : null,
    player && state === "running" ? artifactsForPage(db, ctf.id) : null,
  ]);
  const current = phases[state];
  const categories = [...new Set(ctf.challenges.map((challenge) => challenge.category))];
  const playFor = (challengeId: string) =>
    progress && descriptions
      ? {
          description: descriptions[challengeId] ?? "",
          solved: progress.solved.includes(challengeId),
          hints: Object.fromEntries(progress.hints.filter((hint) => hint.challenge_id === challengeId).map((hint) => [hint.hint, hint.text])),
          artifact: artifacts?.[challengeId],
        }
      : undefined;

  return (
    <main className="mx-auto w-full max-w-4xl px-4 py-10">
      <p className="mb-2 text-sm font-bold text-brand-600">Certify · Competition</p>
      <header className="space-y-3">
        <h1 className="break-words text-3xl font-semibold tracking-tight">{ctf.title}</h1>
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${current.tone}`} data-testid="ctf-phase">
            {current.label}
          </span>
          <span data-testid="ctf-window">{formatWindow(ctf.starts_at, ctf.ends_at)}</span>
        </div>
        {ctf.description ? <p className="max-w-3xl whitespace-pre-line text-slate-700">{ctf.description}</p> : null}
      </header>

      {player && progress ? (
        <Card className="mt-8">
          <p className="text-sm text-slate-600">
            Playing as <span className="font-semibold text-slate-900" data-testid="player-name">{player.name}</span> · score{" "}
            <span className="font-semibold tabular-nums text-slate-900" data-testid="player-score">{progress.score}</span>
          </p>
        </Card>
      ) : state === "ended" ? null : ctf.is_public ? (
        <Card className="mt-8">
          <h2 className="font-semibold">Join this competition</h2>
          <p className="mt-1 mb-3 text-sm text-slate-600">Enter your e-mail address: we send you a link to confirm. No account or password needed.</p>
          <JoinCompetitionForm ctfId={ctf.id} />
        </Card>
      ) : (
        <p className="mt-6 text-sm text-slate-600">Taking part is by invitation: use the link in your invitation e-mail.</p>
      )}

      {player || state === "ended" ? null : (
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer font-medium text-slate-700">Already taking part? Send me my link again</summary>
          <div className="mt-3 max-w-md">
            <ResendLinkForm ctfId={ctf.id} />
          </div>
        </details>
      )}

      {state === "not_started" ? (
        <Card className="mt-8">
          <Countdown until={ctf.starts_at} />
          <p className="mt-1 text-sm text-slate-600">The challenges open at the start.</p>
        </Card>
      ) : null}

      {state === "running" ? (
        <section aria-labelledby="challenges-title" className="mt-10">
          <h2 id="challenges-title" className="text-xl font-semibold">
            Challenges <span className="font-normal text-slate-500">({ctf.challenges.length})</span>
          </h2>
          {player ? null : <p className="mt-1 text-sm text-slate-600">Players see each challenge and submit flags once they have accepted their invitation.</p>}
          {ctf.challenges.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No challenges are published yet. Come back soon.</p>
          ) : (
            categories.map((category) => (
              <div key={category} className="mt-6">
                <h3 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">{category}</h3>
                <div className="grid gap-4 md:grid-cols-2">
                  {ctf.challenges
                    .filter((challenge) => challenge.category === category)
                    .map((challenge) => (
                      <ChallengeCard key={challenge.id} ctfId={ctf.id} challenge={challenge} play={playFor(challenge.id)} />
                    ))}
                </div>
              </div>
            ))
          )}
        </section>
      ) : null}

      <section aria-labelledby="scoreboard-title" className="mt-10">
        <h2 id="scoreboard-title" className="text-xl font-semibold">
          {state === "ended" ? "Final scoreboard" : "Scoreboard"}
        </h2>
        <Scoreboard ctfId={ctf.id} initial={board} live={state !== "ended"} me={player?.memberId} />
      </section>
    </main>
  );
}
