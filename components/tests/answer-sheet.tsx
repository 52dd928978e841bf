"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { callApi } from "@/components/api";
import { formatDateTime } from "@/components/format/date";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { queryKeys } from "@/components/query-keys";
import type { AnswerSheetItem } from "@/lib/certification/insight/schemas";
import type { RecipientView } from "@/lib/certification/tests/schemas";
import { StatusBadge } from "./bars";
import { RecipientCertificate } from "./recipient-certificate";
import { IntegrityRecord } from "./integrity-record";
import { insightContracts } from "@/lib/certification/insight/contracts";

const letter = (index: number) => String.fromCharCode(65 + index);

/**
 * One recipient's answer sheet, under the recipients table: every question in the
 * recipient's order, the option chosen and the right one. It follows an attempt in progress:
 * it is fetched again whenever the recipient's answered count or status changes (the test
 * page refreshes those every 3 s). The heading takes the focus when it opens.
 */
export function AnswerSheet({ code, recipient, onClose }: { code: string; recipient: RecipientView; onClose: () => void }) {
  const sheet = useQuery({
    queryKey: queryKeys.answerSheet(code, recipient.id, `${recipient.status}:${recipient.answered}`),
    queryFn: () => callApi(insightContracts.answers, { params: { code, id: recipient.id } }),
    placeholderData: keepPreviousData,
  });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView({ block: "nearest" });
  }, [recipient.id]);

  const data = sheet.data;
  return (
    <Card className="space-y-4">
      <div data-testid="answer-sheet" data-recipient-id={recipient.id} className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold [overflow-wrap:anywhere]">
              Answer sheet · {recipient.name || recipient.email}
            </h2>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
              <StatusBadge status={recipient.status} />
              {data ? (
                <span data-testid="answer-sheet-summary">
                  {data.answered} of {data.questions} answered · {data.correct} correct
                </span>
              ) : null}
            </p>
          </div>
          <Button type="button" variant="secondary" onClick={onClose}>
            Close<span className="sr-only"> the answer sheet</span>
          </Button>
        </div>
        {recipient.result?.certificate_url ? <RecipientCertificate code={code} recipientId={recipient.id} /> : null}
        {sheet.isError ? <Notice tone="error">{sheet.error.message}</Notice> : null}
        {!data && sheet.isLoading ? <p className="text-sm text-slate-600">Loading…</p> : null}
        {data ? <IntegrityRecord integrity={data.integrity} /> : null}
        {data && !data.answer_key ? (
          <p className="text-xs text-slate-600" data-testid="answer-key-hidden">
            A test of the shared catalog: its right answers and explanations are not shown in the trainer area. Each answer is marked right or wrong.
          </p>
        ) : null}
        {data ? (
          <ol className="space-y-3" aria-label={`Answers of ${recipient.email}`}>
            {data.answers.map((item) => (
              <SheetItem key={item.question_id} item={item} />
            ))}
          </ol>
        ) : null}
      </div>
    </Card>
  );
}

function SheetItem({ item }: { item: AnswerSheetItem }) {
  const outcome = item.chosen === null ? { tone: "neutral" as const, label: "Not answered" } : item.correct ? { tone: "success" as const, label: "Correct" } : { tone: "danger" as const, label: "Wrong" };
  return (
    <li
      className="rounded-md border border-slate-200 p-3 text-sm"
      data-testid="answer-sheet-item"
      data-outcome={item.chosen === null ? "unanswered" : item.correct ? "correct" : "wrong"}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 font-medium [overflow-wrap:anywhere]">
          <span className="text-slate-500">{item.position}.</span> {item.prompt}
        </p>
        <Badge tone={outcome.tone}>{outcome.label}</Badge>
      </div>
      <p className="mt-1 text-xs text-slate-500">
        {item.domain.name}
        {item.type === "multiple" ? ` · multiple response, choose ${item.choose} (all or nothing)` : ""}
        {item.answered_at ? ` · answered ${formatDateTime(item.answered_at)}` : ""}
      </p>
      <ul className="mt-2 space-y-1">
        {item.options.map((text, index) => {
          const chosen = inSet(item.chosen, index);
          const right = inSet(item.correct_option, index);
          // Without the answer key (a catalog test), a chosen option is still right or wrong.
          const good = right || (chosen && item.correct);
          return (
            <li
              key={index}
              className={`flex gap-2 rounded px-2 py-1 ${good ? "bg-green-50 text-green-900" : chosen ? "bg-red-50 text-red-900" : "text-slate-700"}`}
            >
              <span className="shrink-0 font-mono">{letter(index)}</span>
              <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{text}</span>
              <span className="shrink-0 text-xs font-medium">
                {[chosen ? "chosen" : null, right ? "right answer" : null].filter(Boolean).join(" · ")}
              </span>
            </li>
          );
        })}
      </ul>
      {item.explanation ? <p className="mt-2 text-xs text-slate-600 [overflow-wrap:anywhere]">{item.explanation}</p> : null}
    </li>
  );
}

/** Whether option `index` is the value, or one of the set (a multiple-response question). */
const inSet = (value: number | number[] | null, index: number) => (Array.isArray(value) ? value.includes(index) : value === index);
