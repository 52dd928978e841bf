import type { Database } from "@/db";
import { OUTBOX_CHANNEL } from "@/lib/events/publish";

/**
 * A loop that wakes on NOTIFY (fired at the commit of any outbox write), on a finished
 * task, or on a short poll (retries coming due), and asks `fill` for more work.
 */
export class WakeLoop {
  private running = false;
  private wakeUp: (() => void) | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private done: Promise<void> | undefined;

  constructor(
    private readonly database: Database,
    /** Claims and starts work; returns how many items it started (0 = nothing due). */
    private readonly fill: () => Promise<number>,
    private readonly pollMs: number,
    private readonly name: string,
  ) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unlisten = await this.database.listen(OUTBOX_CHANNEL, () => this.wake());
    this.done = this.run();
  }

  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.unlisten?.().catch(() => {});
    await this.done;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let started = 0;
      try {
        started = await this.fill();
      } catch (error) {
        console.error(`[${this.name}] ${(error as Error).message}`);
      }
      if (!this.running) break;
      if (started === 0) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(finish, this.pollMs);
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        finish();
      };
    });
  }
}
