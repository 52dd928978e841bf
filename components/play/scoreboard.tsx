"use client";

import { usePageQuery } from "@/components/use-page-query";
import { callApi } from "@/components/api";
import { playContracts } from "@/lib/ctf/play/contracts";
import type { ScoreboardEntry } from "@/lib/ctf/play/schemas";
import { queryKeys } from "@/components/query-keys";

/** How often a running competition's page reads the scoreboard again. */
const REFRESH_MS = 5_000;

type Board = { data: ScoreboardEntry[]; pagination: { page: number; per_page: number; total: number } };

/**
 * The scoreboard of a competition's page: the first 100 players, refreshed every 5 s while
 * the competition is deployed (no reload); given once, final, after it ended or once
 * archived. Names only.
 */
export function Scoreboard({ ctfId, initial, live, me }: { ctfId: string; initial: Board; live: boolean; me?: string }) {
  const board = usePageQuery({
    queryKey: queryKeys.scoreboard(ctfId),
    queryFn: () => callApi(playContracts.publicScoreboard, { params: { ctf_id: ctfId }, query: { per_page: 100 } }),
    initial,
    // A final scoreboard is what the page was given: never read again.
    staleTime: live ? 0 : Infinity,
    refetchInterval: live ? REFRESH_MS : false,
  });
  const rows = board.data.data;
  if (rows.length === 0) return <p className="mt-3 text-sm text-slate-600">No players yet.</p>;
  return (
    // Focusable and named: a keyboard reaches the board when it scrolls sideways (long names, a narrow phone).
    <div className="mt-3 overflow-x-auto" role="region" aria-label="Scoreboard" tabIndex={0}>
      <table className="w-full text-left text-sm" data-testid="scoreboard">
        <thead className="border-b border-slate-200 text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">#</th>
            <th scope="col" className="py-2 pr-3 font-medium">Player</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Solves</th>
            <th scope="col" className="py-2 text-right font-medium">Score</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.member_id ?? `account-${row.platform_account_id ?? row.pos}`}
              className={`border-b border-slate-100 ${me && row.member_id === me ? "bg-brand-50 font-semibold" : ""}`}
              data-testid="scoreboard-row"
              data-name={row.name}
              data-score={row.score}
              data-pos={row.pos}
            >
              <td className="py-2 pr-3 tabular-nums">{row.pos}</td>
              <td className="max-w-[16rem] py-2 pr-3 [overflow-wrap:anywhere]">{row.name}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{row.solves}</td>
              <td className="py-2 text-right tabular-nums">{row.score}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {board.data.pagination.total > rows.length ? <p className="mt-2 text-xs text-slate-500">The first {rows.length} of {board.data.pagination.total} players.</p> : null}
    </div>
  );
}
