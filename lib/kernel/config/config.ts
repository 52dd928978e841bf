import { z } from "zod";
import { inngestMode, inngestSettings } from "@/lib/kernel/config/inngest-mode";

/**
 * The app's whole configuration: every environment variable it reads, parsed with zod in
 * one place. `config()` is the only reader of `process.env` (a test greps for others).
 *
 * - Start-up (instrumentation → lib/platform/server/start.ts) calls `loadConfig()`: a bad value stops
 *   the start with one message that lists EVERY bad variable, not just the first.
 * - An empty value counts as unset (`FOO=` in an env file, `vi.stubEnv("FOO", "")`).
 * - Secrets and connection strings are never echoed in a message.
 * - In production the environment is parsed once and kept. Elsewhere (development, tests)
 *   `config()` parses again whenever a variable it knows has changed, so `vi.stubEnv` and
 *   an edited `.env.local` under `next dev` take effect; the check costs ~20 µs a call.
 *   `resetConfig()` forces a fresh parse (a script that sets process.env itself).
 */

/** An empty string is "unset": env files and `vi.stubEnv(name, "")` write one. */
const unset = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(unset, schema.optional());
// `prefault`: the default is an input, parsed like a value that was set.
const withDefault = <T extends z.ZodType>(schema: T, fallback: string) => z.preprocess(unset, schema.prefault(fallback as never));

const integer = (name: string, min: number, max: number, fallback: number, unit?: string) => {
  const range = `${name} must be a whole number${unit ? ` of ${unit}` : ""} from ${min} to ${max}`;
  return withDefault(
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, range)
      .transform(Number)
      .pipe(z.number().min(min, range).max(max, range)),
    String(fallback),
  );
};

const decimal = (name: string, min: number, max: number, fallback: number, unit?: string) => {
  const range = `${name} must be a number${unit ? ` of ${unit}` : ""} from ${min} to ${max}`;
  return withDefault(
    z
      .string()
      .trim()
      .refine((raw) => raw !== "" && Number.isFinite(Number(raw)), range)
      .transform(Number)
      .pipe(z.number().min(min, range).max(max, range)),
    String(fallback),
  );
};

const positiveNumber = (name: string, fallback: number, unit: string) =>
  withDefault(
    z
      .string()
      .trim()
      .refine((raw) => raw !== "" && Number.isFinite(Number(raw)) && Number(raw) > 0, `${name} must be a positive number of ${unit}`)
      .transform(Number),
    String(fallback),
  );

const booleanWords: Record<string, boolean> = { true: true, "1": true, yes: true, on: true, false: false, "0": false, no: false, off: false };
const flag = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((raw) => raw in booleanWords, `${name} must be true or false (or on/off, 1/0, yes/no)`)
    .transform((raw) => booleanWords[raw]);

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((raw) => /^https?:$/.test(safeUrl(raw)?.protocol ?? ""), `${name} must be an http(s) URL`)
    .transform((raw) => raw.replace(/\/+$/, ""));

const postgresUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((raw) => /^postgres(ql)?:$/.test(safeUrl(raw)?.protocol ?? ""), `${name} must be a postgres:// or postgresql:// URL`);

function safeUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

const durationUnits: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A comma-separated list of durations (`5s,5m,30m,2h`; units ms, s, m, h, d), each from 1 ms
 * to `maxEach` ms, at most `maxCount` of them, parsed to milliseconds.
 */
const durationList = (name: string, maxCount: number, maxEach: number) => {
  const message = `${name} must be a comma-separated list of 1 to ${maxCount} delays, each a whole number with a unit (ms, s, m, h, d) from 1ms to ${maxEach / 86_400_000}d, such as 5s,5m,30m,2h`;
  return z
    .string()
    .transform((raw, context) => {
      const parts = raw.split(",").map((part) => part.trim().match(/^(\d+)(ms|s|m|h|d)$/));
      const delays = parts.map((match) => (match ? Number(match[1]) * durationUnits[match[2]] : NaN));
      if (delays.length === 0 || delays.length > maxCount || delays.some((ms) => !(ms >= 1 && ms <= maxEach))) {
        context.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return delays;
    });
};

/** A comma-separated list of keys, each at least 32 characters, none twice. */
const dataKeys = (name: string) =>
  z
    .string()
    .transform((raw) => raw.split(",").map((key) => key.trim()).filter((key) => key !== ""))
    .refine((keys) => keys.length > 0 && keys.every((key) => key.length >= 32), `${name} must be a comma-separated list of keys, each at least 32 characters (openssl rand -base64 32)`)
    .refine((keys) => new Set(keys).size === keys.length, `${name} lists a key twice`);

/** An Ed25519 private key as a JWK (RFC 8037): what CREDENTIAL_SIGNING_KEYS lists. */
export type Ed25519PrivateJwk = { kty: "OKP"; crv: "Ed25519"; x: string; d: string };

const base64url32 = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
/** CREDENTIAL_SIGNING_KEYS: a JSON array of Ed25519 private JWKs, at least one, none twice. */
const credentialKeys = z.string().transform((raw, context): Ed25519PrivateJwk[] => {
  const message = 'CREDENTIAL_SIGNING_KEYS must be a JSON array of Ed25519 private JWKs ([{"kty":"OKP","crv":"Ed25519","x":"…","d":"…"}]), the signing key first';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    context.addIssue({ code: "custom", message });
    return z.NEVER;
  }
  const keys = z.array(z.object({ kty: z.literal("OKP"), crv: z.literal("Ed25519"), x: base64url32, d: base64url32 })).min(1).safeParse(parsed);
  if (!keys.success || new Set(keys.data.map((key) => key.x)).size !== keys.data.length) {
    context.addIssue({ code: "custom", message: keys.success ? "CREDENTIAL_SIGNING_KEYS lists a key twice" : message });
    return z.NEVER;
  }
  return keys.data.map(({ kty, crv, x, d }) => ({ kty, crv, x, d }));
});

