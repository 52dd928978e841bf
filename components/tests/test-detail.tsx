"use client";

import { keepPreviousData } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { NotLoaded } from "@/components/ui/not-loaded";
import { queryKeys } from "@/components/query-keys";
import { testContracts } from "@/lib/certification/tests/contracts";
import type { TestView } from "@/lib/certification/tests/schemas";
import { RECIPIENTS_PER_PAGE, recipientCount } from "./recipient-pages";
import { AddRecipients } from "./add-recipients";
import { AnswerSheet } from "./answer-sheet";
import { QuestionAnalysis } from "./question-analysis";
import { Recipients } from "./recipients-section";
import { TestHeader } from "./test-header";

/**
 * One test: its header, every recipient with status, progress, result and per-domain bars,
 * personal links, resend and their answer sheet, the question analysis, more recipients, and
 * the CSV export. The recipients come a page at a time (RECIPIENTS_PER_PAGE), so a test of
 * thousands reads and renders one page. While anyone has not completed, it refreshes every 3 s.
 */
export function TestDetail({ code, initial }: { code: string; initial?: TestView }) {
  const [page, setPage] = useState(1);
  const test = usePageQuery({
    queryKey: queryKeys.testPage(code, page),
    queryFn: () => callApi(testContracts.get, { params: { code }, query: { recipients_page: page, recipients_per_page: RECIPIENTS_PER_PAGE } }),
    initial: page === 1 ? initial : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data && query.state.data.completed < recipientCount(query.state.data) ? 3_000 : false),
  });
  const [sheetFor, setSheetFor] = useState<number | null>(null);

  if (!test.data) return <NotLoaded query={test} failure="This test could not be loaded." />;
  const data = test.data;

  return (
    <div className="space-y-6">
      <TestHeader test={data} />
      <Recipients test={data} onOpenSheet={setSheetFor} page={page} onPage={setPage} />
      {sheetOf(data, sheetFor) ? <AnswerSheet code={data.code} recipient={sheetOf(data, sheetFor)!} onClose={() => setSheetFor(null)} /> : null}
      <QuestionAnalysis code={data.code} completed={data.completed} />
      <AddRecipients test={data} />
    </div>
  );
}

const sheetOf = (test: TestView, recipientId: number | null) => test.recipients.find((r) => r.id === recipientId);
