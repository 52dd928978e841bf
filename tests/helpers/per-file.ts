import { afterAll, vi } from "vitest";

/**
 * Runs before every test file (vitest.config.ts `setupFiles`).
 *
 * The suite runs with `isolate: false`: a worker process is reused for many files, so the
 * packages in node_modules (Next.js, PGlite, Inngest, zod, …), the costly part of an import,
 * load once per worker instead of once per file. What isolation gave for free is restored
 * here, so a test file is written exactly as if it ran alone:
 *
 * - The app's own modules start fresh in every file (`vi.resetModules()`): module-level state
 *   (the parsed configuration, the logger and its target, caches) is new, and a file's
 *   `vi.mock(…)` applies to every app module it imports, never to another file's.
 * - After the file: environment variables are put back as they were before the first file
 *   (`vi.stubEnv` left unstubbed, or `process.env` set by hand), timers and globals are real
 *   again, and a database the file left open is closed (its PostgreSQL connections too).
 *
 * What it cannot undo: a server, worker or interval a file started and never stopped keeps
 * running in the worker process. Stop what you start in `afterAll`, as every file does.
 */

type Shared = { env?: Record<string, string | undefined> };
const shared = ((globalThis as { __certifyTestWorker?: Shared }).__certifyTestWorker ??= {});
// The environment as the worker started, before any file could change it.
const baseline = (shared.env ??= { ...process.env });

vi.resetModules();

afterAll(async () => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  restoreEnvironment();
  await closeLeftoverDatabase();
  // A file that simulated an outage leaves the process's database marked up again (db/availability.ts).
  const availability = (globalThis as { __certifyDbAvailability?: { down: boolean } }).__certifyDbAvailability;
  if (availability) availability.down = false;
});

function restoreEnvironment(): void {
  for (const name of Object.keys(process.env)) {
    if (!(name in baseline) && !name.startsWith("VITEST")) delete process.env[name];
  }
  for (const [name, value] of Object.entries(baseline)) {
    if (name.startsWith("VITEST") || process.env[name] === value) continue;
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/** The process's database (db/index.ts keeps it on globalThis), when a file did not drop its own. */
async function closeLeftoverDatabase(): Promise<void> {
  const holder = (globalThis as { __certifyDb?: { ready?: Promise<{ close(): Promise<void> }> } }).__certifyDb;
  const ready = holder?.ready;
  if (!ready) return;
  holder.ready = undefined;
  await (await ready.catch(() => undefined))?.close().catch(() => {});
}
