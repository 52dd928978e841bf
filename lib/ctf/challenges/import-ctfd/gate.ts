import { AppError } from "@/lib/kernel/errors";
import { INFLATE_RETRY_AFTER, INFLATE_WAIT_MS, INFLATING_MAX } from "./limits";

/**
 * How many imports inflate at once in this process. Inflating runs on libuv's thread pool
 * (./zip.ts), which file reads and password hashing share: at most INFLATING_MAX imports use
 * it at a time (each inflates its entries one after another, so one thread each). Another
 * import waits its turn, first come first served, for up to `waitMs`; then it is answered 503
 * with Retry-After, having inflated nothing.
 */

type Release = () => void;

export class Slots {
  private active = 0;
  private readonly queue: { grant: (release: Release) => void }[] = [];

  constructor(
    readonly max: number,
    public waitMs: number,
  ) {}

  /** Waits for a slot; the returned function gives it back (calling it again does nothing). */
  acquire(): Promise<Release> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: (release: Release) => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        reject(new AppError("service_unavailable", "Too many archives are being read at the moment: send this one again in a few seconds. Nothing was imported.", { retryAfter: INFLATE_RETRY_AFTER }));
      }, this.waitMs);
      this.queue.push(waiter);
    });
  }

  /** Runs `work` holding a slot. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next.grant(this.releaser());
      else this.active--;
    };
  }
}

/** The process's imports inflating archives. */
export const inflating = new Slots(INFLATING_MAX, INFLATE_WAIT_MS);
