import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AnyContract } from "@/lib/kernel/contract";
import { revokeApiKey } from "@/lib/platform/keys";
import { apiScopes } from "@/lib/kernel/scopes";
import { setPlan } from "@/lib/platform/workspaces";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallResult } from "../../helpers/http";
import { isLimiterTable, rowCounter } from "../../helpers/row-counts";
import { contractRoutes, pathWith, type ServedRoute } from "../../helpers/routes";
import { samples } from "../../helpers/samples";
import type { Sample, SampleWorld } from "../../helpers/samples/types";
import { signInAs } from "../../helpers/session";

/**
 * The shared auth, tenant and scope table: every row is derived from a contract
 * (lib/<area>/contracts.ts) and its sample (tests/helpers/samples), so a new endpoint is
 * covered by declaring it. Each route called by a workspace (an API key or the dashboard's
 * session) or by the dashboard only is called signed out, with bad keys, with a key
 * lacking its scope, as another workspace, with malformed JSON, with bodies naming another
 * workspace's resources, and as its owner — whose answer must match the contract.
 *
 * One database for the file; each route gets two fresh workspaces (so no route spends
 * another's rate-limit budget).
 */

vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

type Route = ServedRoute & { contract: AnyContract };

const routes = (await contractRoutes()).filter((route) => route.contract.caller === "workspace" || route.contract.caller === "session");
const sameOrigin = { origin: "http://localhost", "x-forwarded-host": "localhost" };
const otherOrigin = { origin: "https://evil.example", "x-forwarded-host": "localhost" };

let database: TestDatabase;
/** Rows in every table but the rate-limit logs and the provider's pace (each call writes those by design). */
let rowCounts: () => Promise<Record<string, number>>;
beforeAll(async () => {
  database = await createTestDatabase();
  rowCounts = rowCounter(database, (name) => isLimiterTable(name) || name === "provider_pacing");
});
afterAll(() => database.drop());

it("has a sample for every contract", async () => {
  const missing = (await contractRoutes()).map((route) => route.contract.id).filter((id) => !(id in samples));
  expect(missing).toEqual([]);
});


/** Values of the same shape as `params` that name nothing. */
function absentParams(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      if (/^\d+$/.test(value)) return [name, "2147483647"];
      const prefixed = /^([a-z]+)_[0-9A-Z]{26}$/.exec(value);
      if (prefixed) return [name, `${prefixed[1]}_01JD6S1B9R8W6H3KX1ZJ0V5N2Q`];
      return [name, "Z".repeat(value.length)];
    }),
  );
}

/** The one error shape; workspace routes' answers to a key (or to nobody) also carry the rate-limit headers. */
function expectError(result: CallResult, status: number, code: string, route: Route, bySession = false) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body.error.code).toBe(code);
  expect(result.body.error.message).toEqual(expect.any(String));
  expect(result.body.error.request_id).toMatch(/^req_[0-9A-Z]{26}$/);
  expect(result.headers.get("x-request-id")).toBe(result.body.error.request_id);
  if (route.contract.caller === "workspace" && !bySession) {
    for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) expect(result.headers.get(header), header).toMatch(/^\d+$/);
  }
}

/** The owner's answer is the contract's: its status, and a body its response schema accepts. */
function expectContractAnswer(result: CallResult, route: Route) {
  expect(result.status, JSON.stringify(result.body)).toBe(route.contract.status);
  if (route.contract.response) {
    const parsed = route.contract.response.safeParse(result.body);
    expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
  }
  if (route.contract.produces) {
    const contentType = result.headers.get("content-type") ?? "";
    expect([route.contract.produces].flat().some((type) => contentType.startsWith(type)), `${contentType} is one of ${route.contract.produces}`).toBe(true);
  }
}

