import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { JoinCompetitionForm } from "@/components/competitions/join-competition-form";
import { formatWindow } from "@/components/competitions/format";
import { ChallengeCard } from "@/components/play/challenge-card";
import { Countdown } from "@/components/play/countdown";
import { RefreshAt } from "@/components/play/refresh-at";
import { ResendLinkForm } from "@/components/play/resend-link-form";
import { Scoreboard } from "@/components/play/scoreboard";
import { Card, Notice } from "@/components/ui/card";
import { artifactsForPage } from "@/lib/ctf/play/artifacts/artifacts";
import { playerFiles } from "@/lib/ctf/challenges/files/files";
import { challengeDescriptions, playerProgress, runningState } from "@/lib/ctf/play/play";
import { findPlayer, playerCookieName } from "@/lib/ctf/play/players";
import { publicCompetition } from "@/lib/ctf/play/public";
import { publicScoreboard } from "@/lib/ctf/play/standings";
import { getDb } from "@/lib/platform/database";

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
  archived: { label: "Archived", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
} as const;

/**
 * A deployed (or archived) competition, served by the built-in host. Anyone may read its
 * title, window, challenge list and scoreboard; a player (the competition's cookie, set when
 * the invitation was accepted) also gets the challenges' content, files, hints and flag forms while
 * it runs. Before the start: a countdown (the page turns itself into the running one); after
 * the end: the final scoreboard, read-only; once archived: the snapshot's final scoreboard
 * and nothing else of the challenges. On CTFd the players play there: the page links to it.
 */
export default async function PublicCompetitionPage({ params }: Params) {
  const ctf = await load((await params).ctfId);
  if (!ctf) notFound();
  const db = await getDb();
  const state = ctf.status === "archived" ? "archived" : (runningState({ status: "deployed", startsAt: new Date(ctf.starts_at), endsAt: new Date(ctf.ends_at) }) as Exclude<ReturnType<typeof runningState>, "not_deployed">);
  const open = state === "not_started" || state === "running";
  const playedHere = ctf.host === "builtin";
  const player = await findPlayer(db, ctf.id, (await cookies()).get(playerCookieName(ctf.id))?.value);
  const [board, progress, descriptions, files, artifacts] = await Promise.all([
    // An external host can fail: the page still shows, the board says so and keeps trying.
    publicScoreboard(db, ctf.id, { page: 1, per_page: 100 }).catch(() => null),
    player && state !== "archived" ? playerProgress(db, player) : null,
    player && playedHere && state === "running" ? challengeDescriptions(db, ctf.id) : null,
    player && playedHere && state === "running" ? playerFiles(db, ctf.id) : null,
    player && playedHere && state === "running" ? artifactsForPage(db, ctf.id) : null,
  ]);
  const current = phases[state];
  const categories = [...new Set(ctf.challenges.map((challenge) => challenge.category))];
  const playFor = (challengeId: string) =>
    progress && descriptions
      ? {
          description: descriptions[challengeId] ?? "",
          solved: progress.solved.includes(challengeId),
          hints: Object.fromEntries(progress.hints.filter((hint) => hint.challenge_id === challengeId).map((hint) => [hint.hint, hint.text])),
          files: files?.[challengeId] ?? [],
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

      {state === "running" ? <RefreshAt at={ctf.ends_at} /> : null}

      {!playedHere && open ? (
        <Card className="mt-8">
          <p className="text-sm text-slate-700" data-testid="played-on-host">
            This competition is played on CTFd
            {ctf.url ? (
              <>
                :{" "}
                <a className="font-medium text-brand-700 underline" href={ctf.url}>
                  open it
                </a>
              </>
            ) : null}
            . Register there with the address you take part with, so your score shows here.
          </p>
        </Card>
      ) : null}

      {player && (progress || state === "archived") ? (
        <Card className="mt-8">
          <p className="text-sm text-slate-600">
            {open ? "Playing as " : "You played as "}
            <span className="font-semibold text-slate-900" data-testid="player-name">{player.name}</span>
            {progress && playedHere ? (
              <>
                {" "}
                · score <span className="font-semibold tabular-nums text-slate-900" data-testid="player-score">{progress.score}</span>
              </>
            ) : null}
          </p>
        </Card>
      ) : !open || player ? null : ctf.is_public ? (
        <Card className="mt-8">
          <h2 className="font-semibold">Join this competition</h2>
          <p className="mt-1 mb-3 text-sm text-slate-600">Enter your e-mail address: we send you a link to confirm. No account or password needed.</p>
          <JoinCompetitionForm ctfId={ctf.id} />
        </Card>
      ) : (
        <p className="mt-6 text-sm text-slate-600">Taking part is by invitation: use the link in your invitation e-mail.</p>
      )}

      {player || !open ? null : (
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

      {state === "ended" || state === "archived" ? (
        <p className="mt-8 text-sm text-slate-600" data-testid="ctf-over">
          {state === "archived" ? "This competition is over and archived: its challenges are no longer served." : `This competition ended: no more flags are accepted.`} The
          scoreboard below is final.
        </p>
      ) : null}

      <section aria-labelledby="challenges-title" className="mt-10">
        <h2 id="challenges-title" className="text-xl font-semibold">
          Challenges <span className="font-normal text-slate-500">({ctf.challenges.length})</span>
        </h2>
        {state === "running" && playedHere && !player ? (
          <p className="mt-1 text-sm text-slate-600">Players see each challenge and submit flags once they have accepted their invitation.</p>
        ) : null}
        {ctf.challenges.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">{open ? "No challenges are published yet. Come back soon." : "None was published."}</p>
        ) : (
          categories.map((category) => (
            <div key={category} className="mt-6">
              <h3 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">{category}</h3>
              <div className="grid gap-4 md:grid-cols-2">
                {ctf.challenges
                  .filter((challenge) => challenge.category === category)
                  .map((challenge) => (
                    <ChallengeCard key={challenge.id} ctfId={ctf.id} challenge={challenge} play={state === "running" ? playFor(challenge.id) : undefined} />
                  ))}
              </div>
            </div>
          ))
        )}
      </section>

      <section aria-labelledby="scoreboard-title" className="mt-10" data-testid="scoreboard-section" data-final={open ? undefined : "true"}>
        <h2 id="scoreboard-title" className="text-xl font-semibold">
          {open ? "Scoreboard" : "Final scoreboard"}
        </h2>
        {board ? null : (
          <div className="mt-3">
            <Notice tone="error">The scoreboard could not be read from the hosting platform just now.</Notice>
          </div>
        )}
        <Scoreboard ctfId={ctf.id} initial={board ?? { data: [], pagination: { page: 1, per_page: 100, total: 0 } }} live={open} me={player?.memberId} />
      </section>
    </main>
  );
}
