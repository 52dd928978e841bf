import { closeDatabase, getDatabase } from "@/db";
import { startExecutor } from "@/lib/jobs/executor";

let started = false;

/** Server start-up: the database (migrations, seed), then the background executor. */
export async function startServer(): Promise<void> {
  if (started) return;
  started = true;
  const database = await getDatabase();
  const executor = process.env.WORKER === "off" ? undefined : await startExecutor(database);
  console.log(
    `[start] database: ${database.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}; background work: ${executor?.kind ?? "off (WORKER=off)"}`,
  );
  const stop = async (signal: NodeJS.Signals) => {
    console.log(`[stop] ${signal}: finishing background work, closing the database`);
    await executor?.stop().catch(() => {});
    await closeDatabase().catch(() => {});
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
