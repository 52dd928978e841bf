import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AnyContract } from "@/lib/kernel/contract";
import { setPlan } from "@/lib/platform/workspaces";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { appTables, isLimiterTable, rowCounter } from "../../helpers/row-counts";
import { contractRoutes, type ServedRoute } from "../../helpers/routes";
import { samples } from "../../helpers/samples";
import type { SampleWorld } from "../../helpers/samples/types";
import { signInAs } from "../../helpers/session";

/**
 * Property-based fuzzing of EVERY route handler under app/api (found on disk, each with its
 * contract): generated bodies, path segments, query strings and origins, plus each known
 * class of bad input (NUL, unpaired surrogates, integers beyond PostgreSQL's `integer`,
 * dates that are not dates, `Origin: null`), alone and twenty at once. Each answer must be
 * below 500, every error must be in the one error shape, and a refused request must write
 * nothing. Valid params and bodies come from the same samples as the route table
 * (tests/helpers/samples), so a new endpoint is fuzzed by declaring it.
 */

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

type Route = ServedRoute & { contract: AnyContract };
const routes: Route[] = await contractRoutes();
const paramNames = (route: Route) => [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

let database: TestDatabase;
let owner: Trainer;
/** Per contract id: params naming the owner's resources, and a valid body. */
const valid: Record<string, { params: Record<string, string>; body: unknown; cookie?: string }> = {};

beforeAll(async () => {
  // With a signing secret the Resend webhook route checks what it is sent, instead of being a 404.
  vi.stubEnv("RESEND_WEBHOOK_SECRET", `whsec_${Buffer.from("fuzz-secret-fuzz-secret-32-bytes").toString("base64")}`);
  database = await createTestDatabase();
  owner = await createTrainer(database.db);
  const stranger = await createTrainer(database.db);
  await setPlan(database.db, owner.workspaceId, "pro");
  signInAs(owner);
  const world: SampleWorld = { db: database.db, owner, stranger };
  for (const route of routes) {
    const sample = samples[route.contract.id] ?? {};
    const params = (await sample.params?.(world, owner)) ?? {};
    valid[route.contract.id] = { params, body: await sample.body?.(world, owner, params), cookie: sample.cookie?.(params) };
  }
});
afterAll(async () => {
  signInAs(undefined);
  await database.drop();
  vi.unstubAllEnvs();
});

const validBody = (route: Route): unknown => valid[route.contract.id]?.body;

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
/** A date PostgreSQL cannot hold (no year 0) found a 500 in the date fields of competitions and delivery filters. */
const badValues: unknown[] = ["a\u0000b", "\ud800", INT_OVERFLOW, "tomorrow", null, "0000-01-01T00:00:00Z"];
/** More odd values: each field gets one of them, in turn. */
const oddValues: unknown[] = ["x\udfffy", -INT_OVERFLOW - 1, 1e308, [], {}, { "\u0000": 1 }, "x".repeat(20_000), true];
/** Path segments as Next.js hands them over, already decoded. */
const badSegments = ["\u0000", "a\u0000", "\ud800", "2147483648", "99999999999999999999", "-1", "..", "%ZZ", "ctf_00000000000000000000000000", "x".repeat(3000)];
const badQueries: Record<string, string>[] = [{ search: "\u0000" }, { vendor: "a\u0000b" }, { page: "2147483648" }, { per_page: "\u0000" }, { page: "-1", per_page: "1e9" }, { status: "\u0000" }, { since: "0000-01-01T00:00:00Z" }, { since: "0099-03-04T05:06:07Z" }];
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
  /** An object is sent as JSON; a string as it is; a FormData (an upload's sample) as multipart/form-data. */
  body?: unknown;
  origin?: string | null;
};

