"use client";

import { useQuery } from "@tanstack/react-query";
import { Card, Notice } from "@/components/ui/card";
import { EmailAddress } from "@/components/ui/email-address";
import { numeric, ScrollTable } from "@/components/ui/table";
import type { getSnapshot } from "@/lib/ctf/competitions/competitions";
import type { CtfView } from "@/lib/ctf/competitions/schemas";
import { queryKeys } from "@/components/query-keys";
import { formatDateTime } from "@/components/format/date";
import { StatusBadge } from "./ui";
import { callApi } from "@/components/api";
import { ctfContracts } from "@/lib/ctf/competitions/contracts";

/** The snapshot as `getSnapshot` returns it (the contract answers it as a plain record). */
type CtfSnapshot = Awaited<ReturnType<typeof getSnapshot>>;

/** The final snapshot stored when the competition was archived: challenges, members and the scoreboard. */
export function SnapshotSection({ ctf }: { ctf: CtfView }) {
  const snapshot = useQuery({
    queryKey: queryKeys.ctfSnapshot(ctf.id),
    queryFn: () => callApi(ctfContracts.snapshot, { params: { ctf_id: ctf.id } }) as Promise<CtfSnapshot>,
    staleTime: Infinity,
  });
  const data = snapshot.data;
  return (
    <section aria-labelledby="snapshot-title" className="space-y-4" data-testid="ctf-snapshot">
      <div>
        <h2 id="snapshot-title" className="text-lg font-semibold">
          Final snapshot
        </h2>
        <p className="mt-1 text-sm text-slate-600">Kept as it was when the competition was archived{data ? ` (${formatDateTime(data.archived_at)})` : ""}.</p>
      </div>
      {snapshot.isLoading ? <p className="text-sm text-slate-600">Loading the snapshot…</p> : null}
      {snapshot.error ? <Notice tone="error">{snapshot.error.message}</Notice> : null}
      {data ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <Card className="p-0 lg:col-span-2">
            <h3 className="px-5 pt-4 font-semibold">Challenges ({data.challenges.length})</h3>
            {data.challenges.length === 0 ? (
              <p className="px-5 pb-4 pt-2 text-sm text-slate-600">None.</p>
            ) : (
              <ScrollTable
                label="Snapshot challenges"
                className="mt-2"
                minWidth="min-w-[560px]"
                inset="px-5"
                ruled="y"
                columns={["Title", "Category", numeric("Points"), "Status", ...(ctf.host !== "builtin" ? [numeric("Platform ID")] : [])]}
              >
                {data.challenges.map((challenge) => (
                  <tr key={challenge.challenge_id} data-testid="snapshot-challenge" data-title={challenge.title}>
                    <th scope="row" className="px-5 py-2 font-medium">
                      {challenge.title}
                    </th>
                    <td className="px-5 py-2 text-slate-600" data-label="Category">
                      {challenge.category}
                    </td>
                    <td className="px-5 py-2 text-right tabular-nums" data-label="Points">
                      {challenge.points}
                    </td>
                    <td className="px-5 py-2" data-label="Status">
                      <StatusBadge status={challenge.status} />
                    </td>
                    {/* The host's id only where the host is an external platform (CTFd). */}
                    {ctf.host !== "builtin" ? (
                      <td className="px-5 py-2 text-right tabular-nums" data-label="Platform ID">
                        {challenge.platform_challenge_id ?? "—"}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </ScrollTable>
            )}
          </Card>
          <Card className="p-0">
            <h3 className="px-5 pt-4 font-semibold">Members ({data.members.length})</h3>
            {data.members.length === 0 ? (
              <p className="px-5 pb-4 pt-2 text-sm text-slate-600">None.</p>
            ) : (
              <ul className="mt-2 divide-y divide-slate-100 border-t border-slate-200 text-sm">
                {data.members.map((member) => (
                  <li key={member.member_id} className="flex items-center justify-between gap-3 px-5 py-2" data-testid="snapshot-member" data-email={member.email}>
                    <span className="min-w-0 wrap-anywhere">
                      <EmailAddress address={member.email} />
                    </span>
                    <StatusBadge status={member.status} />
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card className="p-0">
            <h3 className="px-5 pt-4 font-semibold">Scores</h3>
            {data.scores.length === 0 ? (
              <p className="px-5 pb-4 pt-2 text-sm text-slate-600">No scores.</p>
            ) : (
              <ol className="mt-2 divide-y divide-slate-100 border-t border-slate-200 text-sm">
                {data.scores.map((score, index) => (
                  <li
                    key={score.team_id ?? score.member_id ?? `account-${score.platform_account_id ?? index}`}
                    className="flex items-center justify-between gap-3 px-5 py-2"
                    data-testid="snapshot-score"
                    data-email={score.email ?? undefined}
                    data-name={score.name}
                  >
                    <span className="min-w-0 wrap-anywhere">
                      <span className="mr-2 tabular-nums text-slate-500">{score.pos ?? index + 1}.</span>
                      {score.name ? <span className="font-medium">{score.name}</span> : null}
                      {score.email ? (
                        <span className={score.name ? "ml-2 text-slate-500" : ""}>
                          <EmailAddress address={score.email} />
                        </span>
                      ) : null}
                      {score.member_id || score.team_id ? null : <span className="ml-2 text-xs text-slate-500">(a CTFd account no member matches)</span>}
                    </span>
                    <span className="font-medium tabular-nums">{score.score}</span>
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </div>
      ) : null}
    </section>
  );
}
