"use client";

import { keepPreviousData } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import Link from "next/link";
import { useState } from "react";
import { callApi } from "@/components/api";
import { Button, buttonClass } from "@/components/ui/button";
import { EmptyList } from "@/components/ui/not-loaded";
import type { Page } from "@/lib/kernel/paging";
import { queryKeys } from "@/components/query-keys";
import { testContracts } from "@/lib/certification/tests/contracts";
import type { TestSummaryView } from "@/lib/certification/tests/schemas";
import { Bar } from "./bars";
import { formatDateTime } from "@/components/format/date";
import { StackedHead, StackedLabel } from "./stacked-head";
import { panelClass, stacked } from "./stacked-table";

const PER_PAGE = 25;

/** The workspace's tests, newest first; refreshed every 5 s so completions show up by themselves. */
export function TestsList({ initial }: { initial?: Page<TestSummaryView> }) {
  const [page, setPage] = useState(1);
  const tests = usePageQuery({
    queryKey: queryKeys.testList(page),
    queryFn: () => callApi(testContracts.list, { query: { page, per_page: PER_PAGE } }),
    initial: page === 1 ? initial : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const total = tests.data?.pagination.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));

  if (total === 0) {
    return (
      <EmptyList query={tests}>
        <h2 className="font-semibold">No tests yet</h2>
        <p className="mt-1 text-sm text-slate-600">
          Pick a certification and its domains, choose how many questions, and send the test to people or to a class.
        </p>
        <Link href="/tests/new" className={buttonClass("primary", "mt-4")}>
          Create your first test
        </Link>
      </EmptyList>
    );
  }

  return (
    <div className="space-y-3">
      <div className={panelClass}>
        <table className={stacked.table} role="table">
          <caption className="sr-only">Tests, newest first</caption>
          <StackedHead columns={["Test", "Certification", "Questions", "Recipients", "Started", "Completed", "Created"]} />
          <tbody className={stacked.body} role="rowgroup">
            {tests.data?.data.map((test) => (
              <tr
                key={test.code}
                role="row"
                data-testid="test-row"
                data-code={test.code}
                className={`${stacked.row} grid grid-cols-3 gap-x-3 gap-y-2 px-4 py-3 hover:bg-slate-50 md:p-0`}
              >
                <th scope="row" role="rowheader" className={`${stacked.cell} font-medium`}>
                  <Link
                    href={`/tests/${test.code}`}
                    data-testid="test-name"
                    className="wrap-anywhere text-brand-700 underline underline-offset-2 md:no-underline md:hover:underline"
                  >
                    {test.name}
                  </Link>
                  <span className="block font-mono text-xs font-normal text-slate-500">{test.code}</span>
                </th>
                <td role="cell" className={`${stacked.cell} col-span-3 max-md:order-1`}>
                  {test.certification}
                  {test.class_id ? <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">Class</span> : null}
                </td>
                <CountCell label="Questions" count={test.questions} />
                <CountCell label="Recipients" count={test.recipients} />
                <CountCell label="Started" count={test.started} />
                <td role="cell" className={`${stacked.cell} col-span-3 max-md:order-3`}>
                  <span data-testid="test-completed" className="block whitespace-nowrap tabular-nums">
                    {`${test.completed} / ${test.recipients} completed`}
                  </span>
                  <Bar value={test.completed} max={test.recipients} tone="green" className="mt-1 w-full max-w-28 max-md:max-w-none" />
                </td>
                <td role="cell" className={`${stacked.cell} col-span-2 whitespace-nowrap text-right text-xs text-slate-600 md:text-left md:text-sm`}>
                  {formatDateTime(test.created_at)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav aria-label="Pages of tests" className="flex items-center justify-between gap-3 text-sm">
          <Button type="button" variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Newer
          </Button>
          <span className="text-slate-600">
            Page {page} of {pages}
          </span>
          <Button type="button" variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            Older
          </Button>
        </nav>
      ) : null}
    </div>
  );
}

/** A count of a test's row: a number, named in front of it on phones. */
function CountCell({ label, count }: { label: string; count: number }) {
  return (
    <td role="cell" className={`${stacked.cell} tabular-nums max-md:order-2`}>
      <StackedLabel>{label}</StackedLabel>
      {count}
    </td>
  );
}
