import { closeDatabase, getDatabase, type Database } from "@/db";
import { isConnectionLost } from "@/db/availability";
import { logError } from "@/lib/api/log";
import { startExecutor, type Executor } from "@/lib/jobs/executor";

let started = false;
let executor: Executor | undefined;

/**
 * Server start-up: the database (migrations, seed), then the background executor. A broken
 * configuration stops the start; an unreachable database does not: the server starts, pages
 * and the API answer 503 meanwhile, and start-up completes in the background when the
 * database answers (requests retry the opening on their own, see getDatabase).
 */
export async function startServer(): Promise<void> {
  if (started) return;
  started = true;
  const stop = async (signal: NodeJS.Signals) => {
    console.log(`[stop] ${signal}: finishing background work, closing the database`);
    await executor?.stop().catch(() => {});
    await closeDatabase().catch(() => {});
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);

  try {
    await startWith(await getDatabase());
  } catch (error) {
    if (!isConnectionLost(error)) throw error;
    logError("start: database unavailable, retrying in the background", error);
    retryStart(1);
  }
}

async function startWith(database: Database): Promise<void> {
  executor = process.env.WORKER === "off" ? undefined : await startExecutor(database);
  console.log(
    `[start] database: ${database.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}; background work: ${executor?.kind ?? "off (WORKER=off)"}`,
  );
}

function retryStart(attempt: number): void {
  const delayMs = Math.min(500 * 2 ** attempt, 5_000);
  setTimeout(async () => {
    try {
      await startWith(await getDatabase());
    } catch (error) {
      if (!isConnectionLost(error)) console.error(`[start] ${(error as Error).message}`);
      retryStart(attempt + 1);
    }
  }, delayMs).unref();
}
