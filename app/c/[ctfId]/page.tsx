import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Announcements } from "@/components/competitions/public/announcements";
import { ChallengeList, playOf } from "@/components/competitions/public/challenge-list";
import { CompetitionHeader } from "@/components/competitions/public/competition-header";
import type { CompetitionPhase } from "@/components/competitions/public/phase";
import { PhaseNotice } from "@/components/competitions/public/phase-notice";
import { ScoreboardSection } from "@/components/competitions/public/scoreboard-section";
import { TakingPart } from "@/components/competitions/public/taking-part";
import { TeamPanel } from "@/components/competitions/public/team-panel";
import { RefreshAt } from "@/components/play/refresh-at";
import { artifactsForPage } from "@/lib/ctf/play/artifacts/artifacts";
import { playerFiles } from "@/lib/ctf/challenges/files/files";
import { challengeDescriptions, playerProgress, runningState } from "@/lib/ctf/play/play";
import { findPlayer, playerCookieName } from "@/lib/ctf/play/players";
import { publicCompetition } from "@/lib/ctf/play/public";
import { scoreGraph } from "@/lib/ctf/play/graph";
import { publicScoreboard } from "@/lib/ctf/play/standings";
import { myTeam } from "@/lib/ctf/teams/teams";
import { publicAnnouncements } from "@/lib/ctf/announcements/announcements";
import { getDb } from "@/lib/platform/database";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ ctfId: string }> };

const load = cache(async (ctfId: string) => publicCompetition(await getDb(), ctfId));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const ctf = await load((await params).ctfId);
  return { title: ctf?.title ?? "Competition not found" };
}

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
  const state: CompetitionPhase =
    ctf.status === "archived" ? "archived" : (runningState({ status: "deployed", startsAt: new Date(ctf.starts_at), endsAt: new Date(ctf.ends_at) }) as Exclude<ReturnType<typeof runningState>, "not_deployed">);
  const playedHere = ctf.host === "builtin";
  const player = await findPlayer(db, ctf.id, (await cookies()).get(playerCookieName(ctf.id))?.value);
  const [board, graph, progress, descriptions, files, artifacts, announcements] = await Promise.all([
    // An external host can fail: the page still shows, the board says so and keeps trying.
    publicScoreboard(db, ctf.id, { page: 1, per_page: 100 }).catch(() => null),
    scoreGraph(db, ctf.id).catch(() => null),
    player && state !== "archived" ? playerProgress(db, player) : null,
    player && playedHere && state === "running" ? challengeDescriptions(db, ctf.id) : null,
    player && playedHere && state === "running" ? playerFiles(db, ctf.id) : null,
    player && playedHere && state === "running" ? artifactsForPage(db, ctf.id) : null,
    // Stopped since it was read: the page shows no announcements rather than failing.
    publicAnnouncements(db, ctf.id).catch(() => ({ data: [] })),
  ]);
  // Teams mode: the player's team (or the forms to create or join one) until the competition is archived.
  const team = player && playedHere && state !== "archived" ? await myTeam(db, player) : null;

  return (
    <main className="mx-auto w-full max-w-4xl px-4 py-10">
      <p className="mb-2 text-sm font-bold text-brand-600">Certify · Competition</p>
      <CompetitionHeader ctf={ctf} phase={state} />
      {state === "running" ? <RefreshAt at={ctf.ends_at} /> : null}
      <TakingPart ctf={ctf} phase={state} playedHere={playedHere} player={player} progress={progress} />
      {team?.mode === "teams" ? <TeamPanel ctfId={ctf.id} team={team.team} teamSizeMax={team.team_size_max} canChange={state !== "ended"} /> : null}
      <PhaseNotice ctf={ctf} phase={state} />
      <Announcements ctfId={ctf.id} initial={announcements} live={state !== "archived"} />
      <ChallengeList ctf={ctf} phase={state} playedHere={playedHere} hasPlayer={player !== null} playFor={playOf({ progress, descriptions, files, artifacts })} />
      <ScoreboardSection
        ctfId={ctf.id}
        phase={state}
        board={board}
        graph={graph}
        me={player ? { memberId: player.memberId, teamId: player.teamId } : undefined}
        titles={Object.fromEntries(ctf.challenges.map((challenge) => [challenge.id, challenge.title]))}
      />
    </main>
  );
}
