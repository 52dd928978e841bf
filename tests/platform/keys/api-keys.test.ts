import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/platform/keys";
import { keyContracts } from "@/lib/platform/keys/contracts";
import { AppError } from "@/lib/kernel/errors";
import { ensureUserWorkspace, setPlan } from "@/lib/platform/workspaces";
import * as listRoute from "@/app/api/v1/certifications/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { call } from "../../helpers/http";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe("API keys", () => {
  it("stores only a hash and a visible prefix; the secret is returned once", async () => {
    const { workspace } = await ensureUserWorkspace(database.db, "keys1@example.test");
    const { key, secret } = await createApiKey(database.db, workspace.id, { name: "CI" });
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(key).toMatchObject({ name: "CI", scopes: null, last_used_at: null, revoked_at: null });
    const rows = await database.query<Record<string, unknown>>("select * from api_keys where id = $1", [key.id]);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(await listApiKeys(database.db, workspace.id))).not.toContain(secret);
  });

  it("records scopes, deduplicated by the contract's body, which refuses unknown ones", async () => {
    const { workspace } = await ensureUserWorkspace(database.db, "keys2@example.test");
    const body = keyContracts.create.body;
    const { key } = await createApiKey(database.db, workspace.id, body.parse({ name: "Reader", scopes: ["ctf:read", "ctf:read", "ctf:admin"] }));
    expect(key.scopes).toEqual(["ctf:read", "ctf:admin"]);
    expect(body.safeParse({ name: "x", scopes: ["ctf:everything"] }).error?.issues[0].path).toEqual(["scopes", 0]);
    expect(body.safeParse({ name: "x", scopes: [] }).error?.issues[0].path).toEqual(["scopes"]);
    expect(body.safeParse({ name: "  " }).error?.issues[0].path).toEqual(["name"]);
  });

  it("allows 5 active keys; the 6th is refused with nothing written, and revoking frees a place", async () => {
    const { workspace } = await ensureUserWorkspace(database.db, "keys3@example.test");
    const keys = [];
    for (let i = 0; i < 5; i++) keys.push(await createApiKey(database.db, workspace.id, { name: `k${i}` }));
    const sixth = createApiKey(database.db, workspace.id, { name: "sixth" });
    await expect(sixth).rejects.toMatchObject({ code: "plan_limit_exceeded", message: expect.stringContaining("at most 5 active") });
    expect(await listApiKeys(database.db, workspace.id)).toHaveLength(5);
    await revokeApiKey(database.db, workspace.id, keys[0].key.id);
    await createApiKey(database.db, workspace.id, { name: "replacement" });
    const listed = await listApiKeys(database.db, workspace.id);
    expect(listed).toHaveLength(6);
    expect(listed.at(-1)?.revoked_at).not.toBeNull();
  });

  it("revokes with immediate effect and only within the workspace", async () => {
    const { workspace } = await ensureUserWorkspace(database.db, "keys4@example.test");
    const { workspace: stranger } = await ensureUserWorkspace(database.db, "keys5@example.test");
    const { key, secret } = await createApiKey(database.db, workspace.id, { name: "Soon gone" });
    expect((await call(listRoute.GET, "/api/v1/certifications", { key: secret })).status).toBe(200);
    await expect(revokeApiKey(database.db, stranger.id, key.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await call(listRoute.GET, "/api/v1/certifications", { key: secret })).status).toBe(200);
    await revokeApiKey(database.db, workspace.id, key.id);
    expect((await call(listRoute.GET, "/api/v1/certifications", { key: secret })).status).toBe(401);
  });

  it("keeps last_used_at", async () => {
    const { workspace } = await ensureUserWorkspace(database.db, "keys6@example.test");
    const { key, secret } = await createApiKey(database.db, workspace.id, { name: "Used" });
    await call(listRoute.GET, "/api/v1/certifications", { key: secret });
    const [listed] = (await listApiKeys(database.db, workspace.id)).filter((k) => k.id === key.id);
    expect(listed.last_used_at).not.toBeNull();
  });
});

describe("workspaces and plans", () => {
  it("creates one workspace per user on the free plan, and changes plans", async () => {
    const first = await ensureUserWorkspace(database.db, "Plan@Example.test");
    const again = await ensureUserWorkspace(database.db, "plan@example.test");
    expect(again.workspace.id).toBe(first.workspace.id);
    expect(first.workspace.plan).toBe("free");
    expect((await setPlan(database.db, first.workspace.id, "pro")).plan).toBe("pro");
    await expect(setPlan(database.db, "ws_missing", "pro")).rejects.toBeInstanceOf(AppError);
  });
});
