import type { Database } from "@/db";
import { config } from "@/lib/kernel/config/config";
import { claimDueEmails, deliverEmails } from "@/lib/platform/pipeline/channels/email/deliver";
import { msUntilNextDue } from "@/lib/platform/pipeline/outbox/claim";
import { leaseMs } from "@/lib/platform/pipeline/outbox/schedule";
import { claimDueSteps, runStep, type StepRegistry } from "@/lib/platform/pipeline/channels/steps/steps";
import { AttemptRecorder, messageOf, releaseAttempts, startDueAttempts, type ClaimedAttempt } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { deliveryDeadlineMs, postOnce } from "@/lib/platform/pipeline/channels/webhook/http";
import { WakeLoop } from "./loop";
import { logError } from "@/lib/kernel/log";

export type WorkerOptions = {
  /** What runs each kind of scheduled step (the job-handler registry, lib/registry/steps.ts). */
  steps: StepRegistry;
  /** Tasks in flight at once (webhook POSTs, e-mail batches, steps); WORKER_CONCURRENCY by default. */
  concurrency?: number;
  /** The longest sleep between two looks at the outbox; WORKER_POLL_MS by default. */
  pollMs?: number;
  /** Webhook POSTs to one endpoint in flight at once; WEBHOOK_ENDPOINT_CONCURRENCY by default. */
  endpointConcurrency?: number;
};

/** Most deliveries one claiming statement takes. */
const CLAIM_BATCH = 250;
/** Most attempts claimed ahead per endpoint, as a multiple of its concurrency. */
const MAX_AHEAD = 64;
/** Kept free between the last POST a claimed attempt may start and the end of its lease. */
const LEASE_MARGIN_MS = 1_000;

/** Endpoints whose pace is remembered (the least recently answered are forgotten first). */
const PACES_KEPT = 1_000;

/** One endpoint's claimed attempts: waiting for a slot, being POSTed, answered but not yet recorded. */
type Lane = { endpointId: string; waiting: { attempt: ClaimedAttempt; claimedAt: number }[]; posting: number; recording: number };

/**
 * The embedded executor: drains the outbox in this process. Claims are `SKIP LOCKED` with a
 * lease, so several instances share the work and a crashed one's rows come back; all
 * state is in the database, so a restart resumes where it stopped.
 *
 * Webhook deliveries go in batches, per endpoint ("lane"): one statement claims due rows and
 * starts an attempt of each (`startDueAttempts`); each lane POSTs at most
 * `endpointConcurrency` of them at once (within the worker's `concurrency`), over kept-alive
 * connections (lib/platform/pipeline/channels/webhook/http.ts); the answers are recorded together as they come back
 * (`AttemptRecorder`). A lane claims ahead only as many attempts as it can POST well inside
 * their lease at the pace its receiver has answered so far (its concurrency when that pace is
 * not known yet); an attempt that waited so long its POST could outlive the lease is given
 * back unsent (`releaseAttempts`), and so is every waiting attempt when the worker stops.
 */
export class EmbeddedWorker {
  private readonly inflight = new Set<Promise<unknown>>();
  /** Answers being recorded: awaited by stop(), not counted against the concurrency (the POST is over). */
  private readonly recordings = new Set<Promise<unknown>>();
  private readonly loop: WakeLoop;
  private readonly concurrency: number;
  private readonly endpointConcurrency: number;
  /** How long after its claim an attempt may still start its POST and finish inside its lease. */
  private readonly postWindowMs: number;
  private readonly lanes = new Map<string, Lane>();
  /** How long each endpoint's answers have taken lately (moving average, ms). */
  private readonly paces = new Map<string, number>();
  private readonly recorder: AttemptRecorder;
  private readonly steps: StepRegistry;
  private stopping = false;
  /** Delivery claims run one at a time: the last one queued (a refill while one is queued joins it). */
  private claims: Promise<number> = Promise.resolve(0);
  private refillQueued = false;