function requestFor(route: Route, attempt: Attempt, key: string): Request {
  const segment = (value: string) => {
    try {
      return encodeURIComponent(value);
    } catch {
      return "x"; // an unpaired surrogate cannot be percent-encoded; the handler gets the raw value below
    }
  };
  const url = new URL(`http://localhost${route.path.replace(/\{(\w+)\}/g, (_, name: string) => segment(attempt.params[name] ?? ""))}`);
  for (const [name, value] of Object.entries(attempt.query ?? {})) url.searchParams.set(name, value);
  const headers = new Headers({ host: "localhost" });
  if (route.contract.caller === "workspace") headers.set("x-api-key", key);
  // A player's cookie is named after the competition (or the deployment): with a changed id it signs nobody in.
  const cookie = valid[route.contract.id]?.cookie;
  if ((route.contract.caller === "player" || route.contract.caller === "deployment_player") && cookie) headers.set("cookie", cookie);
  const origin = attempt.origin === undefined ? "http://localhost" : attempt.origin;
  if (origin !== null) headers.set("origin", origin);
  let body: string | FormData | undefined;
  if (attempt.body instanceof FormData) body = attempt.body;
  else if (attempt.body !== undefined && route.method !== "GET") {
    body = typeof attempt.body === "string" ? attempt.body : JSON.stringify(attempt.body);
    headers.set("content-type", "application/json");
  }
  return new Request(url, { method: route.method, headers, body });
}

async function send(route: Route, attempt: Attempt) {
  const response = await route.handler(requestFor(route, attempt, owner.secret), { params: Promise.resolve(attempt.params) });
  const text = await response.text();
  let json: any;
  if ((response.headers.get("content-type") ?? "").includes("json") && text) json = JSON.parse(text);
  return { status: response.status, json, text };
}

/** Row counts of every table but the limiters' logs: a refused request must leave them all as they were. */
let countRows: () => Promise<Record<string, number>>;
const rowCounts = async () => JSON.stringify(await (countRows ??= rowCounter(database, isLimiterTable))());

/** Fuzzing measures input handling, not the limiters: every attempt starts with empty logs. */
let limiterTables: Promise<string[]> | undefined;
async function clearRateLogs(): Promise<void> {
  await database.query("update api_keys set request_log = '{}', create_log = '{}'");
  for (const name of await (limiterTables ??= appTables(database).then((names) => names.filter(isLimiterTable)))) {
    await database.query(`delete from public."${name}"`);
  }
}

function validParams(route: Route): Record<string, string> {
  return valid[route.contract.id]?.params ?? {};
}

/** Row counts after the last request: the "before" of the next one. */
let baseline: string | undefined;
let sinceCleared = 0;

async function check(route: Route, attempt: Attempt): Promise<void> {
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

function attemptArbitrary(route: Route): fc.Arbitrary<Attempt> {
  const valid = validParams(route);
  const params = fc.record(Object.fromEntries(paramNames(route).map((name) => [name, fc.oneof({ weight: 3, arbitrary: fc.constant(valid[name]) }, { weight: 1, arbitrary: anyText })])));
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
function knownBadAttempts(route: Route): Attempt[] {
  const params = validParams(route);
  const attempts: Attempt[] = [];
  for (const name of paramNames(route)) for (const bad of badSegments) attempts.push({ params: { ...params, [name]: bad } });
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
  if (["session", "public", "player", "deployment_player"].includes(route.contract.caller) && route.method !== "GET") {
    for (const origin of [null, ...badOrigins]) attempts.push({ params, body: sample, origin });
  }
  return attempts;
}

describe("every route answers bad input with a 4xx in the error shape, and writes nothing", () => {
  it("finds the routes of every caller kind", () => {
    const kinds = new Set(routes.map((route) => route.contract.caller));
    expect([...kinds].sort()).toEqual(["deployment_player", "player", "provider", "public", "recipient", "session", "workspace"]);
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
          : { params: { ...params, ...(paramNames(route).length ? { [paramNames(route)[0]]: badSegments[i % badSegments.length] } : {}) }, query: badQueries[i % badQueries.length] },
      );
      const results = await Promise.all(batch.map((attempt) => send(route, attempt)));
      for (const result of results) {
        expect(result.status, `${route.method} ${route.path} → ${result.text.slice(0, 200)}`).toBeLessThan(500);
        if (result.status >= 400) expect(result.json?.error?.request_id).toMatch(/^req_/);
      }
    });
  });
});
