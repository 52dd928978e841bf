import type { Database } from "@/db";
import { handOffToInngest, inngestConfigured } from "./inngest";
import { WakeLoop } from "./loop";
import { EmbeddedWorker } from "./worker";

export type Executor = { kind: "embedded" | "inngest"; stop(): Promise<void> };

/**
 * Starts the configured executor in this process. Embedded: the worker drains the outbox.
 * Inngest: a dispatcher hands committed rows to Inngest as soon as NOTIFY says they exist
 * (the cron function sweeps whatever an instance missed).
 */
export async function startExecutor(database: Database): Promise<Executor> {
  if (inngestConfigured()) {
    const loop = new WakeLoop(
      database,
      async () => {
        const { handedOff } = await handOffToInngest(database.db);
        return handedOff;
      },
      Number(process.env.WORKER_POLL_MS ?? 5_000),
      "inngest-dispatch",
    );
    await loop.start();
    return { kind: "inngest", stop: () => loop.stop() };
  }
  const worker = new EmbeddedWorker(database);
  await worker.start();
  return { kind: "embedded", stop: () => worker.stop() };
}
