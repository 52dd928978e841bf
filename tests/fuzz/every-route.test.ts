import fc from "fast-check";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { domains, questions, webhookDeliveries } from "@/db/schema";
import { createCertification } from "@/lib/certification/catalog";
import { createClass } from "@/lib/classes/classes";
import { createChallenge } from "@/lib/ctf/challenges";
import { completeCtfDeploy, createCtf, deployCtf } from "@/lib/ctf/competitions";
import { createDeployment } from "@/lib/ctf/deployments";
import { createApiKey } from "@/lib/keys";
import { createTest } from "@/lib/tests/tests";
import { createWebhook } from "@/lib/webhooks/endpoints";
import { sendTestEvent } from "@/lib/webhooks/deliveries";
import { setPlan } from "@/lib/workspaces";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTrainer, type Trainer } from "../helpers/fixtures";
import { discoverRoutes, resourceOf, type DiscoveredRoute } from "./routes";
import { signInAs } from "../helpers/session";

/**
 * Property-based fuzzing of EVERY route handler under app/api (found on disk): generated
 * bodies, path segments, query strings and origins, plus each known class of bad input
 * (NUL, unpaired surrogates, integers beyond PostgreSQL's `integer`, dates that are not
 * dates, `Origin: null`), alone and twenty at once. Each answer must be below 500, every
 * error must be in the one error shape, and a refused request must write nothing.
 */

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/auth/session", () => import("../helpers/session"));

const routes = await discoverRoutes();

let database: TestDatabase;
let owner: Trainer;
/** A valid value for each resource a path names, owned by `owner`. */
const fixtures: Record<string, string> = {};