/** TRUST_PROXY: a count of reverse proxies (0–10); `true` = 1, `false` = 0. */
export const trustProxySchema = z
  .string()
  .trim()
  .transform((raw, context) => {
    if (raw === "" || raw === "false") return 0;
    if (raw === "true") return 1;
    const hops = Number(raw);
    if (/^\d+$/.test(raw) && hops <= 10) return hops;
    context.addIssue({ code: "custom", message: "TRUST_PROXY must be the number of reverse proxies in front of the app (0–10)" });
    return z.NEVER;
  });

export const DEFAULT_EMAIL_FROM = "Certify <no-reply@certify.localhost>";
/** The competition spec: a receiver must answer 2xx within 8 s. */
const SPEC_WEBHOOK_DEADLINE_MS = 8_000;
/** Where challenge files are kept (lib/storage). */
export const fileStorageKinds = ["filesystem", "database", "s3"] as const;
export type FileStorageKind = (typeof fileStorageKinds)[number];
/** An upload is read whole into memory before it is stored: FILE_MAX_BYTES stays below this. */
const MAX_FILE_BYTES_CEILING = 100 * 1024 * 1024;
/** A claimed row's lease outlasts any attempt (the spec's 8 s deadline) by 2 s; shorter leases are for tests. */
const PRODUCTION_MIN_LEASE_MS = 10_000;
const LEASE_MARGIN_MS = 2_000;
const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/**
 * Every variable, by name. Keep in step with .env.example and README's table (a test
 * checks README ⊆ .env.example ⊆ this list ⊆ README; NODE_ENV and NEXT_PHASE are set by the runtime).
 */
