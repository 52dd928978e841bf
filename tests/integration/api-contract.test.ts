import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi-document";
import { apiScopes } from "@/lib/keys/scopes";
import { revokeApiKey } from "@/lib/keys";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTrainer, type Trainer } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { apiRoutes, urlOf } from "./route-table";

/** Every route file under app/api/v1 and the methods it exports, as OpenAPI paths. */
function routeFiles(): { method: string; path: string }[] {
  const root = path.join(process.cwd(), "app", "api", "v1");
  const found: { method: string; path: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const apiPath = "/" + path.relative(root, dir).split(path.sep).map((s) => s.replace(/^\[(\w+)\]$/, "{$1}")).join("/");
        const source = fs.readFileSync(full, "utf8");
        for (const match of source.matchAll(/export const (GET|POST|PATCH|PUT|DELETE)\b/g)) {
          found.push({ method: match[1], path: apiPath === "/" ? "" : apiPath });
        }
      }
    }
  };
  walk(root);
  return found;
}

describe("the /api/v1 contract", () => {
  it("documents every route in the OpenAPI document and lists it in the shared route table", () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThanOrEqual(3);
    const doc = openApiDocument();
    for (const { method, path: apiPath } of files) {
      const operations = doc.paths?.[`/api/v1${apiPath}`] as Record<string, unknown> | undefined;
      expect(operations?.[method.toLowerCase()], `${method} /api/v1${apiPath} in OpenAPI`).toBeDefined();
      expect(apiRoutes.some((r) => r.method === method && r.path === apiPath), `${method} ${apiPath} in route-table.ts`).toBe(true);
    }
  });
});

describe.each(apiRoutes)("$method $path: auth, tenant and scope", (route) => {
  let database: TestDatabase;
  let owner: Trainer;
  let stranger: Trainer;
  let body: unknown;

  beforeAll(async () => {
    database = await createTestDatabase();
    owner = await createTrainer(database.db);
    stranger = await createTrainer(database.db);
    body = await route.body?.(database.db, owner);
  });
  afterAll(() => database.drop());

  // Each request names a resource of its own: a DELETE must not see one an earlier call removed.
  const ownParams = async () => (await route.ownParams?.(database.db, owner)) ?? {};
  const request = async (key: string | undefined, extra: { bearer?: boolean; body?: unknown; params?: Record<string, string> } = {}) => {
    const params = extra.params ?? (await ownParams());
    return call(route.handler, urlOf(route, params), {
      method: route.method,
      key,
      params,
      bearer: extra.bearer,
      body: extra.body ?? body,
    });
  };

  function expectErrorShape(result: Awaited<ReturnType<typeof request>>, status: number, code: string) {
    expect(result.status).toBe(status);
    expect(result.body.error.code).toBe(code);
    expect(result.body.error.message).toEqual(expect.any(String));
    expect(result.body.error.request_id).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(result.headers.get("x-request-id")).toBe(result.body.error.request_id);
    for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      expect(result.headers.get(header), header).toMatch(/^\d+$/);
    }
  }

  it("answers 401 without a key", async () => {
    expectErrorShape(await request(undefined), 401, "unauthorized");
  });

  it("answers 401 to an unknown key", async () => {
    expectErrorShape(await request("ck_not-a-real-key"), 401, "unauthorized");
  });

  it("answers 401 to a revoked key, on its very next call", async () => {
    const doomed = await createTrainer(database.db, { email: owner.email });
    expect((await request(doomed.secret)).status).not.toBe(401);
    await revokeApiKey(database.db, doomed.workspaceId, doomed.key.id);
    expectErrorShape(await request(doomed.secret), 401, "unauthorized");
  });

  it("accepts the key as X-API-KEY and as Authorization: Bearer", async () => {
    const viaHeader = await request(owner.secret);
    const viaBearer = await request(owner.secret, { bearer: true });
    expect(viaHeader.status).toBeLessThan(300);
    expect(viaBearer.status).toBe(viaHeader.status);
    expect(Number(viaBearer.headers.get("x-ratelimit-remaining"))).toBeLessThan(120);
  });

  // Only the checks that apply to this route are defined (none is a permanent skip).
  if (route.ownParams) it("answers 404 to another workspace's resource, as for a missing one", async () => {
    const params = await ownParams();
    const foreign = await request(stranger.secret, { params });
    expectErrorShape(foreign, 404, "not_found");
    // The owner still reaches it: the 404 was about the caller, and changed nothing.
    expect((await request(owner.secret, { params })).status).toBeLessThan(300);
    const absent = Object.fromEntries(Object.keys(params).map((name) => [name, "2147483647"]));
    const missing = await request(owner.secret, { params: absent });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(foreign.body.error.message);
  });

  if (route.scope) it("answers 403 to a key without the scope", async () => {
    const others = apiScopes.filter((scope) => scope !== route.scope);
    const narrow = await createTrainer(database.db, { email: owner.email, scopes: others });
    expectErrorShape(await request(narrow.secret), 403, "forbidden");
  });

  if (route.body) it("answers 400 to malformed JSON", async () => {
    expectErrorShape(await request(owner.secret, { body: "{not json" }), 400, "invalid_json");
  });
});
