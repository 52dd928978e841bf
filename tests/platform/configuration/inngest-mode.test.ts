import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/kernel/config/config";
import { INNGEST_DEFAULTS, inngestMode, inngestSettings } from "@/lib/platform/pipeline/executors/inngest";

const production = { NODE_ENV: "production", AUTH_SECRET: "s".repeat(43), AUTH_URL: "https://certify.example.org" };

describe("inngestMode: which executor, and a half configuration named", () => {
  it("no Inngest variable → the embedded worker", () => {
    expect(inngestMode({})).toEqual({ mode: "embedded" });
    expect(inngestMode({ INNGEST_EVENT_KEY: " ", INNGEST_SIGNING_KEY: "", INNGEST_DEV: "" })).toEqual({ mode: "embedded" });
  });

  it("both keys → Inngest Cloud; INNGEST_DEV (1 or a URL) → a Dev Server, keys or not", () => {
    expect(inngestMode({ INNGEST_EVENT_KEY: "ek", INNGEST_SIGNING_KEY: "signkey-prod-ab" })).toEqual({ mode: "inngest", dev: false });
    expect(inngestMode({ INNGEST_DEV: "1" })).toEqual({ mode: "inngest", dev: true });
    expect(inngestMode({ INNGEST_DEV: "http://127.0.0.1:8288", INNGEST_EVENT_KEY: "ek" })).toEqual({ mode: "inngest", dev: true });
  });

  it("an event key without a signing key is refused, naming what is missing and why", () => {
    const mode = inngestMode({ INNGEST_EVENT_KEY: "ek" });
    expect(mode.mode).toBe("invalid");
    const { error } = mode as { error: string };
    expect(error).toContain("INNGEST_EVENT_KEY is set but INNGEST_SIGNING_KEY is not");
    expect(error).toContain("/api/inngest refuses every call");
  });

  it("a signing key without an event key is refused too", () => {
    const mode = inngestMode({ INNGEST_SIGNING_KEY: "signkey-prod-ab", NODE_ENV: "production" });
    expect(mode).toMatchObject({ mode: "invalid", error: expect.stringContaining("INNGEST_SIGNING_KEY is set but INNGEST_EVENT_KEY is not") });
  });

  it("INNGEST_DEV=0 (cloud) without keys is refused; INNGEST_DEV in production warns (unsigned calls accepted)", () => {
    expect(inngestMode({ INNGEST_DEV: "0" })).toMatchObject({ mode: "invalid", error: expect.stringContaining("INNGEST_DEV=0") });
    expect(inngestMode({ INNGEST_DEV: "0", INNGEST_EVENT_KEY: "ek", INNGEST_SIGNING_KEY: "sk" })).toEqual({ mode: "inngest", dev: false });
    expect(inngestMode({ INNGEST_DEV: "1", NODE_ENV: "production" })).toMatchObject({ mode: "inngest", dev: true, warning: expect.stringContaining("unsigned") });
  });
});

describe("the configuration refuses to start half configured (lib/kernel/config/config.ts calls inngestMode and inngestSettings)", () => {
  const problems = (env: Record<string, string>) => {
    try {
      parseConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    throw new Error("accepted");
  };

  it("names the missing key, instead of starting nothing", () => {
    expect(problems({ INNGEST_EVENT_KEY: "ek" })).toEqual([{ variable: "INNGEST_SIGNING_KEY", message: expect.stringContaining("INNGEST_SIGNING_KEY is not") }]);
    expect(problems({ INNGEST_SIGNING_KEY: "sk" })).toEqual([{ variable: "INNGEST_EVENT_KEY", message: expect.stringContaining("INNGEST_EVENT_KEY is not") }]);
    expect(problems({ INNGEST_DEV: "0" })).toEqual([{ variable: "INNGEST_DEV", message: expect.stringContaining("INNGEST_DEV=0") }]);
  });

  it("lists every bad Inngest setting with the rest", () => {
    expect(problems({ INNGEST_DEV: "1", INNGEST_SWEEP_CRON: "every minute", INNGEST_MAX_SLEEP_MS: "a week", WORKER_CONCURRENCY: "0" }).map((p) => p.variable)).toEqual([
      "WORKER_CONCURRENCY",
      "INNGEST_SWEEP_CRON",
      "INNGEST_MAX_SLEEP_MS",
    ]);
  });

  it("hands the executor its mode and settings", () => {
    expect(parseConfig({}).inngest).toMatchObject({ executor: "embedded", ...INNGEST_DEFAULTS });
    expect(parseConfig({ INNGEST_EVENT_KEY: "ek", INNGEST_SIGNING_KEY: "sk", INNGEST_STRANDED_AFTER_MS: "60000" }).inngest).toMatchObject({
      executor: "inngest",
      dev: false,
      strandedAfterMs: 60_000,
    });
    expect(parseConfig({ ...production, INNGEST_DEV: "1" }).inngest).toMatchObject({ executor: "inngest", dev: true, warning: expect.stringContaining("unsigned") });
  });
});

describe("inngestSettings", () => {
  it("defaults: a sweep every 10 minutes, stranded after 15 minutes, sleeps of at most 7 days", () => {
    expect(inngestSettings({})).toEqual({ ...INNGEST_DEFAULTS, errors: [] });
    expect(INNGEST_DEFAULTS).toEqual({ sweepCron: "*/10 * * * *", strandedAfterMs: 900_000, maxSleepMs: 604_800_000 });
  });

  it("reads the variables and lists every bad value", () => {
    expect(inngestSettings({ INNGEST_SWEEP_CRON: "*/5 * * * *", INNGEST_STRANDED_AFTER_MS: "600000", INNGEST_MAX_SLEEP_MS: "86400000" })).toEqual({
      sweepCron: "*/5 * * * *",
      strandedAfterMs: 600_000,
      maxSleepMs: 86_400_000,
      errors: [],
    });
    const bad = inngestSettings({ INNGEST_SWEEP_CRON: "* * *", INNGEST_STRANDED_AFTER_MS: "soon", INNGEST_MAX_SLEEP_MS: "-1" });
    expect(bad.errors).toHaveLength(3);
    expect(bad.errors.join("\n")).toMatch(/INNGEST_SWEEP_CRON[\s\S]*INNGEST_STRANDED_AFTER_MS[\s\S]*INNGEST_MAX_SLEEP_MS/);
    expect(bad).toMatchObject({ sweepCron: "* * *", strandedAfterMs: INNGEST_DEFAULTS.strandedAfterMs, maxSleepMs: INNGEST_DEFAULTS.maxSleepMs });
  });
});
