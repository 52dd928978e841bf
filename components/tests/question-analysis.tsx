"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { Badge } from "@/components/ui/badge";
import { Notice } from "@/components/ui/card";
import { queryKeys } from "@/components/query-keys";
import type { QuestionAnalysisView, TestAnalysisView } from "@/lib/certification/insight/schemas";
import { Bar } from "./bars";
import { formatPercent, plural } from "./format";
import { StackedHead, StackedLabel } from "./stacked-head";
import { panelClass, stacked } from "./stacked-table";
import { insightContracts } from "@/lib/certification/insight/contracts";

/** Below this many completed recipients the page says the figures are only indicative. */
const FEW_COMPLETED = 10;

const letter = (index: number) => String.fromCharCode(65 + index);
const questionFlagLabels: Record<QuestionAnalysisView["flags"][number], string> = { hard: "Hard", low_discrimination: "Low discrimination" };
const optionFlagLabels = { chosen_over_correct: "chosen more than the right one", never_chosen: "never chosen" } as const;

/**
 * The question analysis of a test (GET /tests/{code}/analysis): per domain the average, per
 * question the difficulty, the discrimination and how often each option was chosen, with
 * weak questions and suspect distractors highlighted. Refetched when a recipient completes.
 */
export function QuestionAnalysis({ code, completed }: { code: string; completed: number }) {
  const analysis = useQuery({
    queryKey: queryKeys.testAnalysis(code, completed),
    queryFn: () => callApi(insightContracts.analysis, { params: { code } }),
    placeholderData: keepPreviousData,
  });
  const [weakOnly, setWeakOnly] = useState(false);
  const data = analysis.data;

  return (
    <section aria-labelledby="analysis-heading" className="space-y-3" data-testid="question-analysis">
      <h2 id="analysis-heading" className="text-lg font-semibold">
        Question analysis
      </h2>
      {analysis.isError ? <Notice tone="error">{analysis.error.message}</Notice> : null}
      {!data && analysis.isLoading ? <p className="text-sm text-slate-600">Loading…</p> : null}
      {data ? <AnalysisBody data={data} weakOnly={weakOnly} setWeakOnly={setWeakOnly} /> : null}
    </section>
  );
}

function AnalysisBody({ data, weakOnly, setWeakOnly }: { data: TestAnalysisView; weakOnly: boolean; setWeakOnly: (value: boolean) => void }) {
  const { thresholds } = data;
  const weak = data.questions.filter((question) => question.weak).length;
  const shown = weakOnly ? data.questions.filter((question) => question.weak) : data.questions;
  return (
    <>
      <p className="text-sm text-slate-600" data-testid="analysis-summary">
        Based on {plural(data.completed, "completed recipient")}
        {data.in_progress ? ` (${data.in_progress} in progress, not counted yet)` : ""}.
        {data.average_percent !== null ? ` Average result ${formatPercent(data.average_percent)}.` : ""}
        {data.completed > 0 ? ` ${plural(weak, "weak question")}.` : ""}
      </p>
      {data.completed === 0 ? (
        <Notice>Nobody has completed this test yet: the figures appear with the first completed attempt.</Notice>
      ) : data.completed < FEW_COMPLETED ? (
        <Notice>With fewer than {FEW_COMPLETED} completed recipients these figures are only indicative.</Notice>
      ) : null}
      {data.answer_key ? null : (
        <p className="text-xs text-slate-600" data-testid="answer-key-hidden">
          A test of the shared catalog: its right answers are not shown in the trainer area, so options are counted but not marked or flagged.
        </p>
      )}

      <ul className="grid gap-2 text-sm sm:grid-cols-2" aria-label="Average by domain">
        {data.domains.map((domain) => (
          <li key={domain.id} className="rounded-md border border-slate-200 bg-white px-3 py-2" data-testid="analysis-domain" data-domain={domain.name} data-percent={domain.average_percent ?? ""}>
            <span className="flex justify-between gap-2">
              <span className="min-w-0 [overflow-wrap:anywhere]">
                {domain.name} <span className="text-slate-500">· {plural(domain.questions, "question")}</span>
              </span>
              <span className="shrink-0 tabular-nums">{domain.average_percent === null ? "—" : formatPercent(domain.average_percent)}</span>
            </span>
            <Bar value={domain.average_percent ?? 0} className="mt-1" />
          </li>
        ))}
      </ul>

      <details className="text-xs text-slate-600">
        <summary className="cursor-pointer">How to read this table</summary>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>
            % right (difficulty): the share of completed recipients given the question who answered it right (unanswered counts as wrong). “Given”: on a test with a
            different set per recipient, how many of them had it in their set.
          </li>
          <li>
            Discrimination: the correlation (point-biserial, −1 to 1) between being right on the question and the total score. Higher is better;
            near 0 or negative, strong and weak recipients do equally well on it. Blank with fewer than 2 completed recipients, or when everyone
            (or no one) got it right.
          </li>
          <li>
            Weak (highlighted): fewer than {thresholds.hard_below_percent}% right, or a discrimination below {thresholds.low_discrimination_below}.
            Distractors to check: a wrong option chosen more often than the right one, or never chosen.
          </li>
        </ul>
      </details>

      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={weakOnly} onChange={(event) => setWeakOnly(event.target.checked)} />
        Weak questions only
      </label>

      <div className={panelClass}>
        <table className={stacked.table} role="table">
          <caption className="sr-only">Analysis of each question</caption>
          <StackedHead columns={["#", "Question", "Answered", "% right", "Discrimination", "Options chosen"]} />
          <tbody className={stacked.body} role="rowgroup">
            {shown.map((question) => (
              <QuestionRow key={question.question_id} question={question} />
            ))}
          </tbody>
        </table>
        {shown.length === 0 ? <p className="p-4 text-sm text-slate-600">No weak question.</p> : null}
      </div>
    </>
  );
}

