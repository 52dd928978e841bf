"use client";

import { usePageQuery } from "@/components/use-page-query";
import { callApi } from "@/components/api";
import { formatDateTime } from "@/components/format/date";
import { Badge } from "@/components/ui/badge";
import { playContracts } from "@/lib/ctf/play/contracts";
import type { PublicScoreboard, ScoreboardEntry, ScoreGraph as Graph } from "@/lib/ctf/play/schemas";
import { queryKeys } from "@/components/query-keys";
import { ScoreGraph } from "./score-graph";

/** How often a running competition's page reads the scoreboard again. */
const REFRESH_MS = 5_000;

/** Who is signed in on this page: their member id and team (teams mode), to mark their row. */
export type Viewer = { memberId: string; teamId: string | null };

/** What the graph depends on: the top ten's scores and last solves, and the freeze. */
function graphVersion(board: PublicScoreboard): string {
  const top = board.data.slice(0, 10).map((row) => `${row.team_id ?? row.member_id ?? row.platform_account_id}:${row.score}:${row.last_solve_at ?? ""}`);
  return `${board.frozen_at ?? "live"}|${top.join(",")}`;
}

const isViewer = (row: ScoreboardEntry, me?: Viewer) => Boolean(me && (row.team_id ? row.team_id === me.teamId : row.member_id === me.memberId));

/** "First blood" and the titles of the challenges it was drawn on. */
function FirstBlood({ ids, titles }: { ids: string[]; titles: Record<string, string> }) {
  if (ids.length === 0) return null;
  const names = ids.map((id) => titles[id] ?? "a challenge no longer shown").join(", ");
  return (
    <span className="mt-1 flex flex-wrap items-center gap-1 text-xs text-slate-600" data-testid="first-blood" title={`First to solve: ${names}`}>
      <Badge tone="danger">First blood{ids.length > 1 ? ` ×${ids.length}` : ""}</Badge>
      <span className="[overflow-wrap:anywhere]">
        <span className="sr-only">on </span>
        {names}
      </span>
    </span>
  );
}

/**
 * The scoreboard of a competition's page: the first 100 players (or teams), refreshed every
 * 5 s while the competition is deployed (no reload); given once, final, after it ended or
 * once archived. Names only; first bloods marked with the challenges' titles; "Frozen at …"
 * once `freeze_at` has passed; the top ten's graph under it, redrawn as the board changes.
 */
export function Scoreboard({
  ctfId,
  initial,
  initialGraph,
  live,
  me,
  titles,
}: {
  ctfId: string;
  initial: PublicScoreboard;
  initialGraph: Graph | null;
  live: boolean;
  me?: Viewer;
  titles: Record<string, string>;
}) {
  const board = usePageQuery({
    queryKey: queryKeys.scoreboard(ctfId),
    queryFn: () => callApi(playContracts.publicScoreboard, { params: { ctf_id: ctfId }, query: { per_page: 100 } }),
    initial,
    // A final scoreboard is what the page was given: never read again.
    staleTime: live ? 0 : Infinity,
    refetchInterval: live ? REFRESH_MS : false,
  });
  const rows = board.data.data;
  const frozenAt = board.data.frozen_at;
  const teams = rows.some((row) => row.team_id !== null);
  return (
    <>
      {frozenAt ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="scoreboard-frozen">
          Frozen at {formatDateTime(frozenAt)}: the standings as they were then. Solves since count, and show when the freeze is lifted.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No {teams ? "teams" : "players"} yet.</p>
      ) : (
        // Focusable and named: a keyboard reaches the board when it scrolls sideways (long names, a narrow phone).
        <div className="mt-3 overflow-x-auto" role="region" aria-label="Scoreboard" tabIndex={0}>
          <table className="w-full text-left text-sm" data-testid="scoreboard">
            <thead className="border-b border-slate-200 text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">#</th>
                <th scope="col" className="py-2 pr-3 font-medium">{teams ? "Team" : "Player"}</th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">Solves</th>
                <th scope="col" className="py-2 text-right font-medium">Score</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr
                  key={row.team_id ?? row.member_id ?? `account-${row.platform_account_id ?? row.pos}`}
                  className={`border-b border-slate-100 ${isViewer(row, me) ? "bg-brand-50 font-semibold" : ""}`}
                  data-testid="scoreboard-row"
                  data-name={row.name}
                  data-score={row.score}
                  data-pos={row.pos}
                >
                  <td className="py-2 pr-3 align-top tabular-nums">{row.pos}</td>
                  <td className="max-w-[16rem] py-2 pr-3 align-top [overflow-wrap:anywhere]">
                    {row.name}
                    <FirstBlood ids={row.first_blood ?? []} titles={titles} />
                  </td>
                  <td className="py-2 pr-3 text-right align-top tabular-nums">{row.solves}</td>
                  <td className="py-2 text-right align-top tabular-nums">{row.score}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {board.data.pagination.total > rows.length ? (
            <p className="mt-2 text-xs text-slate-500">
              The first {rows.length} of {board.data.pagination.total} {teams ? "teams" : "players"}.
            </p>
          ) : null}
        </div>
      )}
      <ScoreGraph ctfId={ctfId} initial={initialGraph} version={graphVersion(board.data)} initialVersion={graphVersion(initial)} />
    </>
  );
}