beforeAll(async () => {
  // With a signing secret the Resend webhook route checks what it is sent, instead of being a 404.
  vi.stubEnv("RESEND_WEBHOOK_SECRET", `whsec_${Buffer.from("fuzz-secret-fuzz-secret-32-bytes").toString("base64")}`);
  database = await createTestDatabase();
  const db = database.db;
  owner = await createTrainer(db);
  await setPlan(db, owner.workspaceId, "pro");
  signInAs(owner);

  const own = await createCertification(db, owner.workspaceId, {
    name: "Fuzz certification",
    vendor: "Acme",
    domains: [{ name: "Basics", questions: [{ prompt: "2 + 2?", options: ["3", "4"], correct: 1 }] }],
  });
  const [domain] = await db.select().from(domains).where(eq(domains.certificationId, own.id));
  const [question] = await db.select().from(questions).where(eq(questions.domainId, domain.id));
  const catalogId = (await catalogCertificationId(db, "aws-clf-c02"))!;
  const catalogDomains = await db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, catalogId));
  const test = await createTest(db, owner.workspaceId, {
    certification_id: catalogId,
    domains: catalogDomains.slice(0, 2).map((d) => d.id),
    questions: 4,
    recipients: [{ email: "recipient@example.com", name: "R" }],
    send_email: false,
  });
  const klass = await createClass(db, owner.workspaceId, { name: "Fuzz class", certification_id: catalogId, emails: ["student@example.com"] });
  const webhook = await createWebhook(db, owner.workspaceId, { url: "https://example.com/hook" }, "dashboard");
  await sendTestEvent(db, owner.workspaceId, webhook.id);
  const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, webhook.id));
  // A key of its own for DELETE /keys/{id}: revoking the owner's key would stop the /api/v1 calls.
  const spareKey = await createApiKey(db, owner.workspaceId, { name: "spare" });
  const ctf = await createCtf(db, owner.workspaceId, { title: "Fuzz CTF", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z" });
  const challenge = await createChallenge(db, owner.workspaceId, ctf.id, { title: "Warm-up", category: "web", flag: "CTF{x}", points: 50 });
  const deployment = await createDeployment(db, owner.workspaceId, { challenge_id: challenge.id, duration_minutes: 30 });
  const open = await createCtf(db, owner.workspaceId, { title: "Open CTF", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z", is_public: true });
  await deployCtf(db, owner.workspaceId, open.id);
  await completeCtfDeploy(db, open.id);

  Object.assign(fixtures, {
    "certifications.id": String(own.id),
    "my-certifications.id": String(own.id),
    domainId: String(domain.id),
    questionId: String(question.id),
    code: test.code,
    "recipients.id": String(test.recipients[0].id),
    token: new URL(test.recipients[0].link, "http://localhost").pathname.split("/").pop()!,
    "classes.id": String(klass.id),
    invitationId: String(klass.invitations[0].id),
    "webhooks.id": webhook.id,
    "deliveries.id": delivery.id,
    "keys.id": spareKey.key.id,
    ctf_id: ctf.id,
    challenge_id: challenge.id,
    deployment_id: deployment.id,
    ctfId: open.id,
  });
});
afterAll(async () => {
  await database.drop();
  vi.unstubAllEnvs();
});

// ---------------------------------------------------------------------------------------
// Valid bodies, by path below /api/v1 or /api/app: the fuzzer mutates them field by field.

const validBodies: Record<string, () => unknown> = {
  "POST /tests": () => ({ certification_id: 1, domains: [1], questions: 1, recipients: [{ email: "a@example.com", name: "A" }], send_email: false }),
  "POST /tests/[code]/recipients": () => ({ recipients: [{ email: "b@example.com", name: "B" }], send_email: false }),
  "POST /classes": () => ({ name: "Class", certification_id: 1, emails: ["c@example.com"] }),
  "POST /classes/[id]/invitations": () => ({ emails: ["d@example.com"] }),
  "POST /webhooks": () => ({ url: "https://example.com/h", events: ["ctf.deployed"] }),
  "POST /ctfs": () => ({ title: "T", description: "D", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z", is_public: false }),
  "PATCH /ctfs/[ctf_id]": () => ({ title: "T2", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-03T10:00:00Z" }),
  "POST /ctfs/[ctf_id]/challenges": () => ({ title: "C", category: "web", description: "", points: 10, flag: "F{1}", hints: [{ text: "h", cost: 1 }] }),
  "PATCH /ctfs/[ctf_id]/challenges/[challenge_id]": () => ({ title: "C2", points: 20, hints: [{ text: "h2", cost: 2 }] }),
  "POST /ctfs/[ctf_id]/challenges/generate": () => ({ category: "crypto", difficulty: "easy" }),
  "POST /ctfs/[ctf_id]/members": () => ({ email: "m@example.com" }),
  "POST /deployments": () => ({ challenge_id: fixtures.challenge_id, ends_at: "2030-01-01T00:00:00Z" }),
  "POST /keys": () => ({ name: "k", scopes: ["ctf:read"] }),
  "POST /my-certifications": () => ({ name: "N", vendor: "V", code: "", description: "", domains: ["D1"] }),
  "PATCH /my-certifications/[id]": () => ({ name: "N", vendor: "V", code: "C", description: "D" }),
  "POST /my-certifications/[id]/domains": () => ({ name: "D2" }),
  "POST /my-certifications/[id]/import": () => ({ csv: "domain,prompt,option_a,option_b,correct\nBasics,Q?,a,b,a\n" }),
  "PATCH /my-certifications/domains/[domainId]": () => ({ name: "D3" }),
  "POST /my-certifications/domains/[domainId]/questions": () => ({ prompt: "P?", options: ["a", "b"], correct: 0, explanation: "" }),
  "PATCH /my-certifications/questions/[questionId]": () => ({ prompt: "P2?", options: ["a", "b", "c"], correct: 2, explanation: "e" }),
  "PUT /api/t/[token]/answers": () => ({ question_id: 1, option: 0 }),
  "POST /api/c/[ctfId]/join": () => ({ email: "j@example.com" }),
  "POST /api/webhooks/resend": () => ({ type: "email.bounced", created_at: "2026-11-23T10:00:00Z", data: { email_id: "re_1", bounce: { message: "m" } } }),
};

function validBody(route: DiscoveredRoute): unknown {
  const key = `${route.method} ${route.path.replace(/^\/api\/(v1|app)/, "")}`;
  return (validBodies[key] ?? validBodies[`${route.method} ${route.path}`])?.();
}

/** Every path to a leaf of a JSON value: ["recipients", 0, "email"], … */
function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.length ? value.flatMap((item, index) => leafPaths(item, [...prefix, index])) : [prefix];
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length ? entries.flatMap(([key, item]) => leafPaths(item, [...prefix, key])) : [prefix];
  }
  return [prefix];
}

function withValueAt(value: unknown, at: (string | number)[], replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[at[0]] = withValueAt(copy[at[0]], at.slice(1), replacement);
  return copy;
}

// ---------------------------------------------------------------------------------------
// The known classes of bad input, and generators around them.

const INT_OVERFLOW = 2_147_483_648;
/** The classes of the issue: every field of a valid body is replaced with each, one at a time. */
const badValues: unknown[] = ["a\u0000b", "\ud800", INT_OVERFLOW, "tomorrow", null];
/** More odd values: each field gets one of them, in turn. */
const oddValues: unknown[] = ["x\udfffy", -INT_OVERFLOW - 1, 1e308, [], {}, { "\u0000": 1 }, "x".repeat(20_000), true];
/** Path segments as Next.js hands them over, already decoded. */
const badSegments = ["\u0000", "a\u0000", "\ud800", "2147483648", "99999999999999999999", "-1", "..", "%ZZ", "ctf_00000000000000000000000000", "x".repeat(3000)];
const badQueries: Record<string, string>[] = [{ search: "\u0000" }, { vendor: "a\u0000b" }, { page: "2147483648" }, { per_page: "\u0000" }, { page: "-1", per_page: "1e9" }, { status: "\u0000" }];
const badOrigins = ["null", "http://evil.example", "not a url", "file:///etc/passwd", "http://", "javascript:alert(1)"];

const anyText = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.constantFrom(...badSegments));
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.anything({ maxDepth: 3, withNullPrototype: false }).map((value) => {
    try {
      return JSON.parse(JSON.stringify(value ?? null));
    } catch {
      return null;
    }
  }),
);

type Attempt = {
  params: Record<string, string>;
  query?: Record<string, string>;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown;
  origin?: string | null;
};

function requestFor(route: DiscoveredRoute, attempt: Attempt, key: string): Request {
  const segment = (value: string) => {
    try {
      return encodeURIComponent(value);
    } catch {
      return "x"; // an unpaired surrogate cannot be percent-encoded; the handler gets the raw value below
    }
  };
  const url = new URL(`http://localhost${route.path.replace(/\[(\w+)\]/g, (_, name: string) => segment(attempt.params[name] ?? ""))}`);
  for (const [name, value] of Object.entries(attempt.query ?? {})) url.searchParams.set(name, value);
  const headers = new Headers({ host: "localhost" });
  if (route.kind === "api-key") headers.set("x-api-key", key);
  const origin = attempt.origin === undefined ? "http://localhost" : attempt.origin;
  if (origin !== null) headers.set("origin", origin);
  let body: string | undefined;
  if (attempt.body !== undefined && route.method !== "GET") {
    body = typeof attempt.body === "string" ? attempt.body : JSON.stringify(attempt.body);
    headers.set("content-type", "application/json");
  }
  return new Request(url, { method: route.method, headers, body });
}

async function send(route: DiscoveredRoute, attempt: Attempt) {
  const response = await route.handler(requestFor(route, attempt, owner.secret), { params: Promise.resolve(attempt.params) });
  const text = await response.text();
  let json: any;
  if ((response.headers.get("content-type") ?? "").includes("json") && text) json = JSON.parse(text);
  return { status: response.status, json, text };
}

let tableNames: string[] | undefined;
async function tables(): Promise<string[]> {
  tableNames ??= (
    await database.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    )
  ).map((t) => t.name);
  return tableNames;
}
/** The rate limiters' own bookkeeping: counting a refused request is their job, not a write. */
const isLimiterTable = (name: string) => name.startsWith("rate_limit");

/** Row counts of every table: a refused request must leave them all as they were. */
let countQuery: string | undefined;
async function rowCounts(): Promise<string> {
  if (!countQuery) {
    const counted = (await tables()).filter((name) => !isLimiterTable(name));
    countQuery = `select ${counted.map((name) => `(select count(*) from "${name}")::int as "${name}"`).join(", ")}`;
  }
  return JSON.stringify((await database.query(countQuery))[0]);
}

/** Fuzzing measures input handling, not the limiters: every attempt starts with empty logs. */
async function clearRateLogs(): Promise<void> {
  await database.query("update api_keys set request_log = '{}', create_log = '{}'");
  for (const name of (await tables()).filter(isLimiterTable)) await database.query(`delete from "${name}"`);
}

function validParams(route: DiscoveredRoute): Record<string, string> {
  return Object.fromEntries(route.params.map((name) => [name, fixtures[resourceOf(route, name)] ?? "1"]));
}

/** Row counts after the last request: the "before" of the next one. */
let baseline: string | undefined;
let sinceCleared = 0;

async function check(route: DiscoveredRoute, attempt: Attempt): Promise<void> {
  if (baseline === undefined || ++sinceCleared >= 50) {
    await clearRateLogs();
    sinceCleared = 0;
    baseline = await rowCounts();
  }
  const before = baseline;
  const result = await send(route, attempt);
  const after = (baseline = await rowCounts());
  const described = `${route.method} ${route.path} ${JSON.stringify(attempt).slice(0, 300)} → ${result.status} ${result.text.slice(0, 300)}`;
  expect(result.status, described).toBeLessThan(500);
  if (result.status >= 400) {
    expect(result.json?.error?.code, described).toEqual(expect.any(String));
    expect(result.json?.error?.message, described).toEqual(expect.any(String));
    expect(result.json?.error?.request_id, described).toMatch(/^req_[0-9A-Z]{26}$/);
    if (after !== before) {
      const [was, now] = [JSON.parse(before), JSON.parse(after)] as Record<string, number>[];
      const changed = Object.keys(now).filter((table) => now[table] !== was[table]).map((table) => `${table} ${was[table]}→${now[table]}`);
      expect.fail(`partial write (${changed.join(", ")}): ${described}`);
    }
  }
}

function attemptArbitrary(route: DiscoveredRoute): fc.Arbitrary<Attempt> {
  const valid = validParams(route);
  const params = fc.record(Object.fromEntries(route.params.map((name) => [name, fc.oneof({ weight: 3, arbitrary: fc.constant(valid[name]) }, { weight: 1, arbitrary: anyText })])));
  const sample = validBody(route);
  const paths = sample === undefined ? [] : leafPaths(sample);
  const body =
    route.method === "GET" || route.method === "DELETE"
      ? fc.constant(undefined)
      : fc.oneof(
          ...(paths.length
            ? [fc.tuple(fc.constantFrom(...paths), fc.oneof(fc.constantFrom(...badValues, ...oddValues), anyJson)).map(([at, value]) => withValueAt(sample, at, value))]
            : []),
          anyJson,
          fc.string({ unit: "binary", maxLength: 60 }),
        );
  const query = fc.dictionary(fc.constantFrom("page", "per_page", "search", "vendor", "status", "x"), anyText, { maxKeys: 3 });
  const origin = fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom<string | null>(null, ...badOrigins) });
  return fc.record({ params, body, query, origin }, { requiredKeys: ["params"] }) as fc.Arbitrary<Attempt>;
}

