import { Badge } from "@/components/ui/badge";
import { emailProblemStatuses, type EmailDeliveryStatusView, type EmailDeliveryView } from "@/lib/certification/tests/schemas";
import { formatDateTime } from "@/components/format/date";

type Tone = "neutral" | "info" | "success" | "warning" | "danger";

const labels: Record<EmailDeliveryStatusView, { label: string; tone: Tone }> = {
  // Nothing was e-mailed: the personal link went to whoever added them (send_email: false).
  not_sent: { label: "Link handed over, not e-mailed", tone: "neutral" },
  queued: { label: "E-mail queued", tone: "neutral" },
  sent: { label: "E-mail sent", tone: "info" },
  delivery_delayed: { label: "Delivery delayed", tone: "warning" },
  delivered: { label: "Delivered", tone: "success" },
  complained: { label: "Marked as spam", tone: "warning" },
  bounced: { label: "Bounced", tone: "danger" },
  failed: { label: "Not sent: refused", tone: "danger" },
  dropped: { label: "Not sent: gave up", tone: "danger" },
};

/** Whether this e-mail needs the trainer: a bad address, a refusal, a spam report. */
export function isEmailProblem(delivery: EmailDeliveryView): boolean {
  return emailProblemStatuses.includes(delivery.status);
}

/** What the trainer can do: `correct` names how to fix an address on this page. */
function hintFor(status: EmailDeliveryStatusView, correct: string): { headline: string; next: string } {
  if (status === "complained") return { headline: "The recipient reported this e-mail as spam.", next: "Check with them before sending again." };
  if (status === "dropped") return { headline: "The e-mail could not be sent for hours and was given up.", next: "Send it again." };
  return { headline: "This address did not get the e-mail.", next: `Check the address. ${correct}` };
}

/**
 * The latest e-mail's status for one person: a badge (its words carry the meaning, the colour
 * only repeats it; a problem also gets a warning sign) and, for a problem, the reason as text
 * with what to do about it.
 */
export function EmailDeliveryStatus({ delivery, correct }: { delivery: EmailDeliveryView; correct: string }) {
  const { label, tone } = labels[delivery.status];
  const problem = isEmailProblem(delivery);
  const hint = hintFor(delivery.status, correct);
  return (
    <span className="block" data-testid="email-delivery" data-email-status={delivery.status}>
      <Badge tone={tone}>
        <span className="sr-only">E-mail status: </span>
        {problem ? (
          <span aria-hidden="true" className="mr-1">
            ⚠
          </span>
        ) : null}
        {label}
      </Badge>
      {delivery.updated_at && !problem ? <span className="mt-1 block whitespace-nowrap text-xs text-slate-500">{formatDateTime(delivery.updated_at)}</span> : null}
      {problem ? (
        <span className="mt-1 block max-w-72 text-xs text-red-800 [overflow-wrap:anywhere]" data-testid="email-problem">
          <strong className="font-semibold">{hint.headline}</strong> {delivery.detail ? <span>Reason: {delivery.detail}</span> : null}{" "}
          <span className="text-slate-700">{hint.next}</span>
        </span>
      ) : null}
    </span>
  );
}