function QuestionRow({ question }: { question: QuestionAnalysisView }) {
  return (
    <tr
      role="row"
      data-testid="analysis-row"
      data-question-id={question.question_id}
      data-weak={question.weak}
      className={`${stacked.row} grid grid-cols-2 gap-x-3 gap-y-2 px-4 py-4 align-top md:p-0 ${question.weak ? "bg-amber-50" : ""}`}
    >
      <td role="cell" className={`${stacked.cell} tabular-nums text-slate-500 max-md:hidden`}>
        {question.position}
      </td>
      <th scope="row" role="rowheader" className={`${stacked.cell} col-span-2 font-normal md:min-w-52 md:max-w-80`}>
        <span className="line-clamp-3 [overflow-wrap:anywhere]" title={question.prompt}>
          <span className="text-slate-500 md:hidden">{question.position}. </span>
          {question.prompt}
        </span>
        <span className="mt-1 block text-xs text-slate-500">
          {question.domain.name}
          {question.type === "multiple" ? <span data-testid="analysis-type"> · multiple response, choose {question.choose} (all or nothing)</span> : null}
        </span>
        {question.flags.length ? (
          <span className="mt-1 flex flex-wrap gap-1" data-testid="question-flags">
            {question.flags.map((flag) => (
              <Badge key={flag} tone="warning">
                {questionFlagLabels[flag]}
              </Badge>
            ))}
          </span>
        ) : null}
      </th>
      <td role="cell" className={`${stacked.cell} tabular-nums`}>
        <StackedLabel>Answered</StackedLabel>
        {question.answered}
        <span className="ml-1 text-xs text-slate-500 md:ml-0 md:block" data-testid="analysis-given" data-given={question.given}>
          of {question.given} given
        </span>
      </td>
      <td role="cell" className={`${stacked.cell} tabular-nums ${question.flags.includes("hard") ? "font-semibold text-amber-800" : ""}`} data-testid="percent-correct">
        <StackedLabel>% right</StackedLabel>
        {question.percent_correct === null ? "—" : formatPercent(question.percent_correct)}
      </td>
      <td
        role="cell"
        className={`${stacked.cell} tabular-nums ${question.flags.includes("low_discrimination") ? "font-semibold text-amber-800" : ""}`}
        data-testid="discrimination"
      >
        <StackedLabel>Discrimination</StackedLabel>
        {question.discrimination === null ? "—" : question.discrimination.toFixed(2)}
      </td>
      <td role="cell" className={`${stacked.cell} col-span-2`}>
        <StackedLabel>Options chosen</StackedLabel>
        <ul className="space-y-1 md:min-w-56">
          {question.options.map((option) => (
            <li
              key={option.index}
              className={`flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs ${option.flag ? "text-amber-900" : "text-slate-700"}`}
              data-testid="analysis-option"
              data-flag={option.flag ?? ""}
              data-correct={option.correct ?? ""}
            >
              <span className={`w-4 shrink-0 font-mono ${option.correct ? "font-bold text-green-700" : ""}`}>{letter(option.index)}</span>
              <span className="min-w-0 flex-1 truncate" title={option.text}>
                {option.text}
                {option.correct ? <span className="sr-only"> (right answer)</span> : null}
              </span>
              <span className="shrink-0 tabular-nums">
                {option.chosen}
                {option.percent !== null ? ` (${formatPercent(option.percent)})` : ""}
              </span>
              {/* On a line of its own, so the option's text keeps its room. */}
              {option.flag ? (
                <span className="w-full pl-6">
                  <Badge tone="warning">{optionFlagLabels[option.flag]}</Badge>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      </td>
    </tr>
  );
}
