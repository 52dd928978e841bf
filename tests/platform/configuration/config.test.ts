import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, DEFAULT_EMAIL_FROM, config, parseConfig, resetConfig } from "@/lib/kernel/config/config";

const production = { NODE_ENV: "production", AUTH_SECRET: "s".repeat(43), AUTH_URL: "https://certify.example.org" };

function problemsOf(env: Record<string, string>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

describe("parseConfig", () => {
  it("gives the embedded defaults for an empty environment", () => {
    const settings = parseConfig({});
    expect(settings.database).toMatchObject({ url: undefined, pooled: false, poolMax: 10, connectTimeoutSeconds: 2, statementTimeoutMs: 5_000 });
    expect(settings.email).toMatchObject({ transport: "mailbox", from: DEFAULT_EMAIL_FROM, devMailbox: true });
    expect(settings.worker).toEqual({ enabled: true, concurrency: 8, pollMs: 1_000, leaseMs: 30_000 });
    expect(settings.appUrl).toBe("http://localhost:3000");
    expect(settings.log).toEqual({ requests: true, level: "info" });
    expect(settings.webhooks).toEqual({
      retryStepMs: 5_000,
      testResultRetryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      allowPrivate: true,
      deadlineMs: 8_000,
      endpointConcurrency: 4,
      disableAfterMs: 5 * 86_400_000,
    });
  });

  it("refuses WORKER_CONCURRENCY=eight with a message naming the variable and the value", () => {
    const error = problemsOf({ WORKER_CONCURRENCY: "eight" });
    expect(error.problems).toEqual([{ variable: "WORKER_CONCURRENCY", message: 'WORKER_CONCURRENCY must be a whole number from 1 to 256 (got "eight")' }]);
    expect(error.message).toContain("WORKER_CONCURRENCY must be a whole number");
  });

  it("lists every bad variable at once, not just the first", () => {
    const error = problemsOf({
      NODE_ENV: "production",
      WORKER_CONCURRENCY: "eight",
      WORKER_POLL_MS: "1s",
      WORKER_LEASE_MS: "5000",
      DATABASE_POOL_MAX: "0",
      DATABASE_URL: "mysql://db/certify",
      TRUST_PROXY: "yes",
      LOG_LEVEL: "loud",
      API_LOG: "maybe",
      RESEND_API_KEY: "re_live",
    });
    expect(error.problems.map((problem) => problem.variable).sort()).toEqual(
      [
        "API_LOG",
        "AUTH_SECRET",
        "AUTH_URL",
        "DATABASE_POOL_MAX",
        "DATABASE_URL",
        "EMAIL_FROM",
        "LOG_LEVEL",
        "TRUST_PROXY",
        "WORKER_CONCURRENCY",
        "WORKER_LEASE_MS",
        "WORKER_POLL_MS",
      ].sort(),
    );
    // One line per problem, each naming its variable.
    const lines = error.message.split("\n").slice(1);
    expect(lines).toHaveLength(error.problems.length);
    for (const problem of error.problems) expect(lines.some((line) => line.includes(problem.variable))).toBe(true);
  });

  it("lists a bad number, a bad rate and a half-configured Inngest in one error", () => {
    const error = problemsOf({ WORKER_CONCURRENCY: "eight", EMAIL_RATE_PER_SECOND: "fast", INNGEST_EVENT_KEY: "evt-key-123" });
    expect(error.problems).toEqual([
      // In the schema's order, then the rules between variables.
      { variable: "EMAIL_RATE_PER_SECOND", message: 'EMAIL_RATE_PER_SECOND must be a number from 0.01 to 1000 (got "fast")' },
      { variable: "WORKER_CONCURRENCY", message: 'WORKER_CONCURRENCY must be a whole number from 1 to 256 (got "eight")' },
      { variable: "INNGEST_SIGNING_KEY", message: expect.stringContaining("Inngest is half configured: INNGEST_EVENT_KEY is set but INNGEST_SIGNING_KEY is not") },
    ]);
    expect(error.message).toMatch(/^Invalid configuration \(3 problems\)/);
    expect(error.message.split("\n").slice(1)).toHaveLength(3);
    // The key itself is never shown.
    expect(error.message).not.toContain("evt-key-123");
  });

  it("never echoes a secret or a connection string", () => {
    const error = problemsOf({ DATABASE_URL: "mysql://admin:hunter2-password@db/x", AUTH_SECRET: "short-secret-value", RESEND_API_KEY: "sk_live_wrong_prefix" });
    expect(error.problems.map((problem) => problem.variable).sort()).toEqual(["AUTH_SECRET", "DATABASE_URL", "RESEND_API_KEY"]);
    expect(error.message).not.toMatch(/hunter2|short-secret-value|sk_live_wrong_prefix/);
  });

  it("treats an empty value as unset", () => {
    const settings = parseConfig({ DATABASE_URL: "", WORKER_CONCURRENCY: " ", RESEND_API_KEY: "", WEBHOOK_ALLOW_PRIVATE: "" });
    expect(settings.database.url).toBeUndefined();
    expect(settings.worker.concurrency).toBe(8);
    expect(settings.email.transport).toBe("mailbox");
  });

  describe("Resend needs a real sender", () => {
    it("refuses RESEND_API_KEY without EMAIL_FROM: certify.localhost cannot send through Resend", () => {
      expect(problemsOf({ RESEND_API_KEY: "re_123" }).problems).toEqual([{ variable: "EMAIL_FROM", message: expect.stringMatching(/EMAIL_FROM is required with RESEND_API_KEY/) }]);
    });

    it.each(["Certify <no-reply@certify.localhost>", "ops@example.com", "Certify <a@mail.example.org>", "a@host.test", "not an address"])("refuses EMAIL_FROM=%j", (from) => {
      expect(problemsOf({ RESEND_API_KEY: "re_123", EMAIL_FROM: from }).problems.map((problem) => problem.variable)).toEqual(["EMAIL_FROM"]);
    });

    it("accepts a sender on a public domain, and any sender for a stand-in at RESEND_BASE_URL", () => {
      expect(parseConfig({ RESEND_API_KEY: "re_123", EMAIL_FROM: "Certify <no-reply@certify.app>" }).email).toMatchObject({ transport: "resend", from: "Certify <no-reply@certify.app>", devMailbox: false });
      expect(parseConfig({ RESEND_API_KEY: "re_123", RESEND_BASE_URL: "http://127.0.0.1:4010" }).email.from).toBe(DEFAULT_EMAIL_FROM);
    });
  });

  describe("production", () => {
    it("requires AUTH_SECRET and AUTH_URL", () => {
      expect(problemsOf({ NODE_ENV: "production" }).problems.map((problem) => problem.variable)).toEqual(["AUTH_SECRET", "AUTH_URL"]);
      expect(parseConfig(production)).toMatchObject({ production: true, appUrl: "https://certify.example.org" });
      // APP_URL names the public URL as well.
      expect(parseConfig({ ...production, AUTH_URL: "", APP_URL: "https://app.certify.app/" }).appUrl).toBe("https://app.certify.app");
    });

    it("does not require them while `next build` renders pages", () => {
      expect(parseConfig({ NODE_ENV: "production", NEXT_PHASE: "phase-production-build" }).buildPhase).toBe(true);
    });

    it("keeps WORKER_LEASE_MS at 10 s or more; a shorter lease is for tests, and outlasts every attempt", () => {
      expect(problemsOf({ ...production, WORKER_LEASE_MS: "9999" }).problems).toEqual([
        { variable: "WORKER_LEASE_MS", message: "WORKER_LEASE_MS must be at least 10000 in production (shorter leases are for tests)" },
      ]);
      expect(parseConfig({ ...production, WORKER_LEASE_MS: "10000" }).worker.leaseMs).toBe(10_000);
      // Outside production, 2 s longer than the webhook deadline and the Resend timeout (default 8 s and 10 s).
      expect(parseConfig({ WORKER_LEASE_MS: "5000", WEBHOOK_DEADLINE_MS: "3000", RESEND_TIMEOUT_MS: "2000" }).worker.leaseMs).toBe(5_000);
      expect(problemsOf({ WORKER_LEASE_MS: "5000", WEBHOOK_DEADLINE_MS: "3000" }).problems).toEqual([
        { variable: "WORKER_LEASE_MS", message: "WORKER_LEASE_MS under 10000 must outlast WEBHOOK_DEADLINE_MS and RESEND_TIMEOUT_MS by 2000 ms (at least 12000)" },
      ]);
      expect(problemsOf({ WORKER_LEASE_MS: "999" }).problems.map((p) => p.variable)).toEqual(["WORKER_LEASE_MS"]);
    });

    it("refuses private webhook destinations and the dev mailbox unless the operator opts in", () => {
      expect(parseConfig(production).webhooks.allowPrivate).toBe(false);
      expect(parseConfig(production).email.devMailbox).toBe(false);
      expect(parseConfig({ ...production, WEBHOOK_ALLOW_PRIVATE: "true", DEV_MAILBOX: "true" })).toMatchObject({ webhooks: { allowPrivate: true }, email: { devMailbox: true } });
    });
  });

  describe("database", () => {
    it("uses DATABASE_URL for LISTEN and migrations when no direct URL is given", () => {
      expect(parseConfig({ DATABASE_URL: "postgres://db/certify" }).database).toMatchObject({ url: "postgres://db/certify", directUrl: "postgres://db/certify", pooled: false });
    });

    it("takes a pooled DATABASE_URL with a direct URL beside it", () => {
      const settings = parseConfig({ DATABASE_URL: "postgres://pgbouncer:6432/certify", DATABASE_POOLED: "true", DATABASE_DIRECT_URL: "postgresql://db:5432/certify" });
      expect(settings.database).toMatchObject({ url: "postgres://pgbouncer:6432/certify", directUrl: "postgresql://db:5432/certify", pooled: true });
    });

    it("refuses a pooled URL without a direct one, and a direct URL alone", () => {
      expect(problemsOf({ DATABASE_URL: "postgres://pgbouncer:6432/certify", DATABASE_POOLED: "true" }).problems.map((p) => p.variable)).toEqual(["DATABASE_DIRECT_URL"]);
      expect(problemsOf({ DATABASE_DIRECT_URL: "postgres://db/certify" }).problems.map((p) => p.variable)).toEqual(["DATABASE_URL"]);
      expect(problemsOf({ DATABASE_POOLED: "sometimes" }).problems.map((p) => p.variable)).toEqual(["DATABASE_POOLED"]);
    });
  });

  it("wants CTFD_URL and CTFD_TOKEN together", () => {
    expect(problemsOf({ CTFD_URL: "https://ctfd.example.org" }).problems.map((p) => p.variable)).toEqual(["CTFD_TOKEN"]);
    expect(parseConfig({ CTFD_URL: "https://ctfd.example.org/", CTFD_TOKEN: "t" }).ctfd).toEqual({ url: "https://ctfd.example.org", token: "t" });
  });
});

describe("config()", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfig();
  });

  it("follows the environment a test stubs between reads", () => {
    vi.stubEnv("WORKER_CONCURRENCY", "3");
    expect(config().worker.concurrency).toBe(3);
    vi.stubEnv("WORKER_CONCURRENCY", "5");
    expect(config().worker.concurrency).toBe(5);
    vi.stubEnv("WORKER_CONCURRENCY", "eight");
    expect(() => config()).toThrow(ConfigError);
    vi.unstubAllEnvs();
    expect(config().worker.concurrency).toBe(8);
  });

  it("returns the same object while nothing changed", () => {
    expect(config()).toBe(config());
  });
});
