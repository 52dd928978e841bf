import type { Database } from "@/db";
import { logError } from "@/lib/api/log";
import { config } from "@/lib/config";
import { claimDueEmails, deliverEmails } from "@/lib/email/send";
import { msUntilNextDue } from "@/lib/outbox/claim";
import { claimDueSteps, runStep } from "@/lib/outbox/steps";
import { AttemptRecorder, startDueAttempts, type ClaimedAttempt } from "@/lib/webhooks/deliveries";
import { postOnce } from "@/lib/webhooks/http";
import { stepHandlers } from "./handlers";
import { WakeLoop } from "./loop";

export type WorkerOptions = {
  /** Tasks in flight at once (webhook attempts, e-mail batches, steps); WORKER_CONCURRENCY by default. */
  concurrency?: number;
  /** The longest sleep between two looks at the outbox; WORKER_POLL_MS by default. */
  pollMs?: number;
  /** Webhook attempts to one endpoint in flight at once; WEBHOOK_ENDPOINT_CONCURRENCY by default. */
  endpointConcurrency?: number;
};

/**
 * The embedded executor: drains the outbox in this process. Claims are `SKIP LOCKED` with a
 * lease, so several instances share the work and a crashed one's rows come back; all
 * state is in the database, so a restart resumes where it stopped.
 *
 * Webhook deliveries go in batches: one statement claims the due rows and starts an attempt
 * of each (`startDueAttempts`), at most `endpointConcurrency` attempts per endpoint in flight,
 * the POSTs go out over kept-alive connections (lib/webhooks/http.ts), and the answers are
 * recorded together as they come back (`AttemptRecorder`).
 */
export class EmbeddedWorker {
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly loop: WakeLoop;
  private readonly concurrency: number;
  private readonly endpointConcurrency: number;
  /** Webhook attempts in flight, per endpoint id. */
  private readonly busyEndpoints = new Map<string, number>();
  private readonly recorder: AttemptRecorder;

  constructor(
    private readonly database: Database,
    options: WorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? config().worker.concurrency;
    this.endpointConcurrency = options.endpointConcurrency ?? config().webhooks.endpointConcurrency;
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
    return this.loop.start();
  }

  /** Stops claiming, then waits for the tasks in flight to finish and record themselves. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inflight]);
  }

  private async fill(): Promise<number> {
    const db = this.database.db;
    let started = 0;
    const free = () => this.free();
    for (const id of await claimDueSteps(db, free())) started += this.track(runStep(db, id, stepHandlers));
    if (free() > 0) {
      const due = await startDueAttempts(db, { limit: free(), perEndpoint: this.endpointConcurrency, busy: this.busyEndpoints });
      for (const attempt of due.started) started += this.track(this.deliver(attempt));
      // A delivery dropped without a POST (its last attempt was interrupted) is work done too.
      started += due.dropped.length;
    }
    if (free() > 0) {
      const emails = await claimDueEmails(db, 100);
      if (emails.length) started += this.track(deliverEmails(db, emails));
    }
    return started;
  }

  /** POSTs a started attempt and records the answer; its endpoint's slot is held until then. */
  private async deliver(attempt: ClaimedAttempt): Promise<void> {
    const { endpointId } = attempt;
    this.busyEndpoints.set(endpointId, (this.busyEndpoints.get(endpointId) ?? 0) + 1);
    try {
      const result = await postOnce(attempt.url, attempt.body, attempt.headers);
      await this.recorder.record(attempt, result);
    } finally {
      const left = (this.busyEndpoints.get(endpointId) ?? 1) - 1;
      if (left > 0) this.busyEndpoints.set(endpointId, left);
      else this.busyEndpoints.delete(endpointId);
    }
  }

  private free(): number {
    return this.concurrency - this.inflight.size;
  }

  private track(task: Promise<unknown>): number {
    const tracked = task
      .catch((error) => logError("worker task", error))
      .finally(() => {
        this.inflight.delete(tracked);
        this.loop.wake();
      });
    this.inflight.add(tracked);
    return 1;
  }
}