describe.each(routes.map((route) => ({ ...route, label: `${route.method} ${route.path}` })))("$label", (route) => {
  const sample: Sample = samples[route.contract.id] ?? {};
  const world = {} as SampleWorld;
  let owner: Trainer;
  let stranger: Trainer;

  beforeAll(async () => {
    owner = await createTrainer(database.db);
    stranger = await createTrainer(database.db);
    await setPlan(database.db, owner.workspaceId, "pro");
    await setPlan(database.db, stranger.workspaceId, "pro");
    Object.assign(world, { db: database.db, owner, stranger });
  });

  /** One request; params and body default to a fresh resource of the owner and a valid body. */
  async function request(as: { key?: string; bearer?: boolean; session?: Trainer; origin?: Record<string, string> }, extra: { params?: Record<string, string>; body?: unknown } = {}) {
    const params = extra.params ?? (await sample.params?.(world, owner)) ?? {};
    const body = "body" in extra ? extra.body : await sample.body?.(world, owner, params);
    const query = await sample.query?.(world, owner);
    signInAs(as.session);
    try {
      return await call(route.handler, pathWith(route.path, params), {
        method: route.method,
        key: as.key,
        bearer: as.bearer,
        params,
        query,
        body,
        headers: as.session ? (as.origin ?? sameOrigin) : undefined,
      });
    } finally {
      signInAs(undefined);
    }
  }

  const asOwner = () => (route.contract.caller === "workspace" ? { key: owner.secret } : { session: owner });
  const asStranger = () => (route.contract.caller === "workspace" ? { key: stranger.secret } : { session: stranger });

  it("answers the owner as its contract says", async () => {
    expectContractAnswer(await request(asOwner()), route);
  });

  it("answers 401 to nobody", async () => {
    const result = await request({});
    expectError(result, 401, "unauthorized", route);
  });

  if (route.contract.params) {
    it("answers 404 to another workspace's resource, with a missing one's message, and changes nothing", async () => {
      const params = await sample.params!(world, owner);
      const foreign = await request(asStranger(), { params });
      expectError(foreign, 404, "not_found", route);
      const missing = await request(asOwner(), { params: absentParams(params) });
      expectError(missing, 404, "not_found", route);
      expect(missing.body.error.message).toBe(foreign.body.error.message);
      // The 404 was about the caller: the owner still reaches the resource.
      expectContractAnswer(await request(asOwner(), { params }), route);
    });
  }

  if (route.contract.body) {
    it("answers 400 to malformed JSON", async () => {
      expectError(await request(asOwner(), { body: "{not json" }), 400, "invalid_json", route);
    });
  }

  if (sample.foreignBodies) {
    it("refuses a body naming another workspace's resources, and writes nothing", async () => {
      const params = (await sample.params?.(world, owner)) ?? {};
      const bodies = await sample.foreignBodies!(world, params);
      expect(Object.keys(bodies).length).toBeGreaterThan(0);
      for (const [what, body] of Object.entries(bodies)) {
        const before = await rowCounts();
        const result = await request(asOwner(), { params, body });
        expect([404, 422], `${what}: ${JSON.stringify(result.body)}`).toContain(result.status);
        expect(await rowCounts(), what).toEqual(before);
      }
    });
  }

  if (route.contract.caller === "workspace") {
    it("answers 401 to an unknown key and to a revoked key on its very next call", async () => {
      expectError(await request({ key: "ck_not-a-real-key" }), 401, "unauthorized", route);
      const doomed = await createTrainer(database.db, { email: owner.email });
      await revokeApiKey(database.db, doomed.workspaceId, doomed.key.id);
      expectError(await request({ key: doomed.secret }), 401, "unauthorized", route);
    });

    it("accepts the key as X-API-KEY and as Authorization: Bearer", async () => {
      expectContractAnswer(await request({ key: owner.secret }), route);
      const viaBearer = await request({ key: owner.secret, bearer: true });
      expectContractAnswer(viaBearer, route);
      expect(Number(viaBearer.headers.get("x-ratelimit-remaining"))).toBeLessThan(120);
    });

    if (route.contract.scope) {
      it(`answers 403 to a key without ${route.contract.scope}`, async () => {
        const narrow = await createTrainer(database.db, { email: owner.email, scopes: apiScopes.filter((scope) => scope !== route.contract.scope) });
        expectError(await request({ key: narrow.secret }), 403, "forbidden", route);
      });
    }

    it("serves the dashboard's same-origin session too", async () => {
      expectContractAnswer(await request({ session: owner }), route);
    });

    if (route.contract.params) {
      it("answers 404 to another workspace's session", async () => {
        expectError(await request({ session: stranger }, { params: await sample.params!(world, owner) }), 404, "not_found", route, true);
      });
    }
  }

  if (route.method !== "GET") {
    it("refuses a signed-in change from another origin (403) and writes nothing", async () => {
      const params = (await sample.params?.(world, owner)) ?? {};
      const body = await sample.body?.(world, owner, params);
      const before = await rowCounts();
      expectError(await request({ session: owner, origin: otherOrigin }, { params, body }), 403, "forbidden", route);
      expect(await rowCounts()).toEqual(before);
    });
  }
});