export const variables = {
  NODE_ENV: withDefault(z.enum(["development", "production", "test"]), "development"),
  // Set by Next.js while `next build` runs (pages are rendered then, without the runtime env).
  NEXT_PHASE: optional(z.string()),
  PORT: integer("PORT", 1, 65_535, 3000),
  APP_URL: optional(httpUrl("APP_URL")),

  DATABASE_URL: optional(postgresUrl("DATABASE_URL")),
  DATABASE_DIRECT_URL: optional(postgresUrl("DATABASE_DIRECT_URL")),
  DATABASE_POOLED: withDefault(flag("DATABASE_POOLED"), "false"),
  DATABASE_POOL_MAX: integer("DATABASE_POOL_MAX", 1, 1_000, 10),
  DATABASE_CONNECT_TIMEOUT: positiveNumber("DATABASE_CONNECT_TIMEOUT", 2, "seconds"),
  DATABASE_STATEMENT_TIMEOUT_MS: positiveNumber("DATABASE_STATEMENT_TIMEOUT_MS", 5_000, "milliseconds"),
  PGLITE_DATA_DIR: optional(z.string()),

  AUTH_SECRET: optional(z.string().min(32, "AUTH_SECRET must be at least 32 characters (openssl rand -base64 32)")),
  AUTH_URL: optional(httpUrl("AUTH_URL")),
  FLAG_ENCRYPTION_KEY: optional(z.string().min(32, "FLAG_ENCRYPTION_KEY must be at least 32 characters")),
  // Seal personal links and webhook secrets at rest (lib/platform/security/sealing.ts): comma-separated,
  // the first seals, every one (and AUTH_SECRET) opens. Unset: AUTH_SECRET seals.
  DATA_ENCRYPTION_KEYS: optional(dataKeys("DATA_ENCRYPTION_KEYS")),
  // Sign certificates' Open Badges credentials (lib/certification/certificates/keys.ts): a JSON array of
  // Ed25519 private JWKs, the first signs, every one is published. Unset: a key derived from AUTH_SECRET.
  CREDENTIAL_SIGNING_KEYS: optional(credentialKeys),

  RESEND_API_KEY: optional(z.string().trim().startsWith("re_", "RESEND_API_KEY must be a Resend API key (re_…)")),
  RESEND_BASE_URL: optional(httpUrl("RESEND_BASE_URL")),
  EMAIL_FROM: optional(
    z
      .string()
      .trim()
      .refine((raw) => senderAddress(raw) !== undefined, 'EMAIL_FROM must be an address or "Name <address>"'),
  ),
  DEV_MAILBOX: withDefault(flag("DEV_MAILBOX"), "false"),
  EMAIL_RATE_PER_SECOND: decimal("EMAIL_RATE_PER_SECOND", 0.01, 1_000, 2),
  // Public forms that e-mail (sign-in links, self-enrolment, "send my link again"): per client
  // address per hour (lib/platform/ratelimit/mail.ts). Raise it where many people share one
  // address (a large classroom behind one NAT); the e2e suite signs in ~60 times from 127.0.0.1.
  PUBLIC_MAIL_PER_CLIENT: integer("PUBLIC_MAIL_PER_CLIENT", 1, 1_000_000, 60, "e-mails per hour"),
  EMAIL_RETRY_HOURS: decimal("EMAIL_RETRY_HOURS", 0, 720, 24, "hours"),
  EMAIL_RETRY_BASE_MS: integer("EMAIL_RETRY_BASE_MS", 10, 86_400_000, 5_000, "milliseconds"),
  EMAIL_RETRY_MAX_MS: integer("EMAIL_RETRY_MAX_MS", 10, 86_400_000, 300_000, "milliseconds"),
  RESEND_TIMEOUT_MS: integer("RESEND_TIMEOUT_MS", 100, 120_000, 10_000, "milliseconds"),
  RESEND_WEBHOOK_SECRET: optional(
    z
      .string()
      .trim()
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "RESEND_WEBHOOK_SECRET must be the signing secret Resend shows for the webhook endpoint (whsec_…)"),
  ),

  API_LOG: withDefault(flag("API_LOG"), "on"),
  LOG_LEVEL: withDefault(z.enum(logLevels, { error: `LOG_LEVEL must be one of ${logLevels.join(", ")}` }), "info"),

  WEBHOOK_RETRY_STEP_MS: integer("WEBHOOK_RETRY_STEP_MS", 0, 86_400_000, 5_000, "milliseconds"),
  // The delays between attempts of a test-result (certification) delivery: Standard Webhooks'
  // schedule by default, 8 attempts over about 27 h (lib/platform/pipeline/outbox/schedule.ts). At most
  // 20 delays (Inngest retries a run at most 20 times), each at most 7 days (its longest sleep).
  TEST_RESULT_RETRY_SCHEDULE: withDefault(durationList("TEST_RESULT_RETRY_SCHEDULE", 20, 7 * 86_400_000), "5s,5m,30m,2h,5h,10h,10h"),
  WEBHOOK_ALLOW_PRIVATE: optional(flag("WEBHOOK_ALLOW_PRIVATE")),
  // For tests, which would otherwise wait out 8 s per hanging receiver; refused in production
  // (rule below). Never above the spec's 8 s, which also keeps every attempt inside its lease.
  WEBHOOK_DEADLINE_MS: integer("WEBHOOK_DEADLINE_MS", 100, SPEC_WEBHOOK_DEADLINE_MS, SPEC_WEBHOOK_DEADLINE_MS, "milliseconds"),
  // Attempts to one endpoint in flight at once, per instance (and per endpoint under Inngest):
  // a slow or hanging receiver holds at most this many of the worker's slots.
  WEBHOOK_ENDPOINT_CONCURRENCY: integer("WEBHOOK_ENDPOINT_CONCURRENCY", 1, 256, 4),
  // Endpoint health: an endpoint whose every attempt failed for this long is disabled. A
  // fraction of a day is allowed (tests compress the clock: 0.00001 days is under a second).
  WEBHOOK_DISABLE_AFTER_DAYS: decimal("WEBHOOK_DISABLE_AFTER_DAYS", 0.000001, 365, 5, "days"),
  TRUST_PROXY: withDefault(trustProxySchema, "0"),
  // Read by scripts/serve.mjs (npm start) before Next.js starts, with the same rules
  // (scripts/http-server.mjs; its test checks both parse alike): slow clients are cut off.
  HTTP_HEADERS_TIMEOUT_MS: integer("HTTP_HEADERS_TIMEOUT_MS", 1_000, 600_000, 20_000, "milliseconds"),
  HTTP_REQUEST_TIMEOUT_MS: integer("HTTP_REQUEST_TIMEOUT_MS", 1_000, 3_600_000, 60_000, "milliseconds"),
  // Flags submitted per sliding minute to one competition or one standalone deployment, all
  // players and client addresses together (lib/ctf/play/play.ts, lib/ctf/deployments/play.ts).
  FLAG_ATTEMPTS_PER_COMPETITION: integer("FLAG_ATTEMPTS_PER_COMPETITION", 10, 100_000, 600),
  FLAG_ATTEMPTS_PER_DEPLOYMENT: integer("FLAG_ATTEMPTS_PER_DEPLOYMENT", 10, 100_000, 300),

  WORKER: withDefault(flag("WORKER"), "on"),
  WORKER_CONCURRENCY: integer("WORKER_CONCURRENCY", 1, 256, 8),
  // One default for both loops that poll: the embedded worker and, under Inngest, the
  // dispatcher that hands committed rows over. Both wake on NOTIFY (and the worker when a
  // row falls due), so the poll only catches what a lost NOTIFY missed; 1 s keeps that
  // delay short at the cost of one small query a second per instance, for either loop
  // (the dispatcher used 5 s before: set WORKER_POLL_MS=5000 to keep that).
  WORKER_POLL_MS: integer("WORKER_POLL_MS", 10, 3_600_000, 1_000, "milliseconds"),
  // At least 10 s in production (rule below). Tests that wait out a dead worker's lease set a
  // shorter one, with a shorter WEBHOOK_DEADLINE_MS and RESEND_TIMEOUT_MS inside it.
  WORKER_LEASE_MS: integer("WORKER_LEASE_MS", 1_000, 86_400_000, 30_000, "milliseconds"),

  INNGEST_EVENT_KEY: optional(z.string()),
  INNGEST_SIGNING_KEY: optional(z.string()),
  INNGEST_DEV: optional(z.string()),
  // Checked, with the keys above (half configured?), by lib/kernel/config/inngest-mode.ts: see the
  // Inngest rule below. Defaults: every 10 minutes, 15 minutes (900000), 7 days (604800000).
  INNGEST_SWEEP_CRON: optional(z.string()),
  INNGEST_STRANDED_AFTER_MS: optional(z.string()),
  INNGEST_MAX_SLEEP_MS: optional(z.string()),
  // Read by the Inngest SDK itself (from process.env, when its client is made): listed so
  // they are documented and checked here too.
  INNGEST_SIGNING_KEY_FALLBACK: optional(z.string()),
  INNGEST_BASE_URL: optional(httpUrl("INNGEST_BASE_URL")),
  INNGEST_API_BASE_URL: optional(httpUrl("INNGEST_API_BASE_URL")),
  INNGEST_EVENT_API_BASE_URL: optional(httpUrl("INNGEST_EVENT_API_BASE_URL")),
  INNGEST_SERVE_ORIGIN: optional(httpUrl("INNGEST_SERVE_ORIGIN")),
  INNGEST_SERVE_PATH: optional(z.string().startsWith("/", "INNGEST_SERVE_PATH must be a path (/api/inngest)")),

  CTFD_URL: optional(httpUrl("CTFD_URL")),
  CTFD_TOKEN: optional(z.string()),

  // Challenge files (lib/storage): where they are kept, and the largest one accepted.
  FILE_STORAGE: optional(z.enum(fileStorageKinds, { error: `FILE_STORAGE must be one of ${fileStorageKinds.join(", ")}` })),
  FILE_STORAGE_DIR: optional(z.string()),
  FILE_MAX_BYTES: integer("FILE_MAX_BYTES", 1, MAX_FILE_BYTES_CEILING, 10 * 1024 * 1024, "bytes"),
  S3_ENDPOINT: optional(httpUrl("S3_ENDPOINT")),
  S3_REGION: withDefault(z.string().trim().regex(/^[a-z0-9-]{1,40}$/, "S3_REGION must be a region name such as us-east-1 (or auto)"), "us-east-1"),
  S3_BUCKET: optional(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "S3_BUCKET must be a bucket name: 3–63 lower-case letters, digits, dots and hyphens"),
  ),
  S3_ACCESS_KEY_ID: optional(z.string().trim()),
  S3_SECRET_ACCESS_KEY: optional(z.string()),
  S3_FORCE_PATH_STYLE: withDefault(flag("S3_FORCE_PATH_STYLE"), "false"),
} as const;