/** The classes from the issue, each sent on purpose rather than left to chance. */
function knownBadAttempts(route: DiscoveredRoute): Attempt[] {
  const params = validParams(route);
  const attempts: Attempt[] = [];
  for (const name of route.params) for (const bad of badSegments) attempts.push({ params: { ...params, [name]: bad } });
  if (route.method === "GET") for (const query of badQueries) attempts.push({ params, query });
  const sample = validBody(route);
  if (sample !== undefined) {
    leafPaths(sample).forEach((at, index) => {
      for (const bad of [...badValues, oddValues[index % oddValues.length]]) attempts.push({ params, body: withValueAt(sample, at, bad) });
    });
  }
  if (route.method !== "GET") {
    for (const raw of ['{"a":"\\u0000"}', '{"a":"\\ud800"}', "\u0000", "{", "[".repeat(5000)]) attempts.push({ params, body: raw });
  }
  if (route.kind === "session" || route.kind === "public") {
    for (const origin of [null, ...badOrigins]) attempts.push({ params, body: sample, origin });
  }
  return attempts;
}

describe("every route answers bad input with a 4xx in the error shape, and writes nothing", () => {
  it("finds the routes of every caller kind", () => {
    const kinds = new Set(routes.map((route) => route.kind));
    expect([...kinds].sort()).toEqual(["api-key", "public", "session", "token"]);
    expect(routes.length).toBeGreaterThan(60);
  });

  describe.each(routes.map((route) => ({ name: `${route.method} ${route.path}`, route })))("$name", ({ route }) => {
    it("the known classes of bad input", async () => {
      for (const attempt of knownBadAttempts(route)) await check(route, attempt);
    });

    it("generated bodies, path segments, query strings and origins", async () => {
      await fc.assert(
        fc.asyncProperty(attemptArbitrary(route), (attempt) => check(route, attempt)),
        { numRuns: 12 },
      );
    });

    it("twenty bad requests at once", async () => {
      await clearRateLogs();
      baseline = undefined;
      const sample = validBody(route);
      const params = validParams(route);
      const batch: Attempt[] = Array.from({ length: 20 }, (_, i) =>
        sample !== undefined
          ? { params, body: withValueAt(sample, leafPaths(sample)[i % leafPaths(sample).length], badValues[i % badValues.length]) }
          : { params: { ...params, ...(route.params.length ? { [route.params[0]]: badSegments[i % badSegments.length] } : {}) }, query: badQueries[i % badQueries.length] },
      );
      const results = await Promise.all(batch.map((attempt) => send(route, attempt)));
      for (const result of results) {
        expect(result.status, `${route.method} ${route.path} → ${result.text.slice(0, 200)}`).toBeLessThan(500);
        if (result.status >= 400) expect(result.json?.error?.request_id).toMatch(/^req_/);
      }
    });
  });
});