/**
 * The routes called with a player's cookie: a competition's (`ctf_player_{ctf_id}`) and a
 * standalone deployment's (`dep_player_{deployment_id}`): the same table, for that credential.
 * Nobody, an unknown token and another competition's or deployment's cookie are 401 and write
 * nothing; a resource of another one named in the path (a challenge, a file) is a 404 with a
 * missing one's message; changes come from our own origin only.
 */
const cookieCallers = {
  player: { who: "a player", of: "competition", unknownToken: `cp_${"A".repeat(43)}`, foreignParam: "challenge_id", unknownOwner: [401, 404] },
  deployment_player: { who: "a deployment's player", of: "deployment", unknownToken: `dp_${"A".repeat(43)}`, foreignParam: "file_id", unknownOwner: [401] },
} as const;

const cookieRoutes = (await contractRoutes()).flatMap((route) => {
  const caller = route.contract.caller;
  return caller === "player" || caller === "deployment_player" ? [{ ...route, ...cookieCallers[caller], label: `${route.method} ${route.path}` }] : [];
});

describe.each(cookieRoutes)("$label ($who)", (route) => {
  const sample: Sample = samples[route.contract.id] ?? {};
  const world = {} as SampleWorld;

  beforeAll(async () => {
    Object.assign(world, { db: database.db, owner: await createTrainer(database.db), stranger: await createTrainer(database.db) });
  });

  async function request(params: Record<string, string>, cookie: string | undefined, origin = sameOrigin) {
    const body = await sample.body?.(world, world.owner, params);
    return call(route.handler, pathWith(route.path, params), { method: route.method, params, body, headers: { ...origin, ...(cookie ? { cookie } : {}) } });
  }

  it("has a player cookie in its sample", () => {
    expect(sample.cookie).toBeDefined();
  });

  it("answers the player as its contract says", async () => {
    const params = await sample.params!(world, world.owner);
    expectContractAnswer(await request(params, sample.cookie!(params)), route);
  });

  it(`answers 401 to nobody, to an unknown token and to another ${route.of}'s player, and writes nothing`, async () => {
    const params = await sample.params!(world, world.owner);
    const other = await sample.params!(world, world.stranger);
    const before = await rowCounts();
    expectError(await request(params, undefined), 401, "unauthorized", route);
    const [name] = sample.cookie!(params)!.split("=");
    expectError(await request(params, `${name}=${route.unknownToken}`), 401, "unauthorized", route);
    // The other one's cookie, as it is and renamed for this one.
    const [otherName, otherToken] = sample.cookie!(other)!.split("=");
    expectError(await request(params, `${otherName}=${otherToken}`), 401, "unauthorized", route);
    expectError(await request(params, `${name}=${otherToken}`), 401, "unauthorized", route);
    // Nothing of the path exists: its cookie cannot either.
    const unknown = await request(absentParams(params), sample.cookie!(params));
    expect(route.unknownOwner as readonly number[]).toContain(unknown.status);
    expect(await rowCounts()).toEqual(before);
  });

  if (route.path.includes(`{${route.foreignParam}}`)) {
    it(`answers 404 to another ${route.of}'s ${route.foreignParam.replace("_id", "")}, with a missing one's message, and writes nothing`, async () => {
      const params = await sample.params!(world, world.owner);
      const other = await sample.params!(world, world.stranger);
      const cookie = sample.cookie!(params);
      const before = await rowCounts();
      const foreign = await request({ ...params, [route.foreignParam]: other[route.foreignParam] }, cookie);
      expectError(foreign, 404, "not_found", route);
      const missing = await request({ ...params, [route.foreignParam]: absentParams(params)[route.foreignParam] }, cookie);
      expectError(missing, 404, "not_found", route);
      expect(missing.body.error.message).toBe(foreign.body.error.message);
      expect(await rowCounts()).toEqual(before);
    });
  }

  if (route.method !== "GET") {
    it("refuses a change from another origin (403) and writes nothing", async () => {
      const params = await sample.params!(world, world.owner);
      const before = await rowCounts();
      expectError(await request(params, sample.cookie!(params), otherOrigin), 403, "forbidden", route);
      expect(await rowCounts()).toEqual(before);
    });
  }
});
