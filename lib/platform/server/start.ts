import type { Database } from "@/db";
import { isConnectionLost } from "@/db/availability";
import { ConfigError, config, loadConfig, type Config } from "@/lib/kernel/config/config";
import type { StepRegistry } from "@/lib/platform/pipeline/channels/steps/steps";
import { startExecutor, type Executor } from "@/lib/platform/pipeline/executors/executor";
import { logError, logger } from "@/lib/kernel/log";
import { closeDatabase, getDatabase } from "@/lib/platform/database";

let started = false;
let executor: Executor | undefined;
/** What the executor runs: the job-handler registry, handed in by instrumentation.ts. */
let steps: StepRegistry = {};

/**
 * Server start-up: the configuration (every variable parsed at once; a bad one stops the
 * start with a message listing them all), the database (migrations, seed), then the
 * background executor. An unreachable database does not stop the start: the server starts,
 * pages and the API answer 503 meanwhile, and start-up completes in the background when the
 * database answers (requests retry the opening on their own, see getDatabase).
 */
export async function startServer(stepRegistry: StepRegistry): Promise<void> {
  if (started) return;
  steps = stepRegistry;
  const settings = configOrExit();
  // `next build` runs this too (it renders pages): nothing to open then.
  if (settings.buildPhase) return;
  started = true;
  const stop = async (signal: NodeJS.Signals) => {
    logger().info({ context: "stop", signal }, "finishing background work, closing the database");
    await executor?.stop().catch(() => {});
    await closeDatabase().catch(() => {});
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);

  try {
    await startWith(await getDatabase());
  } catch (error) {
    if (!isConnectionLost(error)) exitOnStartError(error);
    logError("start: database unavailable, retrying in the background", error);
    retryStart(1);
  }
}

/**
 * Anything else that fails the start (a migration, say) ends the process too, for the same
 * reason as configOrExit. A configuration error's message is written out: it names
 * variables, never data. (A half-configured Inngest is refused with the configuration.)
 */
function exitOnStartError(error: unknown): never {
  logError("start failed", error);
  if (error instanceof Error && /ConfigError$/.test(error.name)) process.stderr.write(`\n${error.message}\n\n`);
  process.exit(1);
}

/**
 * A bad configuration ends the process: Next.js would otherwise only log the error thrown by
 * instrumentation and keep serving, every request failing. The message lists every bad
 * variable, as one JSON line (for log collectors) and as plain lines on stderr (for a person).
 */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger().fatal({ context: "config", problems: error.problems }, "invalid configuration");
    process.stderr.write(`\n${error.message}\n\n`);
    process.exit(1);
  }
}

async function startWith(database: Database): Promise<void> {
  const settings = config();
  executor = settings.worker.enabled ? await startExecutor(database, steps) : undefined;
  logger().info(
    {
      context: "start",
      database: database.kind === "pglite" ? "pglite" : database.pooled ? "postgres (pooled, direct connection for LISTEN and migrations)" : "postgres",
      background_work: executor?.kind ?? "off (WORKER=off)",
      email_transport: settings.email.transport,
    },
    "started",
  );
}

function retryStart(attempt: number): void {
  const delayMs = Math.min(500 * 2 ** attempt, 5_000);
  setTimeout(async () => {
    try {
      await startWith(await getDatabase());
    } catch (error) {
      if (!isConnectionLost(error)) exitOnStartError(error);
      retryStart(attempt + 1);
    }
  }, delayMs).unref();
}
