import type { Database } from "@/db";
import { logError } from "@/lib/api/log";
import { config } from "@/lib/config";
import { claimDueEmails, deliverEmails } from "@/lib/email/send";
import { msUntilNextDue } from "@/lib/outbox/claim";
import { claimDueSteps, runStep } from "@/lib/outbox/steps";
import { attemptDelivery, claimDueDeliveries } from "@/lib/webhooks/deliveries";
import { stepHandlers } from "./handlers";
import { WakeLoop } from "./loop";

export type WorkerOptions = {
  /** Tasks in flight at once (webhook attempts, e-mail batches, steps); WORKER_CONCURRENCY by default. */
  concurrency?: number;
  /** The longest sleep between two looks at the outbox; WORKER_POLL_MS by default. */
  pollMs?: number;
};

/**
 * The embedded executor: drains the outbox in this process. Claims are `SKIP LOCKED` with a
 * lease, so several instances share the work and a crashed one's rows come back; all
 * state is in the database, so a restart resumes where it stopped.
 */
export class EmbeddedWorker {
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly loop: WakeLoop;
  private readonly concurrency: number;

  constructor(
    private readonly database: Database,
    options: WorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? config().worker.concurrency;
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
    for (const id of await claimDueDeliveries(db, free())) started += this.track(attemptDelivery(db, id));
    if (free() > 0) {
      const emails = await claimDueEmails(db, 100);
      if (emails.length) started += this.track(deliverEmails(db, emails));
    }
    return started;
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
