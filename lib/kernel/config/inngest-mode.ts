/**
 * Which executor runs the background work, and the Inngest executor's settings: pure
 * functions of an env object (no SDK, no database, no global environment), so lib/kernel/config/config.ts calls
 * them while it checks the environment — a half-configured Inngest, or a bad
 * INNGEST_SWEEP_CRON, is one of the problems its ConfigError lists at start.
 */
type Env = Record<string, string | undefined>;

/**
 * - `embedded`: no Inngest variable set; the in-process worker drains the outbox.
 * - `inngest`: `INNGEST_DEV` (1 or a Dev Server URL), or both `INNGEST_EVENT_KEY` and
 *   `INNGEST_SIGNING_KEY` (Inngest Cloud).
 * - `invalid`: half configured (one key without the other, or `INNGEST_DEV=0` without
 *   keys). Nothing would run (events could not be sent, or /api/inngest would refuse every
 *   call), so the configuration is refused: `error` names what is missing, `variable` the
 *   variable to set.
 */
export type InngestMode =
  | { mode: "embedded" }
  | { mode: "inngest"; dev: boolean; warning?: string }
  | { mode: "invalid"; variable: string; error: string };

export function inngestMode(env: Env): InngestMode {
  const dev = parseDev(env.INNGEST_DEV);
  const eventKey = Boolean(env.INNGEST_EVENT_KEY?.trim());
  const signingKey = Boolean(env.INNGEST_SIGNING_KEY?.trim());
  if (dev === true) {
    // Dev mode accepts unsigned calls to /api/inngest: fine for a Dev Server, not on the internet.
    const warning =
      env.NODE_ENV === "production"
        ? "INNGEST_DEV is set in production: /api/inngest accepts unsigned requests. Use INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY instead."
        : undefined;
    return warning ? { mode: "inngest", dev: true, warning } : { mode: "inngest", dev: true };
  }
  if (!eventKey && !signingKey) {
    if (dev === false) {
      return {
        mode: "invalid",
        variable: "INNGEST_DEV",
        error: "INNGEST_DEV=0 selects Inngest Cloud, which needs INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY; neither is set. Set both, or unset INNGEST_DEV to use the embedded worker.",
      };
    }
    return { mode: "embedded" };
  }
  if (eventKey && signingKey) return { mode: "inngest", dev: false };
  const [present, missing, why] = eventKey
    ? ["INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "without it /api/inngest refuses every call from Inngest"]
    : ["INNGEST_SIGNING_KEY", "INNGEST_EVENT_KEY", "without it no event can be sent to Inngest"];
  return {
    mode: "invalid",
    variable: missing,
    error:
      `Inngest is half configured: ${present} is set but ${missing} is not (${why}), so no e-mail, webhook or scheduled step would run. ` +
      `Set ${missing} as well, or unset ${present} to use the embedded worker (or set INNGEST_DEV for a local Dev Server).`,
  };
}

/** INNGEST_DEV as the SDK reads it: 1/true or a URL → dev, 0/false → cloud, unset → undefined. */
function parseDev(value: string | undefined): boolean | undefined {
  const trimmed = value?.trim().toLowerCase();
  if (!trimmed || trimmed === "undefined") return undefined;
  if (trimmed === "1" || trimmed === "true") return true;
  if (trimmed === "0" || trimmed === "false") return false;
  return true;
}

/** The settings of the Inngest executor, with their defaults; `errors` lists every bad value. */
export type InngestSettings = {
  /** When the sweep function runs (INNGEST_SWEEP_CRON). */
  sweepCron: string;
  /** How long past its due time a handed-off row may stay unfinished before it is handed over again. */
  strandedAfterMs: number;
  /** The longest single sleep; longer waits are chained (Inngest's free plan allows 7 days). */
  maxSleepMs: number;
  /** One sentence per bad value, each starting with the variable's name. */
  errors: string[];
};

export const INNGEST_DEFAULTS = {
  sweepCron: "*/10 * * * *",
  strandedAfterMs: 15 * 60_000,
  maxSleepMs: 7 * 24 * 3_600_000,
} as const;

export function inngestSettings(env: Env): InngestSettings {
  const errors: string[] = [];
  const sweepCron = env.INNGEST_SWEEP_CRON?.trim() || INNGEST_DEFAULTS.sweepCron;
  if (!isCron(sweepCron)) errors.push(`INNGEST_SWEEP_CRON must be a cron expression of 5 fields (e.g. "*/10 * * * *") (got "${sweepCron}")`);
  const number = (name: string, fallback: number, minimum: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < minimum) {
      errors.push(`${name} must be a whole number of milliseconds ≥ ${minimum} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  return {
    sweepCron,
    strandedAfterMs: number("INNGEST_STRANDED_AFTER_MS", INNGEST_DEFAULTS.strandedAfterMs, 1_000),
    maxSleepMs: number("INNGEST_MAX_SLEEP_MS", INNGEST_DEFAULTS.maxSleepMs, 1_000),
    errors,
  };
}

function isCron(expression: string): boolean {
  const fields = expression.replace(/^TZ=\S+\s+/, "").split(/\s+/);
  return fields.length === 5 && fields.every((field) => /^[\d*/,\-A-Za-z?LW#]+$/.test(field));
}
