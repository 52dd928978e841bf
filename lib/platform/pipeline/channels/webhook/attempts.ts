import { and, type AnyColumn, eq, not, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { retryWhileDisconnected } from "@/db/transaction";
import { type Event, events, type WebhookService, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { claimDue } from "@/lib/platform/pipeline/outbox/claim";
import { notifyOutbox, OUTBOX_CHANNEL } from "@/lib/platform/pipeline/outbox/notify";
import { deliveryMaxAttempts, deliveryRetryDelayMs, leaseMs } from "@/lib/platform/pipeline/outbox/schedule";
import { buildWireMessage, endpointSecrets } from "./format";
import { answerOf, recordEndpointHealth } from "./health";
import { postOnce, type PostResult } from "./http";

export type AttemptOutcome =
  | { outcome: "delivered"; attempt: number }
  | { outcome: "retry"; attempt: number; retryInMs: number; error: string }
  | { outcome: "dropped"; attempt: number; error: string }
  | { outcome: "skipped" };

/**
 * Claims due pending deliveries for this worker: `FOR UPDATE SKIP LOCKED` so two
 * instances never take the same row, and a lease so a crashed worker's rows come back.
 */
export function claimDueDeliveries(db: Db, limit: number): Promise<string[]> {
  return claimDue(db, "webhook_deliveries", limit);
}

/** What the POST of an attempt needs, once the attempt is recorded as in flight. */
export type StartedAttempt = {
  deliveryId: string;
  attemptId: number;
  number: number;
  /** The endpoint's service: its retry schedule. */
  service: WebhookService;
  startedAt: Date;
  url: string;
  body: string;
  headers: Record<string, string>;
};

export const INTERRUPTED = "interrupted: the worker stopped mid-attempt; no response was recorded";

/** An in-flight attempt older than the lease belongs to a worker that died (no attempt outlives its lease). */
export const leaseOver = (startedAt: SQL | AnyColumn) => sql`${startedAt} <= now() - ${leaseMs()} * interval '1 millisecond'`;

/**
 * Makes one attempt of a pending delivery and records it: delivered, retry later (on the
 * schedule of the endpoint's service, outbox/schedule.ts), or dropped after the last
 * attempt. The attempt is counted and recorded as in flight BEFORE the POST (startAttempt)
 * and completed after it (finishAttempt), so a worker that dies mid-call has still used that
 * attempt: no receiver ever gets more POSTs for one delivery than its schedule has attempts,
 * and the log shows each of them. The event id and body content stay the same on every
 * attempt; only the build timestamp changes. Used by both executors.
 */
export async function attemptDelivery(db: Db, deliveryId: string): Promise<AttemptOutcome> {
  const start = await startAttempt(db, deliveryId);
  if ("outcome" in start) return start;
  const result = await postOnce(start.url, start.body, start.headers);
  // The receiver has answered: a lost connection is tried again (finishAttempt changes only an
  // attempt still in flight), not left for the lease to POST it a second time.
  return retryWhileDisconnected(() => finishAttempt(db, start, result), leaseMs() / 2);
}

/**
 * Phase one, one short transaction: locks the pending delivery; marks an attempt left in
 * flight by a dead worker `interrupted` (it was counted when it began); then either drops
 * the delivery (its attempts are used up) or counts the next attempt, records it
 * `in_flight` and extends the lease to cover it.
 */
export async function startAttempt(db: Db, deliveryId: string): Promise<StartedAttempt | AttemptOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ delivery: webhookDeliveries, event: events, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")))
      .for("no key update", { of: webhookDeliveries });
    if (!row) return { outcome: "skipped" } as const;

    const inFlight = and(eq(webhookAttempts.deliveryId, deliveryId), eq(webhookAttempts.state, "in_flight"));
    const [live] = await tx
      .select({ id: webhookAttempts.id })
      .from(webhookAttempts)
      .where(and(inFlight, not(leaseOver(webhookAttempts.startedAt))));
    // Another executor is posting this attempt right now (its lease holds): leave it be.
    if (live) return { outcome: "skipped" } as const;
    await tx.update(webhookAttempts).set({ state: "interrupted", error: INTERRUPTED }).where(inFlight);
    // Its endpoint was disabled after the delivery was queued: nothing is sent, it is recorded not sent.
    if (!row.endpoint.enabled) {
      await tx
        .update(webhookDeliveries)
        .set({ status: "not_sent", lockedUntil: null, completedAt: new Date() })
        .where(eq(webhookDeliveries.id, deliveryId));
      return { outcome: "skipped" } as const;
    }

    const used = row.delivery.attempts;
    if (used >= deliveryMaxAttempts(row.endpoint.service)) {
      await tx
        .update(webhookDeliveries)
        .set({ status: "dropped", lockedUntil: null, completedAt: new Date() })
        .where(eq(webhookDeliveries.id, deliveryId));
      return { outcome: "dropped", attempt: used, error: `attempt ${used} was ${INTERRUPTED}` } as const;
    }

    const number = used + 1;
    await tx
      .update(webhookDeliveries)
      .set({ attempts: number, lockedUntil: sql`now() + ${leaseMs()} * interval '1 millisecond'` })
      .where(eq(webhookDeliveries.id, deliveryId));
    const [attempt] = await tx
      .insert(webhookAttempts)
      .values({ deliveryId, number, state: "in_flight", ok: false, durationMs: 0, startedAt: sql`now()` })
      .returning({ id: webhookAttempts.id, startedAt: webhookAttempts.startedAt });
    const message = buildWireMessage(row.event, endpointSecrets(row.endpoint, attempt.startedAt), attempt.startedAt);
    return { deliveryId, attemptId: attempt.id, number, service: row.endpoint.service, startedAt: attempt.startedAt, url: row.endpoint.url, ...message };
  });
}

