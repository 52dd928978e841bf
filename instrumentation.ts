/**
 * Runs once when the server starts: parses the configuration (lib/kernel/config/config.ts; a bad value
 * stops the start with a message listing every bad variable) and opens the database
 * (migrations, catalog seed) so the first request does not pay for it. Then hands proxy.ts the
 * first page of a personal link served from its shell (app/t/[token]/_shell/first-page.ts).
 */
export async function register() {
  // Next.js replaces NEXT_RUNTIME at compile time, so the Edge bundle drops the import below:
  // the one read of process.env outside lib/kernel/config/config.ts (a build constant, not configuration).
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ startServer }, { stepRegistry }, { installRecipientFirstPage }] = await Promise.all([
    import("./lib/platform/server/start"),
    import("./lib/registry/steps"),
    import("./app/t/[token]/_shell/first-page"),
  ]);
  await startServer(stepRegistry);
  installRecipientFirstPage();
}
