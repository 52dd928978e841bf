import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { createElement } from "react";
import type { Db } from "@/db";
import { users, webhookDeliveries, webhookEndpoints, workspaces } from "@/db/schema";
import { appUrl, config } from "@/lib/kernel/config/config";
import { logError } from "@/lib/kernel/log";
import { EndpointDisabledEmail } from "@/lib/platform/email/templates/endpoint-disabled";
import { EndpointFailingEmail, type EndpointHealthProps } from "@/lib/platform/email/templates/endpoint-failing";
import { queueEmail } from "@/lib/platform/pipeline/channels/email/queue";

/**
 * Endpoint health (docs/webhooks.md, "Endpoint health"), judged from the receivers' answers as
 * the delivery engine records them:
 * - a failed attempt starts a run of failures (`failing_since`, kept until an attempt succeeds);
 * - the endpoint *is failing* once a delivery has failed FAILING_AFTER_ATTEMPTS attempts in a
 *   row or is dropped: its owner is e-mailed, at most once a day per endpoint (`health_mailed_at`);
 * - after WEBHOOK_DISABLE_AFTER_DAYS of nothing but failures it is disabled (`failing`), with a mail.
 * Every change is a guarded UPDATE of the endpoint's row (the condition re-checked under its row
 * lock), so two workers recording answers at once send each mail once; a mail is queued in the
 * same transaction as the change that decides it.
 */

/** Failed attempts of one delivery after which its endpoint counts as failing (a competition delivery's last). */
export const FAILING_AFTER_ATTEMPTS = 3;
/** At most one "failing" mail per endpoint in this window. */
const MAIL_EVERY = sql`interval '1 day'`;
const DAY_MS = 86_400_000;

/** A receiver's answer to one attempt, as recorded. */
export type RecordedAnswer = {
  deliveryId: string;
  /** The attempt's number within its delivery (1 = first). */
  number: number;
  ok: boolean;
  /** The delivery was dropped by this answer (its last attempt failed). */
  dropped: boolean;
  /** "HTTP 500" or the network error, for the mail. */
  error: string | null;
};

type EndpointRow = {
  id: string;
  workspaceId: string;
  url: string;
  service: string;
  enabled: boolean;
  failingSince: Date | null;
  healthMailedAt: Date | null;
};

type Verdict = { endpoint: EndpointRow; ok: boolean; failing: boolean; lastError: string };

/**
 * Updates the health of the endpoints these answers came from. Never throws: a problem here
 * is logged and must not undo or fail the recording of the answers. Each endpoint's changes
 * run in a transaction of their own (a savepoint when `db` is the transaction that recorded
 * the answers, as finishAttempt's is), one row locked at a time.
 */
export async function recordEndpointHealth(db: Db, answers: readonly RecordedAnswer[]): Promise<void> {
  if (answers.length === 0) return;
  try {
    for (const verdict of await verdicts(db, answers)) {
      if (hasWork(verdict, Date.now())) await db.transaction((tx) => applyVerdict(tx, verdict));
    }
  } catch (error) {
    logError("webhook.health", error, { delivery_id: answers[0].deliveryId });
  }
}

