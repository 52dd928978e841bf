/**
 * Runs once when the server starts: opens the database (migrations, catalog seed) so the
 * first request does not pay for it, and a broken configuration fails at start.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startServer } = await import("./lib/server/start");
  await startServer();
}