export type VariableName = keyof typeof variables;
type Values = { [K in VariableName]: z.output<(typeof variables)[K]> };

/** Never echoed in an error message: secrets, and URLs that may carry a password. */
const secretVariables = new Set<VariableName>([
  "AUTH_SECRET",
  "FLAG_ENCRYPTION_KEY",
  "DATA_ENCRYPTION_KEYS",
  "CREDENTIAL_SIGNING_KEYS",
  "RESEND_API_KEY",
  "INNGEST_EVENT_KEY",
  "INNGEST_SIGNING_KEY",
  "INNGEST_SIGNING_KEY_FALLBACK",
  "RESEND_WEBHOOK_SECRET",
  "CTFD_TOKEN",
  "S3_SECRET_ACCESS_KEY",
  "DATABASE_URL",
  "DATABASE_DIRECT_URL",
]);

/**
 * Variables that only the tooling reads (test runners, CI, Playwright), listed in README and
 * .env.example but not part of the app's configuration. Read by scripts/with-pg-db.mjs and
 * playwright.config.ts themselves.
 */
export const toolingVariables = ["PG_ADMIN_URL", "CHROMIUM_PATH", "E2E_PORT", "E2E_WORKERS", "E2E_ARTIFACTS"] as const;

/** Rules between variables: each names the variable to fix. Run on values that parsed. */
const rules: Array<{ needs: VariableName[]; check(values: Values): Array<[VariableName, string]> }> = [
  {
    needs: ["NODE_ENV", "AUTH_SECRET", "AUTH_URL", "APP_URL", "NEXT_PHASE"],
    check: (values) => {
      // `next build` renders pages with NODE_ENV=production and without the runtime secrets.
      if (values.NODE_ENV !== "production" || values.NEXT_PHASE === "phase-production-build") return [];
      const problems: Array<[VariableName, string]> = [];
      if (!values.AUTH_SECRET) problems.push(["AUTH_SECRET", "AUTH_SECRET is required in production (openssl rand -base64 32): sessions must survive restarts and be shared by every instance"]);
      if (!values.AUTH_URL && !values.APP_URL) problems.push(["AUTH_URL", "AUTH_URL is required in production: the public base URL of e-mailed links and sign-in callbacks"]);
      return problems;
    },
  },
  {
    // Node refuses a headers timeout longer than the whole request's.
    needs: ["HTTP_HEADERS_TIMEOUT_MS", "HTTP_REQUEST_TIMEOUT_MS"],
    check: (values) =>
      values.HTTP_HEADERS_TIMEOUT_MS > values.HTTP_REQUEST_TIMEOUT_MS ? [["HTTP_REQUEST_TIMEOUT_MS", "HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS"]] : [],
  },
  {
    needs: ["NODE_ENV", "WEBHOOK_DEADLINE_MS"],
    check: (values) =>
      values.NODE_ENV === "production" && values.WEBHOOK_DEADLINE_MS !== SPEC_WEBHOOK_DEADLINE_MS
        ? [["WEBHOOK_DEADLINE_MS", `WEBHOOK_DEADLINE_MS is for tests only: in production a receiver gets the spec's ${SPEC_WEBHOOK_DEADLINE_MS} ms (unset it)`]]
        : [],
  },
  {
    needs: ["NODE_ENV", "WORKER_LEASE_MS", "WEBHOOK_DEADLINE_MS", "RESEND_TIMEOUT_MS"],
    check: (values) => {
      const lease = values.WORKER_LEASE_MS;
      if (lease >= PRODUCTION_MIN_LEASE_MS) return [];
      if (values.NODE_ENV === "production") {
        return [["WORKER_LEASE_MS", `WORKER_LEASE_MS must be at least ${PRODUCTION_MIN_LEASE_MS} in production (shorter leases are for tests)`]];
      }
      // No attempt may outlive its lease: another worker would take the row while it runs.
      const longest = Math.max(values.WEBHOOK_DEADLINE_MS, values.RESEND_TIMEOUT_MS);
      return lease < longest + LEASE_MARGIN_MS
        ? [["WORKER_LEASE_MS", `WORKER_LEASE_MS under ${PRODUCTION_MIN_LEASE_MS} must outlast WEBHOOK_DEADLINE_MS and RESEND_TIMEOUT_MS by ${LEASE_MARGIN_MS} ms (at least ${longest + LEASE_MARGIN_MS})`]]
        : [];
    },
  },
  {
    needs: ["RESEND_API_KEY", "RESEND_BASE_URL", "EMAIL_FROM"],
    check: (values) => {
      // A stand-in (RESEND_BASE_URL, as tests use) accepts any sender; Resend itself sends
      // only from a domain verified in its dashboard, never from certify.localhost.
      if (!values.RESEND_API_KEY || values.RESEND_BASE_URL) return [];
      const domain = senderAddress(values.EMAIL_FROM ?? DEFAULT_EMAIL_FROM)?.split("@")[1] ?? "";
      if (!values.EMAIL_FROM) return [["EMAIL_FROM", "EMAIL_FROM is required with RESEND_API_KEY: a sender on a domain verified in Resend (the default certify.localhost cannot send)"]];
      if (!isPublicDomain(domain)) return [["EMAIL_FROM", `EMAIL_FROM must be on a domain verified in Resend; ${domain} cannot send`]];
      return [];
    },
  },
  {
    needs: ["DATABASE_URL", "DATABASE_DIRECT_URL", "DATABASE_POOLED"],
    check: (values) => {
      const problems: Array<[VariableName, string]> = [];
      if (values.DATABASE_DIRECT_URL && !values.DATABASE_URL) problems.push(["DATABASE_URL", "DATABASE_URL is required when DATABASE_DIRECT_URL is set"]);
      if (values.DATABASE_POOLED && !values.DATABASE_URL) problems.push(["DATABASE_URL", "DATABASE_URL is required when DATABASE_POOLED=true"]);
      if (values.DATABASE_POOLED && values.DATABASE_URL && !values.DATABASE_DIRECT_URL) {
        problems.push(["DATABASE_DIRECT_URL", "DATABASE_DIRECT_URL is required when DATABASE_POOLED=true: LISTEN and migrations (a session-level lock) need a direct connection, not one through the pooler"]);
      }
      return problems;
    },
  },
  {
    // Which executor, and its settings: lib/kernel/config/inngest-mode.ts decides (the executor and
    // /api/inngest act on the same answer). Half configured → nothing would run: refused.
    needs: ["NODE_ENV", "INNGEST_DEV", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_SWEEP_CRON", "INNGEST_STRANDED_AFTER_MS", "INNGEST_MAX_SLEEP_MS"],
    check: (values) => {
      const problems: Array<[VariableName, string]> = [];
      const mode = inngestMode(inngestEnv(values));
      if (mode.mode === "invalid") problems.push([mode.variable as VariableName, mode.error]);
      // Each sentence starts with its variable's name.
      for (const error of inngestSettings(inngestEnv(values)).errors) problems.push([error.split(" ")[0] as VariableName, error]);
      return problems;
    },
  },
  {
    needs: ["CTFD_URL", "CTFD_TOKEN"],
    check: (values) => {
      if (values.CTFD_URL && !values.CTFD_TOKEN) return [["CTFD_TOKEN", "CTFD_TOKEN is required with CTFD_URL"]];
      if (values.CTFD_TOKEN && !values.CTFD_URL) return [["CTFD_URL", "CTFD_URL is required with CTFD_TOKEN"]];
      return [];
    },
  },
  {
    needs: ["FILE_STORAGE", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "DATABASE_URL"],
    check: (values) => {
      const problems: Array<[VariableName, string]> = [];
      if (values.FILE_STORAGE === "s3" && !values.S3_BUCKET) problems.push(["S3_BUCKET", "S3_BUCKET is required with FILE_STORAGE=s3"]);
      if (storageKind(values) === "s3") {
        if (!values.S3_ACCESS_KEY_ID) problems.push(["S3_ACCESS_KEY_ID", "S3_ACCESS_KEY_ID is required for the S3 file storage"]);
        if (!values.S3_SECRET_ACCESS_KEY) problems.push(["S3_SECRET_ACCESS_KEY", "S3_SECRET_ACCESS_KEY is required for the S3 file storage"]);
      }
      return problems;
    },
  },
];

/**
 * FILE_STORAGE, or by default: S3 when a bucket is configured; the database with
 * PostgreSQL (every instance sees the same files, nothing else to run or back up); a folder
 * under .data/ with the embedded PGlite (one process anyway, and blobs kept out of its
 * single connection).
 */
function storageKind(values: Pick<Values, "FILE_STORAGE" | "S3_BUCKET" | "DATABASE_URL">): FileStorageKind {
  return values.FILE_STORAGE ?? (values.S3_BUCKET ? "s3" : values.DATABASE_URL ? "database" : "filesystem");
}

/** Where challenge files go (lib/platform/storage/index.ts builds the store). */
function fileSettings(values: Values) {
  const kind = storageKind(values);
  const storage =
    kind === "s3"
      ? {
          kind,
          endpoint: values.S3_ENDPOINT ?? `https://s3.${values.S3_REGION}.amazonaws.com`,
          region: values.S3_REGION,
          bucket: values.S3_BUCKET ?? "",
          accessKeyId: values.S3_ACCESS_KEY_ID ?? "",
          secretAccessKey: values.S3_SECRET_ACCESS_KEY ?? "",
          pathStyle: values.S3_FORCE_PATH_STYLE,
        }
      : kind === "filesystem"
        ? { kind, dir: values.FILE_STORAGE_DIR ?? ".data/files" }
        : { kind };
  return { maxBytes: values.FILE_MAX_BYTES, storage };
}

/** The address part of `a@b.c` or `Name <a@b.c>`, lower-cased, or undefined. */
function senderAddress(raw: string): string | undefined {
  const address = (raw.match(/<([^<>]+)>\s*$/)?.[1] ?? raw).trim().toLowerCase();
  return /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(address) ? address : undefined;
}

/** Domains that can never be a verified sender: reserved names (RFC 2606, 6761) and local ones. */
function isPublicDomain(domain: string): boolean {
  return !/(^|\.)(localhost|local|test|example|invalid|internal|lan)$/.test(domain) && !/(^|\.)example\.(com|org|net)$/.test(domain);
}

export type Config = ReturnType<typeof build>;

function build(values: Values) {
  const production = values.NODE_ENV === "production";
  return {
    env: values.NODE_ENV,
    production,
    buildPhase: values.NEXT_PHASE === "phase-production-build",
    port: values.PORT,
    /** Public base URL of the app, without a trailing slash. */
    appUrl: values.APP_URL ?? values.AUTH_URL ?? `http://localhost:${values.PORT}`,
    database: {
      /** Unset: the embedded PGlite in `pgliteDataDir`. */
      url: values.DATABASE_URL,
      /** A direct connection for LISTEN and migrations; `url` when not set. */
      directUrl: values.DATABASE_DIRECT_URL ?? values.DATABASE_URL,
      /** `url` goes through a transaction-mode pooler (PgBouncer): no named prepared statements. */
      pooled: values.DATABASE_POOLED,
      poolMax: values.DATABASE_POOL_MAX,
      connectTimeoutSeconds: values.DATABASE_CONNECT_TIMEOUT,
      statementTimeoutMs: values.DATABASE_STATEMENT_TIMEOUT_MS,
      /** Relative to the working directory when not absolute; "memory://" for a throwaway one. */
      pgliteDataDir: values.PGLITE_DATA_DIR,
    },
    auth: {
      /** Unset outside production: generated once into .data/auth-secret (lib/platform/security/auth-secret.ts). */
      secret: values.AUTH_SECRET,
      url: values.AUTH_URL,
    },
    /** Seals challenge flags for an external host; AUTH_SECRET when unset. */
    flagEncryptionKey: values.FLAG_ENCRYPTION_KEY,
    /** Seal personal links and webhook secrets (the first seals, all open); empty: AUTH_SECRET seals. */
    dataEncryptionKeys: values.DATA_ENCRYPTION_KEYS ?? [],
    /** Sign certificates' credentials (the first signs, all are published); empty: a key derived from AUTH_SECRET. */
    credentialSigningKeys: values.CREDENTIAL_SIGNING_KEYS ?? [],
    email: {
      transport: values.RESEND_API_KEY ? ("resend" as const) : ("mailbox" as const),
      resendApiKey: values.RESEND_API_KEY,
      resendBaseUrl: values.RESEND_BASE_URL,
      from: values.EMAIL_FROM ?? DEFAULT_EMAIL_FROM,
      /** The dev mailbox page: without Resend, outside production or when DEV_MAILBOX=true. */
      devMailbox: !values.RESEND_API_KEY && (!production || values.DEV_MAILBOX),
      /** Requests per second to Resend, all instances together. */
      ratePerSecond: values.EMAIL_RATE_PER_SECOND,
      /** How long after queueing a message is retried while the provider is slow or down. */
      retryBudgetMs: values.EMAIL_RETRY_HOURS * 3_600_000,
      retryBaseMs: values.EMAIL_RETRY_BASE_MS,
      retryMaxMs: Math.max(values.EMAIL_RETRY_BASE_MS, values.EMAIL_RETRY_MAX_MS),
      resendTimeoutMs: values.RESEND_TIMEOUT_MS,
      /** Public e-mails (sign-in links, self-enrolment) one client address may ask for per hour. */
      publicMailPerClient: values.PUBLIC_MAIL_PER_CLIENT,
      /** Unset: POST /api/webhooks/resend does not exist. */
      webhookSecret: values.RESEND_WEBHOOK_SECRET,
    },
    log: {
      /** The one-line-per-request API log (API_LOG=off silences it). */
      requests: values.API_LOG,
      level: values.LOG_LEVEL,
    },
    webhooks: {
      retryStepMs: values.WEBHOOK_RETRY_STEP_MS,
      /** Delays between the attempts of a test-result delivery (TEST_RESULT_RETRY_SCHEDULE), in ms. */
      testResultRetryDelaysMs: values.TEST_RESULT_RETRY_SCHEDULE,
      /** Destinations other than global unicast: allowed outside production unless set. */
      allowPrivate: values.WEBHOOK_ALLOW_PRIVATE ?? !production,
      /** A receiver's whole exchange (connect, send, status line) must end in a 2xx within this. */
      deadlineMs: values.WEBHOOK_DEADLINE_MS,
      /** Attempts to one endpoint in flight at once (per instance; per endpoint under Inngest). */
      endpointConcurrency: values.WEBHOOK_ENDPOINT_CONCURRENCY,
      /** An endpoint with nothing but failed attempts for this long is disabled (WEBHOOK_DISABLE_AFTER_DAYS), in ms. */
      disableAfterMs: Math.round(values.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000),
    },
    trustProxy: values.TRUST_PROXY,
    /** What scripts/serve.mjs gives a client: its headers, then its whole request (HTTP 408 past them). */
    http: { headersTimeoutMs: values.HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: values.HTTP_REQUEST_TIMEOUT_MS },
    /** Flags per sliding minute to one competition, or one standalone deployment, whoever sends them. */
    flagAttempts: { perCompetition: values.FLAG_ATTEMPTS_PER_COMPETITION, perDeployment: values.FLAG_ATTEMPTS_PER_DEPLOYMENT },
    worker: {
      enabled: values.WORKER,
      concurrency: values.WORKER_CONCURRENCY,
      pollMs: values.WORKER_POLL_MS,
      leaseMs: values.WORKER_LEASE_MS,
    },
    inngest: inngest(values),
    ctfd: values.CTFD_URL && values.CTFD_TOKEN ? { url: values.CTFD_URL, token: values.CTFD_TOKEN } : undefined,
    /** Challenge files: the largest upload, and the store (FILE_STORAGE; see storageKind). */
    files: fileSettings(values),
  };
}

/** What lib/kernel/config/inngest-mode.ts reads. */
function inngestEnv(values: Values) {
  return {
    NODE_ENV: values.NODE_ENV,
    INNGEST_DEV: values.INNGEST_DEV,
    INNGEST_EVENT_KEY: values.INNGEST_EVENT_KEY,
    INNGEST_SIGNING_KEY: values.INNGEST_SIGNING_KEY,
    INNGEST_SWEEP_CRON: values.INNGEST_SWEEP_CRON,
    INNGEST_STRANDED_AFTER_MS: values.INNGEST_STRANDED_AFTER_MS,
    INNGEST_MAX_SLEEP_MS: values.INNGEST_MAX_SLEEP_MS,
  };
}

/**
 * The executor: `embedded` (the in-process worker) or `inngest` (Cloud with both keys, or a
 * Dev Server with INNGEST_DEV), with the Inngest settings. A half configuration never gets
 * here: the Inngest rule refused it. The SDK reads the keys and URLs from process.env itself
 * when its client is made.
 */
function inngest(values: Values) {
  const mode = inngestMode(inngestEnv(values));
  const { sweepCron, strandedAfterMs, maxSleepMs } = inngestSettings(inngestEnv(values));
  return {
    executor: mode.mode === "inngest" ? ("inngest" as const) : ("embedded" as const),
    /** A Dev Server (INNGEST_DEV): /api/inngest accepts unsigned calls. */
    dev: mode.mode === "inngest" && mode.dev,
    /** Said in the log at start (INNGEST_DEV in production). */
    warning: mode.mode === "inngest" ? mode.warning : undefined,
    /** When the sweep function runs (INNGEST_SWEEP_CRON). */
    sweepCron,
    /** How long a handed-off row may stay unfinished past its due time before it is handed over again. */
    strandedAfterMs,
    /** The longest single sleep; longer waits are chained. */
    maxSleepMs,
  };
}

/** `message` is a whole sentence that names the variable. */
export type ConfigProblem = { variable: string; message: string };

/** Thrown by a bad configuration: its message lists every problem, one per line. */
export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? "" : "s"}); fix the environment and start again:\n` +
        problems.map((problem) => `  - ${problem.message}`).join("\n"),
    );
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

/** Parses `env` (pure: no memo, no process.env). Throws a ConfigError listing every problem. */
export function parseConfig(env: Env): Config {
  const values: Partial<Record<VariableName, unknown>> = {};
  const problems: ConfigProblem[] = [];
  const failed = new Set<VariableName>();
  for (const name of Object.keys(variables) as VariableName[]) {
    const result = variables[name].safeParse(env[name]);
    if (result.success) {
      values[name] = result.data;
      continue;
    }
    failed.add(name);
    const raw = env[name];
    const shown = secretVariables.has(name) || raw === undefined ? "" : ` (got ${JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw)})`;
    const message = result.error.issues[0]?.message ?? "invalid";
    problems.push({ variable: name, message: `${message.startsWith(name) ? message : `${name}: ${message}`}${shown}` });
  }
  for (const rule of rules) {
    if (rule.needs.some((name) => failed.has(name))) continue;
    for (const [variable, message] of rule.check(values as Values)) {
      problems.push({ variable, message });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return build(values as Values);
}

type Memo = { fingerprint: string; value: Config };
let memo: Memo | undefined;
// Read once, when this module loads: in production the environment is fixed at start.
const rereadsEnvironment = process.env.NODE_ENV !== "production";
const names = Object.keys(variables) as VariableName[];

function fingerprint(): string {
  let text = "";
  for (const name of names) text += `${process.env[name] ?? "\u0000"}\u0001`;
  return text;
}

/** The configuration (parsed on first use; see the module comment for when it is parsed again). */
export function config(): Config {
  if (memo && !rereadsEnvironment) return memo.value;
  const current = fingerprint();
  if (memo?.fingerprint === current) return memo.value;
  const value = parseConfig(process.env);
  memo = { fingerprint: current, value };
  return value;
}

/**
 * NODE_ENV as Next.js reads it (before the configuration can be parsed): which env files
 * apply (`.env.production*` or `.env.development*`, `.env.test*`).
 */
export function nodeEnv(): string {
  return process.env.NODE_ENV || "development";
}

/** Parses the environment now, at start: throws a ConfigError listing every problem. */
export function loadConfig(): Config {
  resetConfig();
  return config();
}

/** Forgets the parsed configuration: the next `config()` reads the environment again. */
export function resetConfig(): void {
  memo = undefined;
}

/** Public base URL of the app, used in e-mailed links. */
export function appUrl(): string {
  return config().appUrl;
}