  constructor(
    private readonly database: Database,
    options: WorkerOptions,
  ) {
    this.steps = options.steps;
    this.concurrency = options.concurrency ?? config().worker.concurrency;
    this.endpointConcurrency = options.endpointConcurrency ?? config().webhooks.endpointConcurrency;
    this.postWindowMs = leaseMs() - deliveryDeadlineMs() - LEASE_MARGIN_MS;
    this.recorder = new AttemptRecorder(database.db);
    this.loop = new WakeLoop(
      database,
      () => this.fill(),
      options.pollMs ?? config().worker.pollMs,
      "worker",
      // With every slot busy, a finishing task wakes the loop: nothing to time.
      () => (this.free() > 0 ? msUntilNextDue(database.db) : Promise.resolve(null)),
    );
  }

  start(): Promise<void> {
    this.stopping = false;
    return this.loop.start();
  }

  /** Stops claiming, gives back the attempts not POSTed yet, then waits for the tasks in flight to finish and record themselves. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    await this.claims.catch(() => {}); // a failed claim was logged where it ran
    const waiting = [...this.lanes.values()].flatMap((lane) => lane.waiting.splice(0).map(({ attempt }) => attempt));
    if (waiting.length) await releaseAttempts(this.database.db, waiting).catch((error) => logError("worker: releasing unsent attempts", error));
    await Promise.allSettled([...this.inflight]);
    await Promise.allSettled([...this.recordings]);
    for (const [id, lane] of this.lanes) if (this.held(lane) === 0) this.lanes.delete(id);
  }

  private async fill(): Promise<number> {
    const db = this.database.db;
    let started = 0;
    const free = () => this.free();
    for (const id of await claimDueSteps(db, free())) started += this.track(runStep(db, id, this.steps));
    if (free() > 0) started += await this.queueClaim();
    if (free() > 0) {
      const emails = await claimDueEmails(db, 100);
      if (emails.length) started += this.track(deliverEmails(db, emails));
    }
    return started;
  }

  /** Runs a delivery claim after the ones already queued (never two at once: each counts what the lanes hold). */
  private queueClaim(): Promise<number> {
    this.claims = this.claims.then(
      () => this.claimDeliveries(),
      () => this.claimDeliveries(),
    );
    return this.claims;
  }

  /**
   * A lane down to half of what it may hold claims more at once, without a whole pass of the
   * loop (which also looks for steps and e-mail): one claim queued at a time.
   */
  private refill(): void {
    if (this.stopping || this.refillQueued) return;
    this.refillQueued = true;
    this.queueClaim()
      .catch((error) => logError("worker: claiming webhook deliveries", error))
      .finally(() => {
        this.refillQueued = false;
      });
  }

  /** Claims due deliveries for the lanes with room, and starts POSTing them. */
  private async claimDeliveries(): Promise<number> {
    if (this.stopping) return 0;
    const room = new Map<string, number>();
    let ahead = 0;
    for (const [id, lane] of this.lanes) {
      const held = this.held(lane);
      ahead += held;
      // Topped up once half its claimed attempts are POSTed: one statement per half lane, not per answer.
      const capacity = this.laneCapacity(lane);
      room.set(id, this.unsent(lane) <= capacity / 2 ? capacity - held : 0);
    }
    const limit = Math.min(CLAIM_BATCH, this.concurrency * MAX_AHEAD - ahead);
    if (limit <= 0) return 0;
    // Before the statement: the lease runs from the database's now(), which is no earlier.
    const claimedAt = performance.now();
    const due = await startDueAttempts(this.database.db, { limit, perEndpoint: this.endpointConcurrency, room });
    for (const attempt of due.started) this.lane(attempt.endpointId).waiting.push({ attempt, claimedAt });
    this.pump();
    // A delivery dropped without a POST (its last attempt was interrupted) is work done too.
    return due.started.length + due.dropped.length;
  }

  private lane(endpointId: string): Lane {
    let lane = this.lanes.get(endpointId);
    if (!lane) this.lanes.set(endpointId, (lane = { endpointId, waiting: [], posting: 0, recording: 0 }));
    return lane;
  }

