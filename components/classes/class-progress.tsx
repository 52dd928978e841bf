"use client";

import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/components/api";
import { certificationContracts } from "@/lib/certification/catalog/contracts";
import { classContracts } from "@/lib/certification/classes/contracts";
import { formatDateTime } from "@/components/format/date";
import { formatPercent } from "@/components/tests/format";
import { Card, Notice } from "@/components/ui/card";
import { EmailAddress } from "@/components/ui/email-address";
import { numeric, ScrollTable } from "@/components/ui/table";
import type { ClassProgressView, ClassView } from "@/lib/certification/classes/schemas";
import { queryKeys } from "@/components/query-keys";
import { DomainGrid } from "./domain-grid";
import { gridDomains, levelStyles, scoreLevel } from "./progress";

/** A class's progress, read again every 5 s: the student × domain grid and each student's tests and activity. */
export function ProgressSection({ klass }: { klass: ClassView }) {
  const progress = useQuery({
    queryKey: queryKeys.classProgress(klass.id),
    queryFn: () => callApi(classContracts.progress, { params: { id: klass.id } }),
    refetchInterval: 5_000,
  });
  const certification = useQuery({
    queryKey: queryKeys.certification(klass.certification_id),
    queryFn: () => callApi(certificationContracts.get, { params: { id: klass.certification_id } }),
    staleTime: 60_000,
  });

  return (
    <Card>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold">Progress</h2>
        <p className="text-xs text-slate-500" aria-live="polite">
          {progress.isFetching ? "Refreshing…" : "Refreshed every 5 seconds"}
        </p>
      </div>
      <p className="mt-1 text-sm text-slate-600">Averages over the completed tests sent to this class.</p>
      {progress.isLoading ? <p className="mt-3 text-sm text-slate-600">Loading…</p> : null}
      {progress.error && !progress.data ? (
        <div className="mt-3">
          <Notice tone="error">{progress.error.message}</Notice>
        </div>
      ) : null}
      {progress.data ? <ProgressTables klass={klass} progress={progress.data} certificationDomains={certification.data?.domains ?? []} /> : null}
    </Card>
  );
}

function ProgressTables({
  klass,
  progress,
  certificationDomains,
}: {
  klass: ClassView;
  progress: ClassProgressView;
  certificationDomains: { id: number; name: string }[];
}) {
  if (progress.students.length === 0) {
    return <p className="mt-3 text-sm text-slate-600">Invite students to follow their progress here.</p>;
  }
  return (
    <div className="mt-4 space-y-6">
      <DomainGrid groups={gridDomains(klass, certificationDomains, progress)} students={progress.students} />
      <ActivityTable students={progress.students} />
    </div>
  );
}

/** The activity table's counts of a student's tests: the column, the field of the progress view, the cell's test id. */
const testCounts = [
  { column: "Sent", field: "tests_sent", testId: "tests-sent" },
  { column: "Started", field: "tests_started", testId: "tests-started" },
  { column: "Completed", field: "tests_completed", testId: "tests-completed" },
] as const;

function ActivityTable({ students }: { students: ClassProgressView["students"] }) {
  return (
    <section aria-labelledby="activity-title">
      <h3 id="activity-title" className="text-sm font-semibold text-slate-800">
        Tests and activity
      </h3>
      <ScrollTable
        label="Tests and activity table"
        caption="Tests sent, started and completed by each student, average and last activity"
        className="mt-2"
        minWidth="min-w-[640px]"
        inset="px-3"
        ruled="y"
        columns={["Student", "Status", ...testCounts.map(({ column }) => numeric(column)), numeric("Average"), "Last activity"]}
      >
        {students.map((student) => {
          const level = scoreLevel(student.average_percent);
          return (
            <tr key={student.email} data-testid="progress-row" data-email={student.email}>
              <th scope="row" className="wrap-anywhere px-3 py-2 font-normal">
                {student.name ? <span className="block font-medium">{student.name}</span> : null}
                <EmailAddress address={student.email} />
              </th>
              <td className="px-3 py-2" data-label="Status">{student.status === "joined" ? "Joined" : "Invited"}</td>
              {testCounts.map(({ field, testId, column }) => (
                <td key={field} className="px-3 py-2 text-right tabular-nums" data-testid={testId} data-label={column}>
                  {student[field]}
                </td>
              ))}
              <td className="px-3 py-2 text-right tabular-nums" data-testid="average" data-label="Average">
                {student.average_percent === null ? (
                  <span className="text-slate-500">—</span>
                ) : (
                  <span className={`rounded px-1.5 py-0.5 font-medium ${levelStyles[level]}`}>{formatPercent(student.average_percent)}</span>
                )}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-slate-600" data-label="Last activity">
                {formatDateTime(student.last_activity_at)}
              </td>
            </tr>
          );
        })}
      </ScrollTable>
    </section>
  );
}
