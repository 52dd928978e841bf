import type { Database } from "@/db";
import { OUTBOX_CHANNEL } from "@/lib/platform/pipeline/outbox/notify";
import { logError } from "@/lib/kernel/log";
import { reportDatabaseError } from "@/lib/platform/database";

/** The shortest sleep when a row is due but was not claimed (see nextSleepMs). */
const RECHECK_MS = 20;

/**
 * A loop that wakes on NOTIFY (fired at the commit of any outbox write), on a finished
 * task, when the next row falls due (`nextDueInMs`), or at the latest after `pollMs`, and
 * asks `fill` for more work.
 */
export class WakeLoop {
  private running = false;
  private wakeUp: (() => void) | undefined;
  /** A wake-up that came while the loop was not sleeping (during a fill): the next sleep is skipped. */
  private wokenWhileBusy = false;
  /** Consecutive sleeps that found a row due yet unclaimed. */
  private dueButUnclaimed = 0;
  private unlisten: (() => Promise<void>) | undefined;
  private done: Promise<void> | undefined;

  constructor(
    private readonly database: Database,
    /** Claims and starts work; returns how many items it started (0 = nothing due). */
    private readonly fill: () => Promise<number>,
    private readonly pollMs: number,
    private readonly name: string,
    /** Milliseconds until the next row falls due (null: none waiting); absent: poll only. */
    private readonly nextDueInMs?: () => Promise<number | null>,
  ) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unlisten = await this.database.listen(OUTBOX_CHANNEL, () => this.wake());
    this.done = this.run();
  }

  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.wokenWhileBusy = true;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.unlisten?.().catch(() => {});
    await this.done;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.wokenWhileBusy = false;
      let started = 0;
      try {
        started = await this.fill();
      } catch (error) {
        // A lost database marks the process's database down at once (pages answer 503).
        reportDatabaseError(error);
        logError(this.name, error);
      }
      if (!this.running) break;
      if (started > 0) {
        this.dueButUnclaimed = 0;
        continue;
      }
      const ms = await this.nextSleepMs();
      if (this.running && !this.wokenWhileBusy) await this.sleep(ms);
    }
  }

  /**
   * Until the next row falls due, at most `pollMs`. A row due already but not claimed either
   * fell due between the claim and this question (look again at once, RECHECK_MS) or is
   * held by another worker, or every slot is busy: then a NOTIFY, a finished task or the
   * poll wakes the loop, so a second such answer in a row sleeps `pollMs`.
   */
  private async nextSleepMs(): Promise<number> {
    if (!this.nextDueInMs) return this.pollMs;
    let due: number | null;
    try {
      due = await this.nextDueInMs();
    } catch {
      return this.pollMs;
    }
    if (due === null) return this.pollMs;
    if (due > 0) {
      this.dueButUnclaimed = 0;
      return Math.min(this.pollMs, Math.max(1, Math.ceil(due)));
    }
    return this.dueButUnclaimed++ === 0 ? Math.min(this.pollMs, RECHECK_MS) : this.pollMs;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wakeUp = finish;
    });
  }
}