/**
 * Phase two, after the POST: completes the in-flight attempt with the receiver's answer and
 * moves the delivery on (delivered, retry at now + backoff, or dropped after the last try).
 * If the attempt is no longer in flight, another worker took the delivery over after this
 * one outlived its lease: nothing is recorded.
 */
export async function finishAttempt(db: Db, attempt: StartedAttempt, result: PostResult): Promise<AttemptOutcome> {
  const { deliveryId, number, service } = attempt;
  const status = result.ok ? "delivered" : number >= deliveryMaxAttempts(service) ? "dropped" : "pending";
  const retryInMs = deliveryRetryDelayMs(service, number);
  const recorded = await db.transaction(async (tx) => {
    const [completed] = await tx
      .update(webhookAttempts)
      .set({
        state: "completed",
        ok: result.ok,
        statusCode: result.statusCode,
        error: result.error,
        responseExcerpt: result.excerpt,
        durationMs: result.durationMs,
      })
      .where(and(eq(webhookAttempts.id, attempt.attemptId), eq(webhookAttempts.state, "in_flight")))
      .returning({ id: webhookAttempts.id });
    if (!completed) return false;
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({
        status,
        lockedUntil: null,
        nextAttemptAt: status === "pending" ? sql`now() + ${retryInMs} * interval '1 millisecond'` : sql`${webhookDeliveries.nextAttemptAt}`,
        completedAt: status === "pending" ? null : new Date(),
      })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.attempts, number), eq(webhookDeliveries.status, "pending")))
      .returning({ id: webhookDeliveries.id });
    if (!updated) return false;
    if (status === "pending") await notifyOutbox(tx);
    await recordEndpointHealth(tx, [answerOf(attempt, result, status)]);
    return true;
  });
  if (!recorded) return { outcome: "skipped" };
  if (result.ok) return { outcome: "delivered", attempt: number };
  const error = result.error ?? `HTTP ${result.statusCode}`;
  return status === "dropped" ? { outcome: "dropped", attempt: number, error } : { outcome: "retry", attempt: number, retryInMs, error };
}

// ---------------------------------------------------------------------------------------------
// The embedded worker's batch path: claim and start many attempts in one statement, record
// many answers in one statement. Same rules as startAttempt/finishAttempt above.

/**
 * An attempt started by `startDueAttempts`: counted and recorded in flight, its row leased.
 * The wire message is built when the POST goes out (`messageOf`), signed with that time.
 */
export type ClaimedAttempt = {
  deliveryId: string;
  endpointId: string;
  attemptId: number;
  number: number;
  /** The endpoint's service: its retry schedule. */
  service: WebhookService;
  url: string;
  /** The endpoint's secret, still sealed: opened only when the POST is signed (`messageOf`). */
  secretSealed: string;
  /** The secret before a rotation, sealed, and until when it signs too (ms since the epoch). */
  previousSecretSealed: string | null;
  previousSecretExpiresMs: number | null;
  event: Pick<Event, "id" | "type" | "data">;
};

