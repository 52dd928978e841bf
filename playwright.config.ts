/**
 * End-to-end tests against the BUILT app. Run `npm run build` first: this config only
 * starts it (`npm run start`: scripts/serve.mjs), it never builds (CI builds once, before
 * the e2e step).
 *
 *   npm run build && npx playwright test
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/e2e_x npx playwright test
 *
 * Without DATABASE_URL the app runs on a fresh embedded PGlite directory
 * (.data/e2e-pglite, wiped at start) and one instance on port 3100. PGlite is one
 * process's database, so the two-instance rate-limit spec is skipped then.
 * With DATABASE_URL (give each run its own database) a second instance runs on port 3101
 * against the same database: e2e/rate-limit.spec.ts checks the limiter is exact across both.
 *
 * Artifacts (screenshots of every test, traces of failures, the HTML report and the key
 * pages' full-page screenshots) land in e2e/artifacts/. E2E_ARTIFACTS=off leaves out the
 * screenshots and traces: CI sets it (a throwaway clone keeps nothing, and rendering them was
 * about a fifth of the browsers' CPU time); a failure still prints its error and call log.
 */
import { defineConfig, devices } from "@playwright/test";

// E2E_PORT moves both instances (PORT and PORT + 1), so two runs on one machine do not collide.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const SECOND_PORT = PORT + 1;
const databaseUrl = process.env.DATABASE_URL;
const artifacts = process.env.E2E_ARTIFACTS !== "off";

function appServer(port: number) {
  const env: Record<string, string> = {
    PORT: String(port),
    DEV_MAILBOX: "true",
    // `localhost`, never 127.0.0.1: magic links and session cookies are for this host.
    AUTH_URL: `http://localhost:${port}`,
    // Production requires AUTH_SECRET (lib/kernel/config/config.ts); both instances share it, as deployed ones would.
    AUTH_SECRET: "e2e-only-auth-secret-0123456789abcdef",
    API_LOG: "off",
    // Webhook receivers in these tests listen on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_RETRY_STEP_MS: "500",
    // Every spec signs in from 127.0.0.1: more sign-in links in one run than the default 60 per client address per hour.
    PUBLIC_MAIL_PER_CLIENT: "1000",
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else env.PGLITE_DATA_DIR = `.data/e2e-pglite-${port}`;
  return {
    command: databaseUrl ? "npm run start" : `rm -rf .data/e2e-pglite-${port} .data/e2e-pglite-${port}.pid && npm run start`,
    url: `http://localhost:${port}/signin`,
    env,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
  };
}

const CLOCK_SPECS = /test-settings\.spec\.ts$/;

const browser = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--headless",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e/artifacts/results",
  // Files are shared out between E2E_WORKERS browsers (default 2: a journey mostly waits for
  // the app, so two overlap well on two cores); the tests of one file run in order.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["html", { outputFolder: "e2e/artifacts/report", open: "never" }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    screenshot: artifacts ? "on" : "off",
    trace: artifacts ? "retain-on-failure" : "off",
  },
  projects: [
    // First in the queue: journeys that mostly wait on a real clock (test-settings waits out a
    // 1-minute time limit), so the other browser plays the rest of the suite meanwhile.
    { name: "chromium (clock)", testMatch: CLOCK_SPECS, use: browser },
    { name: "chromium", testIgnore: CLOCK_SPECS, use: browser },
  ],
  webServer: databaseUrl ? [appServer(PORT), appServer(SECOND_PORT)] : [appServer(PORT)],
});