  /** Attempts a lane may hold (claimed, not yet recorded): as many as it can POST well within their lease at its receiver's pace. */
  private laneCapacity(lane: Lane): number {
    const pace = this.paces.get(lane.endpointId);
    if (pace === undefined) return this.endpointConcurrency;
    const rounds = Math.floor(this.postWindowMs / Math.max(pace, 1));
    return this.endpointConcurrency * Math.max(1, Math.min(MAX_AHEAD, rounds));
  }

  /** Starts POSTs from the lanes, one lane after another, while slots are free. */
  private pump(): void {
    let progress = true;
    while (progress && this.free() > 0 && !this.stopping) {
      progress = false;
      for (const [id, lane] of this.lanes) {
        if (this.free() <= 0) break;
        if (lane.posting >= this.endpointConcurrency || lane.waiting.length === 0) {
          if (this.held(lane) === 0) this.lanes.delete(id);
          continue;
        }
        const next = lane.waiting.shift()!;
        if (performance.now() - next.claimedAt > this.postWindowMs) {
          // It could outlive its lease: give it and the rest of the lane back, unsent.
          const stale = [next.attempt, ...lane.waiting.splice(0).map(({ attempt }) => attempt)];
          this.track(releaseAttempts(this.database.db, stale));
          progress = true;
          continue;
        }
        lane.posting += 1;
        this.track(this.deliver(lane, next.attempt), lane);
        progress = true;
      }
    }
  }

  /**
   * POSTs a claimed attempt; its slot (the lane's and the worker's) is free again as soon as
   * the answer is in. The answer is recorded meanwhile, with the others that come in
   * (AttemptRecorder); stop() waits for that too.
   */
  private async deliver(lane: Lane, attempt: ClaimedAttempt): Promise<void> {
    try {
      const postedAt = new Date();
      const { body, headers } = messageOf(attempt, postedAt);
      const result = await postOnce(attempt.url, body, headers);
      this.notePace(attempt.endpointId, result.durationMs);
      lane.recording += 1;
      const recording: Promise<unknown> = this.recorder
        .record({ ...attempt, postedAt }, result)
        .catch((error) => logError("worker: recording a webhook attempt", error))
        .finally(() => {
          lane.recording -= 1;
          this.recordings.delete(recording);
          if (this.held(lane) === 0 && this.lanes.get(lane.endpointId) === lane) this.lanes.delete(lane.endpointId);
          if (this.unsent(lane) <= this.laneCapacity(lane) / 2) this.refill();
        });
      this.recordings.add(recording);
    } finally {
      lane.posting -= 1;
    }
  }

  /** Attempts a lane holds: claimed and not yet recorded. */
  private held(lane: Lane): number {
    return lane.waiting.length + lane.posting + lane.recording;
  }

  /** Attempts a lane has claimed and not yet POSTed to the end. */
  private unsent(lane: Lane): number {
    return lane.waiting.length + lane.posting;
  }

  private notePace(endpointId: string, ms: number): void {
    const before = this.paces.get(endpointId);
    this.paces.delete(endpointId); // re-inserted last: the map's order is the order of answers
    this.paces.set(endpointId, before === undefined ? ms : before * 0.8 + ms * 0.2);
    if (this.paces.size > PACES_KEPT) this.paces.delete(this.paces.keys().next().value!);
  }

  private free(): number {
    return this.concurrency - this.inflight.size;
  }

  /**
   * Counts a task against the concurrency until it settles; then the lanes go on and the
   * loop looks again — after a webhook POST only when the worker had no free slot (other
   * work may be waiting for one); its lane refills itself once down to half of what it may
   * hold.
   */
  private track(task: Promise<unknown>, lane?: Lane): number {
    const tracked = task
      .catch((error) => logError("worker task", error))
      .finally(() => {
        const wasFull = this.free() <= 0;
        this.inflight.delete(tracked);
        this.pump();
        if (!lane || wasFull) this.loop.wake();
        else if (this.unsent(lane) <= this.laneCapacity(lane) / 2) this.refill();
      });
    this.inflight.add(tracked);
    return 1;
  }
}