export type DueAttempts = {
  /** Attempts counted and recorded in flight: POST each (`messageOf`), then `AttemptRecorder.record`, or `releaseAttempts`. */
  started: ClaimedAttempt[];
  /** Deliveries whose attempts were used up (the last one was interrupted): dropped, nothing to POST. */
  dropped: { deliveryId: string; endpointId: string; attempt: number }[];
};

export type DueAttemptLimits = {
  /** Attempts to start at most. */
  limit: number;
  /** Attempts to start at most per endpoint, for endpoints not in `room`. */
  perEndpoint: number;
  /** Attempts that may still be started per endpoint id (0 or less: none), overriding `perEndpoint`. */
  room?: ReadonlyMap<string, number>;
};

type DueRow = {
  delivery_id: string;
  endpoint_id: string;
  status: string;
  attempts: number;
  attempt_id: number | null;
  event_id: string;
  type: string;
  data: Record<string, unknown> | string;
  url: string;
  secret_sealed: string;
  service: WebhookService;
  previous_secret_sealed: string | null;
  previous_secret_expires_ms: number | null;
};

/**
 * Claims up to `limit` due deliveries and starts an attempt of each, in one statement (one
 * round trip, atomic): at most `perEndpoint` (or the endpoint's `room`) per endpoint, oldest
 * due first. Rows are taken `FOR NO KEY UPDATE SKIP LOCKED` and re-checked under the lock
 * (pending, due, no lease), so two workers never take the same row; endpoints without room
 * are not even looked at, so a busy endpoint's backlog never hides another endpoint's rows.
 * For each row, as startAttempt does: an attempt left in flight by a dead worker (its lease
 * is over) is marked interrupted — it was counted when it began — then either the delivery
 * is dropped (attempts used up) or the next attempt is counted, recorded `in_flight`, and
 * the row leased for it. A row with an attempt still in flight under a live lease is left
 * alone; a row whose endpoint is disabled is recorded `not_sent`. The event and the endpoint
 * come back in the same statement.
 */
export async function startDueAttempts(db: Db, { limit, perEndpoint, room = new Map() }: DueAttemptLimits): Promise<DueAttempts> {
  if (limit <= 0) return { started: [], dropped: [] };
  const full = [...room].filter(([, n]) => n <= 0).map(([id]) => id);
  const roomJson = JSON.stringify(Object.fromEntries(room));
  const lease = sql`now() + ${leaseMs()} * interval '1 millisecond'`;
  // Attempts in all, by the endpoint's service (its retry schedule).
  const max = sql`(case when w.service = 'certification' then ${deliveryMaxAttempts("certification")}::int else ${deliveryMaxAttempts("competition")}::int end)`;
  const rows = rowsOf<DueRow>(
    await db.execute(sql`
      with candidates as (
        select id, endpoint_id, next_attempt_at,
               row_number() over (partition by endpoint_id order by next_attempt_at, id) as rank
        from (
          select id, endpoint_id, next_attempt_at from webhook_deliveries
          where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
            and not (endpoint_id = any(string_to_array(${full.join(",")}, ',')))
          order by next_attempt_at
          limit ${limit * 2}
        ) due
      ), chosen as (
        select d.id, d.event_id, d.endpoint_id, d.attempts from webhook_deliveries d
        where d.id in (
          select id from candidates
          where rank <= coalesce((${roomJson}::jsonb ->> endpoint_id)::int, ${perEndpoint})
          order by next_attempt_at, id
          limit ${limit}
        ) and d.status = 'pending' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())
        for no key update skip locked
      ), live as (
        select distinct a.delivery_id from webhook_attempts a join chosen c on c.id = a.delivery_id
        where a.state = 'in_flight' and not (${leaseOver(sql`a.started_at`)})
      ), disabled as (
        update webhook_deliveries d set status = 'not_sent', locked_until = null, completed_at = now()
        from chosen c join webhook_endpoints w on w.id = c.endpoint_id
        where d.id = c.id and not w.enabled and c.id not in (select delivery_id from live)
        returning d.id
      ), go as (
        select c.* from chosen c where c.id not in (select delivery_id from live) and c.id not in (select id from disabled)
      ), interrupted as (
        update webhook_attempts a set state = 'interrupted', error = ${INTERRUPTED}
        from go where a.delivery_id = go.id and a.state = 'in_flight'
        returning a.delivery_id
      ), moved as (
        update webhook_deliveries d set
          attempts = case when d.attempts >= ${max} then d.attempts else d.attempts + 1 end,
          status = case when d.attempts >= ${max} then 'dropped' else d.status end,
          locked_until = case when d.attempts >= ${max} then null else ${lease} end,
          completed_at = case when d.attempts >= ${max} then now() else d.completed_at end
        from go join webhook_endpoints w on w.id = go.endpoint_id where d.id = go.id
        returning d.id, d.event_id, d.endpoint_id, d.attempts, d.status
      ), started as (
        insert into webhook_attempts (delivery_id, number, state, ok, duration_ms, started_at)
        select m.id, m.attempts, 'in_flight', false, 0, now() from moved m where m.status = 'pending'
        returning id, delivery_id
      )
      select m.id as delivery_id, m.endpoint_id, m.status, m.attempts, s.id as attempt_id,
             e.id as event_id, e.type, e.data, w.url, w.secret_sealed, w.service, w.previous_secret_sealed,
             (extract(epoch from w.previous_secret_expires_at) * 1000)::float8 as previous_secret_expires_ms
      from moved m
      left join started s on s.delivery_id = m.id
      join events e on e.id = m.event_id
      join webhook_endpoints w on w.id = m.endpoint_id
      order by m.id`),
  );
  const result: DueAttempts = { started: [], dropped: [] };
  for (const row of rows) {
    if (row.status !== "pending" || row.attempt_id === null) {
      result.dropped.push({ deliveryId: row.delivery_id, endpointId: row.endpoint_id, attempt: row.attempts });
      continue;
    }
    const data = typeof row.data === "string" ? (JSON.parse(row.data) as Record<string, unknown>) : row.data;
    result.started.push({
      deliveryId: row.delivery_id,
      endpointId: row.endpoint_id,
      attemptId: Number(row.attempt_id),
      number: row.attempts,
      service: row.service,
      url: row.url,
      secretSealed: row.secret_sealed,
      previousSecretSealed: row.previous_secret_sealed,
      previousSecretExpiresMs: row.previous_secret_expires_ms === null ? null : Number(row.previous_secret_expires_ms),
      event: { id: row.event_id, type: row.type, data },
    });
  }
  return result;
}

