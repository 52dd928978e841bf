import type { Database } from "@/db";
import { config, type Config } from "@/lib/kernel/config/config";
import { logger } from "@/lib/kernel/log";
import { handOffToInngest } from "./inngest";
import { WakeLoop } from "./loop";
import { EmbeddedWorker } from "./worker";
import type { StepRegistry } from "@/lib/platform/pipeline/channels/steps/steps";

export type Executor = { kind: "embedded" | "inngest"; stop(): Promise<void> };

/**
 * Starts the configured executor in this process (`config().inngest.executor`, decided by
 * lib/kernel/config/inngest-mode.ts). Embedded: the worker drains the outbox. Inngest: a dispatcher
 * hands committed rows to Inngest as soon as NOTIFY says they exist (or at the latest every
 * WORKER_POLL_MS), and hands over again rows whose run never completed (the cron function
 * sweeps whatever an instance missed). A half configuration never gets here: the
 * configuration refuses it at start (lib/kernel/config/config.ts), naming what is missing — a silent
 * fallback would leave an operator believing Inngest runs.
 */
export async function startExecutor(database: Database, steps: StepRegistry, settings: Config = config()): Promise<Executor> {
  const { inngest, worker } = settings;
  if (inngest.executor === "inngest") {
    if (inngest.warning) logger().warn({ context: "inngest" }, inngest.warning);
    const loop = new WakeLoop(
      database,
      async () => {
        const { handedOff } = await handOffToInngest(database.db, { strandedAfterMs: inngest.strandedAfterMs });
        return handedOff;
      },
      worker.pollMs,
      "inngest-dispatch",
    );
    await loop.start();
    return { kind: "inngest", stop: () => loop.stop() };
  }
  const embedded = new EmbeddedWorker(database, { steps, concurrency: worker.concurrency, pollMs: worker.pollMs });
  await embedded.start();
  return { kind: "embedded", stop: () => embedded.stop() };
}
