import { formatDateTime } from "@/components/format/date";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { EmailAddress } from "@/components/ui/email-address";
import type { RecipientView } from "@/lib/certification/tests/schemas";
import { Bar, StatusBadge } from "./bars";
import { EmailDeliveryStatus, isEmailProblem } from "./email-delivery";
import { formatPercent } from "./format";
import { StackedLabel } from "./stacked-head";
import { stacked } from "./stacked-table";
import { ExtraTimeEditor, ExtraTimeNote } from "./extra-time";

/**
 * One recipient of the test's table: who, their status (with progress and e-mail delivery),
 * their result, their result per domain, and the actions on them (answer sheet, link, resend).
 * `questions` is the test's question count, for a started recipient's progress.
 */
export function RecipientRow({
  code,
  recipient,
  questions,
  resending,
  onResend,
  onOpenSheet,
}: {
  /** The test's code, for the extra-time action. */
  code: string;
  recipient: RecipientView;
  questions: number;
  resending: boolean;
  onResend: () => void;
  onOpenSheet: () => void;
}) {
  return (
    <tr
      role="row"
      data-testid="recipient-row"
      data-email={recipient.email}
      data-status={recipient.status}
      data-email-status={recipient.email_delivery.status}
      data-integrity-flagged={String(recipient.integrity_flagged)}
      className={`${stacked.row} grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-3 px-4 py-4 align-top md:p-0`}
    >
      <th scope="row" role="rowheader" className={`${stacked.cell} font-normal md:min-w-56 md:max-w-64`}>
        {recipient.name ? <span className="block font-medium">{recipient.name}</span> : null}
        {/* Whole where it fits; broken at "@" and dots first, inside a part only when that part is wider than the column. */}
        <span className={`block wrap-anywhere ${recipient.name ? "text-slate-600" : "font-medium"}`}>
          <EmailAddress address={recipient.email} />
        </span>
        <ExtraTimeNote recipient={recipient} />
      </th>
      <StatusCell recipient={recipient} questions={questions} />
      <ResultCell recipient={recipient} />
      <DomainResultsCell recipient={recipient} />
      <td role="cell" className={`${stacked.cell} col-span-2`}>
        <div className="flex flex-wrap gap-2 md:justify-end">
          {recipient.status !== "sent" || recipient.answered > 0 ? (
            <Button type="button" variant="secondary" onClick={onOpenSheet} data-testid="open-answer-sheet">
              Answers<span className="sr-only"> of {recipient.email}</span>
            </Button>
          ) : null}
          <CopyButton value={recipient.link} label="Copy link" target={recipient.email} />
          <Button
            type="button"
            variant="secondary"
            disabled={recipient.status === "completed" || resending}
            title={
              recipient.status === "completed"
                ? "Completed: nothing to resend"
                : recipient.sent_at
                  ? "E-mail the same personal link again"
                  : "E-mail the personal link (it was handed over, not e-mailed)"
            }
            onClick={onResend}
          >
            {resending ? "Sending…" : "Resend"}
            <span className="sr-only"> to {recipient.email}</span>
          </Button>
          <ExtraTimeEditor code={code} recipient={recipient} />
        </div>
      </td>
    </tr>
  );
}

/** The status and when it was reached; a started recipient's progress; the e-mail's fate while it matters. */
function StatusCell({ recipient, questions }: { recipient: RecipientView; questions: number }) {
  return (
    <td role="cell" className={`${stacked.cell} text-right md:text-left`}>
      <StatusBadge status={recipient.status} />
      <span className="mt-1 block whitespace-nowrap text-xs text-slate-500">
        {recipient.status === "completed"
          ? formatDateTime(recipient.completed_at)
          : recipient.status === "started"
            ? formatDateTime(recipient.started_at)
            : recipient.sent_at
              ? formatDateTime(recipient.sent_at)
              : null}
      </span>
      {recipient.status === "started" ? (
        <span className="mt-1 block text-xs text-slate-600" data-testid="recipient-answered">
          {recipient.answered} of {questions} answered
          <Bar value={recipient.answered} max={questions} className="mt-0.5 max-w-32 md:ml-0 max-md:ml-auto" />
        </span>
      ) : null}
      {recipient.integrity_flagged ? (
        <span className="mt-1 block" data-testid="integrity-flag" title="The integrity record saw something: open the answer sheet. Never a verdict.">
          <Badge tone="warning">Integrity: seen</Badge>
        </span>
      ) : null}
      {recipient.status === "sent" || isEmailProblem(recipient.email_delivery) ? (
        <span className="mt-2 block">
          <EmailDeliveryStatus delivery={recipient.email_delivery} correct="Add the corrected address under “Add recipients”." />
        </span>
      ) : null}
    </td>
  );
}

function ResultCell({ recipient }: { recipient: RecipientView }) {
  return (
    <td role="cell" className={`${stacked.cell} col-span-2 whitespace-nowrap`}>
      {recipient.result ? (
        <>
          <StackedLabel>Result</StackedLabel>
          <span data-testid="recipient-percent" className="text-lg font-semibold tabular-nums">
            {formatPercent(recipient.result.percent)}
          </span>
          <span className="ml-2 text-xs text-slate-500 md:ml-0 md:block">
            {recipient.result.correct} of {recipient.result.questions} correct
          </span>
          {recipient.result.passed === null ? null : (
            <span className="ml-2 md:ml-0 md:mt-1 md:block" data-testid="recipient-passed" data-passed={String(recipient.result.passed)}>
              <Badge tone={recipient.result.passed ? "success" : "danger"}>{recipient.result.passed ? "Passed" : "Not passed"}</Badge>
            </span>
          )}
        </>
      ) : (
        <span className="text-slate-400 max-md:hidden">
          <span aria-hidden="true">—</span>
          <span className="sr-only">No result yet</span>
        </span>
      )}
    </td>
  );
}

function DomainResultsCell({ recipient }: { recipient: RecipientView }) {
  return (
    <td role="cell" className={`${stacked.cell} col-span-2 ${recipient.result ? "" : "max-md:hidden"}`}>
      {recipient.result ? (
        <ul className="space-y-1.5 md:min-w-48" aria-label={`Results by domain for ${recipient.email}`}>
          {recipient.result.domains.map((domain) => (
            <li
              key={domain.id}
              data-testid="domain-bar"
              data-domain={domain.name}
              data-domain-id={domain.id}
              data-percent={domain.percent}
            >
              <span className="flex justify-between gap-2 text-xs">
                <span className="min-w-0 text-slate-700">{domain.name}</span>
                <span className="shrink-0 tabular-nums text-slate-600">
                  {formatPercent(domain.percent)}
                  <span className="sr-only">
                    {" "}
                    ({domain.correct} of {domain.questions} correct)
                  </span>
                </span>
              </span>
              <Bar value={domain.percent} className="mt-0.5" />
            </li>
          ))}
        </ul>
      ) : (
        <span className="text-slate-400">
          <span aria-hidden="true">—</span>
          <span className="sr-only">No result yet</span>
        </span>
      )}
    </td>
  );
}