/**
 * The signed bytes and headers of a claimed attempt, as of `at` (when its POST goes out). The
 * secret is opened here, per attempt: one endpoint whose secret cannot be opened (its key is
 * no longer configured) fails its own attempts, not the batch it was claimed with.
 */
export function messageOf(attempt: ClaimedAttempt, at: Date) {
  const { secretSealed, previousSecretSealed, previousSecretExpiresMs: expires } = attempt;
  return buildWireMessage(attempt.event, endpointSecrets({ secretSealed, previousSecretSealed, previousSecretExpiresAt: expires === null ? null : new Date(expires) }, at), at);
}

/**
 * Gives back claimed attempts that were never POSTed (the worker stops, or an attempt waited
 * so long its lease could run out mid-POST): the in-flight record is removed, the attempt
 * uncounted and the lease lifted, so the row is due again at once — nothing was sent, so
 * nothing is used up. An attempt no longer in flight (taken over) is left as it is.
 */
export async function releaseAttempts(db: Db, attempts: readonly Pick<ClaimedAttempt, "attemptId" | "deliveryId" | "number">[]): Promise<number> {
  if (attempts.length === 0) return 0;
  const input = JSON.stringify(attempts.map((a) => ({ attempt_id: a.attemptId, delivery_id: a.deliveryId, number: a.number })));
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with input as (
        select * from jsonb_to_recordset(${input}::jsonb) as x(attempt_id int, delivery_id text, number int)
      ), removed as (
        delete from webhook_attempts a using input i
        where a.id = i.attempt_id and a.delivery_id = i.delivery_id and a.state = 'in_flight'
        returning a.id
      ), moved as (
        update webhook_deliveries d set attempts = d.attempts - 1, locked_until = null
        from input i join removed r on r.id = i.attempt_id
        where d.id = i.delivery_id and d.attempts = i.number and d.status = 'pending'
        returning d.id
      )
      select id from moved`),
  );
  if (rows.length) await db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
  return rows.length;
}

/** Text a PostgreSQL text column can hold: no NUL character. */
const storable = (text: string | null) => (text === null ? null : text.split("\u0000").join(""));

/** What the recorder needs of an attempt: the ids, its number, and when its POST went out. */
export type PostedAttempt = { attemptId: number; deliveryId: string; number: number; service: WebhookService; postedAt: Date };

type Finished = { attempt: PostedAttempt; result: PostResult; resolve: (outcome: AttemptOutcome) => void; reject: (error: unknown) => void };

/**
 * Records the answers of attempts, as finishAttempt does, many in one statement: answers
 * that arrive while a write is under way are written together by the next one (group
 * commit), so a burst of quick receivers costs a few statements, not one per delivery, and
 * no answer waits for a timer. `record` resolves once its answer is written (or was not:
 * `skipped`, when another worker took the delivery over after this one's lease ran out).
 */
export class AttemptRecorder {
  private queue: Finished[] = [];
  private writers = 0;

  constructor(
    private readonly db: Db,
    /** Most answers written by one statement. */
    private readonly batchSize = 500,
    /** Statements under way at once (each on its own connection; they touch different rows). */
    private readonly maxWriters = 2,
  ) {}

  record(attempt: PostedAttempt, result: PostResult): Promise<AttemptOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ attempt, result, resolve, reject });
      if (this.writers < this.maxWriters) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writers += 1;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.batchSize);
        try {
          // The receivers have these: a lost connection is tried again (finishAttempts changes
          // only attempts still in flight), not left for the lease to send them a second time.
          const outcomes = await retryWhileDisconnected(() => finishAttempts(this.db, batch), leaseMs() / 2);
          batch.forEach((item, i) => item.resolve(outcomes[i]));
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      this.writers -= 1;
    }
  }
}

/**
 * finishAttempt for many attempts in one statement; outcomes in the order given. Each
 * attempt's `started_at` becomes the time its POST went out (the time its message was
 * signed with), which may be later than its claim.
 */
export async function finishAttempts(db: Db, finished: readonly Pick<Finished, "attempt" | "result">[]): Promise<AttemptOutcome[]> {
  if (finished.length === 0) return [];
  const input = finished.map(({ attempt, result }) => {
    const status = result.ok ? "delivered" : attempt.number >= deliveryMaxAttempts(attempt.service) ? "dropped" : "pending";
    return {
      attempt_id: attempt.attemptId,
      delivery_id: attempt.deliveryId,
      number: attempt.number,
      posted_ms: attempt.postedAt.getTime(),
      ok: result.ok,
      status_code: result.statusCode,
      error: storable(result.error),
      excerpt: storable(result.excerpt) ?? "",
      duration_ms: result.durationMs,
      status,
      retry_ms: deliveryRetryDelayMs(attempt.service, attempt.number),
    };
  });
  const rows = rowsOf<{ id: string; status: string }>(
    await db.execute(sql`
      with input as (
        select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as x(
          attempt_id int, delivery_id text, number int, posted_ms float8, ok boolean, status_code int, error text,
          excerpt text, duration_ms int, status text, retry_ms int)
      ), done as (
        update webhook_attempts a set state = 'completed', started_at = to_timestamp(i.posted_ms / 1000.0), ok = i.ok,
               status_code = i.status_code, error = i.error, response_excerpt = i.excerpt, duration_ms = i.duration_ms
        from input i where a.id = i.attempt_id and a.state = 'in_flight'
        returning a.id
      ), moved as (
        update webhook_deliveries d set
          status = i.status,
          locked_until = null,
          next_attempt_at = case when i.status = 'pending' then now() + i.retry_ms * interval '1 millisecond' else d.next_attempt_at end,
          completed_at = case when i.status = 'pending' then null else now() end
        from input i join done on done.id = i.attempt_id
        where d.id = i.delivery_id and d.attempts = i.number and d.status = 'pending'
        returning d.id, d.status
      )
      select id, status from moved`),
  );
  const recorded = new Set(rows.map((row) => row.id));
  await recordEndpointHealth(db, finished.flatMap(({ attempt, result }, i) => (recorded.has(attempt.deliveryId) ? [answerOf(attempt, result, input[i].status)] : [])));
  // A retry falls due later: wake every executor so each can time its next look (as finishAttempt does).
  if (rows.some((row) => row.status === "pending")) await db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
  return finished.map(({ attempt, result }, i): AttemptOutcome => {
    if (!recorded.has(attempt.deliveryId)) return { outcome: "skipped" };
    if (result.ok) return { outcome: "delivered", attempt: attempt.number };
    const error = result.error ?? `HTTP ${result.statusCode}`;
    return input[i].status === "dropped"
      ? { outcome: "dropped", attempt: attempt.number, error }
      : { outcome: "retry", attempt: attempt.number, retryInMs: input[i].retry_ms, error };
  });
}

/** Marks a delivery dropped (the Inngest executor's onFailure). */
export async function dropDelivery(db: Db, deliveryId: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: "dropped", lockedUntil: null, completedAt: new Date() })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")));
}