/** One verdict per endpoint: any success clears its run; otherwise whether it now counts as failing. */
async function verdicts(db: Db, answers: readonly RecordedAnswer[]): Promise<Verdict[]> {
  const rows = await db
    .select({
      deliveryId: webhookDeliveries.id,
      endpoint: {
        id: webhookEndpoints.id,
        workspaceId: webhookEndpoints.workspaceId,
        url: webhookEndpoints.url,
        service: webhookEndpoints.service,
        enabled: webhookEndpoints.enabled,
        failingSince: webhookEndpoints.failingSince,
        healthMailedAt: webhookEndpoints.healthMailedAt,
      },
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(inArray(webhookDeliveries.id, [...new Set(answers.map((answer) => answer.deliveryId))]));
  const endpointOf = new Map(rows.map((row) => [row.deliveryId, row.endpoint]));
  const byEndpoint = new Map<string, Verdict>();
  for (const answer of answers) {
    const endpoint = endpointOf.get(answer.deliveryId);
    if (!endpoint) continue;
    const verdict = byEndpoint.get(endpoint.id) ?? { endpoint, ok: false, failing: false, lastError: "" };
    verdict.ok ||= answer.ok;
    if (!answer.ok) {
      verdict.failing ||= answer.dropped || answer.number >= FAILING_AFTER_ATTEMPTS;
      verdict.lastError = answer.error ?? "no answer";
    }
    byEndpoint.set(endpoint.id, verdict);
  }
  return [...byEndpoint.values()];
}

/**
 * Whether the endpoint's row may change: most answers change nothing (a success while no run
 * is under way; a failure while the run is known, mailed today and younger than the limit),
 * and then no transaction is opened. Only a shortcut: every change re-checks under the lock.
 */
function hasWork({ endpoint, ok, failing }: Verdict, now: number): boolean {
  if (ok) return endpoint.failingSince !== null;
  if (!endpoint.failingSince || !endpoint.enabled) return !endpoint.failingSince;
  const mailDue = failing && (!endpoint.healthMailedAt || endpoint.healthMailedAt.getTime() <= now - DAY_MS);
  return mailDue || endpoint.failingSince.getTime() <= now - config().webhooks.disableAfterMs;
}

async function applyVerdict(tx: Db, { endpoint, ok, failing, lastError }: Verdict): Promise<void> {
  const id = eq(webhookEndpoints.id, endpoint.id);
  if (ok) {
    // The endpoint answers: its run of failures (if any) is over.
    if (endpoint.failingSince) await tx.update(webhookEndpoints).set({ failingSince: null }).where(and(id, isNotNull(webhookEndpoints.failingSince)));
    return;
  }
  if (!endpoint.failingSince) {
    await tx.update(webhookEndpoints).set({ failingSince: sql`now()` }).where(and(id, isNull(webhookEndpoints.failingSince)));
  }
  if (!endpoint.enabled) return;
  const disableAfterMs = config().webhooks.disableAfterMs;
  const [disabled] = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledAt: sql`now()`, disabledReason: "failing", healthMailedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(id, eq(webhookEndpoints.enabled, true), sql`${webhookEndpoints.failingSince} <= now() - ${disableAfterMs} * interval '1 millisecond'`))
    .returning({ failingSince: webhookEndpoints.failingSince });
  if (disabled) return mailOwner(tx, endpoint, "disabled", disabled.failingSince!, lastError);
  if (!failing) return;
  const [mailed] = await tx
    .update(webhookEndpoints)
    .set({ healthMailedAt: sql`now()` })
    .where(
      and(
        id,
        eq(webhookEndpoints.enabled, true),
        isNotNull(webhookEndpoints.failingSince),
        sql`(${webhookEndpoints.healthMailedAt} is null or ${webhookEndpoints.healthMailedAt} <= now() - ${MAIL_EVERY})`,
      ),
    )
    .returning({ failingSince: webhookEndpoints.failingSince });
  if (mailed) await mailOwner(tx, endpoint, "failing", mailed.failingSince!, lastError);
}

/** Queues the health mail to the workspace owner's address (none: nothing to send). */
async function mailOwner(tx: Db, endpoint: EndpointRow, what: "failing" | "disabled", failingSince: Date, lastError: string): Promise<void> {
  const [owner] = await tx
    .select({ email: users.email })
    .from(workspaces)
    .innerJoin(users, eq(users.id, workspaces.ownerUserId))
    .where(eq(workspaces.id, endpoint.workspaceId));
  if (!owner?.email) return;
  const link = `${appUrl()}/webhooks`;
  const props: EndpointHealthProps = {
    url: endpoint.url,
    kind: endpoint.service === "certification" ? "test-result endpoint" : "competition endpoint",
    failingSince: `${failingSince.toISOString().slice(0, 16).replace("T", " ")} UTC`,
    lastError,
    disableAfter: durationText(config().webhooks.disableAfterMs),
    link,
  };
  await queueEmail(tx, {
    kind: what === "failing" ? "webhook_failing" : "webhook_disabled",
    to: owner.email,
    subject: what === "failing" ? `Webhook endpoint failing: ${endpoint.url}` : `Webhook endpoint disabled: ${endpoint.url}`,
    react: createElement(what === "failing" ? EndpointFailingEmail : EndpointDisabledEmail, props),
    links: [link],
    workspaceId: endpoint.workspaceId,
  });
}

/** "5 days", "12 hours", "3 minutes", "2 seconds": the disable rule as the owner reads it. */
export function durationText(ms: number): string {
  const units: [string, number][] = [
    ["day", 86_400_000],
    ["hour", 3_600_000],
    ["minute", 60_000],
    ["second", 1_000],
  ];
  for (const [unit, size] of units) {
    if (ms >= size) {
      const n = Math.round((ms / size) * 10) / 10;
      return `${n} ${unit}${n === 1 ? "" : "s"}`;
    }
  }
  return `${ms} ms`;
}

/** The answer to record of an attempt whose delivery moved to `status` (delivered, pending or dropped). */
export function answerOf(attempt: { deliveryId: string; number: number }, result: { ok: boolean; error: string | null; statusCode: number | null }, status: string): RecordedAnswer {
  return { deliveryId: attempt.deliveryId, number: attempt.number, ok: result.ok, dropped: status === "dropped", error: result.error ?? `HTTP ${result.statusCode}` };
}
