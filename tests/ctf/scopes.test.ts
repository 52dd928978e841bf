import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db";
import { challengeFiles, challenges, ctfs, deployments, members } from "@/db/schema";
import { completeCtfDeploy } from "@/lib/ctf/competitions/competitions";
import { completeDeploymentDeploy } from "@/lib/ctf/deployments/deployments";
import type { ApiScope } from "@/lib/kernel/scopes";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTrainer } from "../helpers/fixtures";
import { call, type CallResult } from "../helpers/http";
import { contractRoutes, pathWith } from "../helpers/routes";
import { samples } from "../helpers/samples";
import { challengeInput, client, ctfInput, expectStatus, type Client } from "../helpers/competition";

/**
 * Scopes on the competition routes (they add up; a key lacking one gets 403), and tenancy:
 * another workspace's ids are 404 everywhere, never 403, and nothing of theirs changes.
 */

let database: TestDatabase;

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
  vi.unstubAllEnvs();
});

/** A workspace with a full-access key, plus keys of the same workspace narrowed to `scopes`. */
async function workspaceWith(...scopeSets: ApiScope[][]) {
  const owner = await createTrainer(database.db);
  const keys: Client[] = [];
  for (const scopes of scopeSets) keys.push(client((await createTrainer(database.db, { email: owner.email, scopes })).secret));
  return { owner, admin: client(owner.secret), keys };
}

/** A deployed competition with a draft challenge and a live deployment, made with the full-access key. */
async function resources(db: Db, admin: Client) {
  const ctf = expectStatus(await admin.createCtf(ctfInput()), 201);
  const challenge = expectStatus(await admin.createChallenge(ctf.id, challengeInput()), 201);
  const other = expectStatus(await admin.createCtf(ctfInput({ title: "Deployed one" })), 201);
  expectStatus(await admin.deploy(other.id), 202);
  await completeCtfDeploy(db, other.id);
  const deployment = expectStatus(await admin.createDeployment({ challenge_id: challenge.id, duration_minutes: 30 }), 202);
  await completeDeploymentDeploy(db, deployment.id);
  return { ctfId: ctf.id, challengeId: challenge.id, deployedId: other.id, deploymentId: deployment.id };
}

function expectForbidden(result: CallResult, scope: ApiScope): void {
  expect(result.status, JSON.stringify(result.body)).toBe(403);
  expect(result.body.error.code).toBe("forbidden");
  expect(result.body.error.message).toContain(scope);
}

async function ctfStatus(id: string) {
  const [row] = await database.db.select({ status: ctfs.status, title: ctfs.title }).from(ctfs).where(eq(ctfs.id, id));
  return row;
}

describe("scopes", () => {
  it("ctf:read lists and reads, but cannot create, update, deploy or invite (403, nothing changes)", async () => {
    const { admin, keys } = await workspaceWith(["ctf:read"]);
    const [read] = keys;
    const { ctfId, challengeId, deployedId, deploymentId } = await resources(database.db, admin);

    expect(expectStatus(await read.listCtfs(), 200).pagination.total).toBe(2);
    expect(expectStatus(await read.getCtf(ctfId), 200).id).toBe(ctfId);
    expect(expectStatus(await read.listChallenges(ctfId), 200).data).toHaveLength(1);
    expect(expectStatus(await read.getChallenge(ctfId, challengeId), 200).id).toBe(challengeId);
    expectStatus(await read.listMembers(ctfId), 200);
    expect(expectStatus(await read.listDeployments(), 200).data).toHaveLength(1);
    expect(expectStatus(await read.getDeployment(deploymentId), 200).status).toBe("live");
    expect(expectStatus(await read.listWebhooks(), 200).available_events).toContain("ctf.deployed");

    expectForbidden(await read.createCtf(ctfInput()), "ctf:write");
    expectForbidden(await read.updateCtf(ctfId, { title: "Renamed" }), "ctf:write");
    expectForbidden(await read.createChallenge(ctfId, challengeInput()), "ctf:write");
    expectForbidden(await read.generate(ctfId, { category: "web", difficulty: "easy" }), "ctf:write");
    expectForbidden(await read.updateChallenge(ctfId, challengeId, { points: 1 }), "ctf:write");
    expectForbidden(await read.deleteChallenge(ctfId, challengeId), "ctf:write");
    expectForbidden(await read.publish(deployedId, challengeId), "ctf:write");
    expectForbidden(await read.deploy(ctfId), "ctf:deploy");
    expectForbidden(await read.stop(deployedId), "ctf:deploy");
    expectForbidden(await read.archive(deployedId), "ctf:deploy");
    expectForbidden(await read.deleteCtf(ctfId), "ctf:deploy");
    expectForbidden(await read.createDeployment({ challenge_id: challengeId, duration_minutes: 5 }), "ctf:deploy");
    expectForbidden(await read.stopDeployment(deploymentId), "ctf:deploy");
    expectForbidden(await read.invite(ctfId, "nope@example.test"), "ctf:admin");
    expectForbidden(await read.createWebhook({ url: "https://example.com/hook", events: [] }), "ctf:admin");

    expect(await ctfStatus(ctfId)).toEqual({ status: "draft", title: "Spring CTF" });
    expect((await ctfStatus(deployedId)).status).toBe("deployed");
    expect(expectStatus(await admin.listCtfs(), 200).pagination.total).toBe(2);
    expect(await database.db.select().from(members).where(eq(members.ctfId, ctfId))).toHaveLength(0);
    expect(expectStatus(await admin.getChallenge(ctfId, challengeId), 200).points).toBe(120);
    expect(expectStatus(await admin.getDeployment(deploymentId), 200).status).toBe("live");
  });

  it("ctf:write creates and edits, but cannot deploy, stop, archive, delete or create deployments (403)", async () => {
    const { admin, keys } = await workspaceWith(["ctf:write"]);
    const [write] = keys;
    const { challengeId, deployedId, deploymentId } = await resources(database.db, admin);

    const created = expectStatus(await write.createCtf(ctfInput({ title: "By the writer" })), 201);
    expect(created.status).toBe("draft");
    expect(expectStatus(await write.updateCtf(created.id, { title: "Renamed by the writer" }), 200).title).toBe("Renamed by the writer");
    const challenge = expectStatus(await write.createChallenge(created.id, challengeInput()), 201);
    expectStatus(await write.updateChallenge(created.id, challenge.id, { points: 75 }), 200);
    expectStatus(await write.generate(created.id, { category: "osint", difficulty: "hard" }), 202);

    expectForbidden(await write.deploy(created.id), "ctf:deploy");
    expectForbidden(await write.stop(deployedId), "ctf:deploy");
    expectForbidden(await write.archive(deployedId), "ctf:deploy");
    expectForbidden(await write.deleteCtf(created.id), "ctf:deploy");
    expectForbidden(await write.createDeployment({ challenge_id: challengeId, duration_minutes: 5 }), "ctf:deploy");
    expectForbidden(await write.stopDeployment(deploymentId), "ctf:deploy");
    expectForbidden(await write.invite(created.id, "nope@example.test"), "ctf:admin");

    expect((await ctfStatus(created.id)).status).toBe("draft");
    expect((await ctfStatus(deployedId)).status).toBe("deployed");
    expect(await database.db.select().from(deployments).where(eq(deployments.challengeId, challengeId))).toHaveLength(1);
  });

  it("ctf:deploy deploys, stops, archives and runs deployments, but cannot invite members (403)", async () => {
    const { admin, keys } = await workspaceWith(["ctf:deploy"]);
    const [deploy] = keys;
    const { ctfId, challengeId, deployedId, deploymentId } = await resources(database.db, admin);

    expect(expectStatus(await deploy.deploy(ctfId), 202).status).toBe("deploying");
    expect(expectStatus(await deploy.stop(deployedId), 200).status).toBe("stopped");
    expect(expectStatus(await deploy.archive(deployedId), 200).status).toBe("archived");
    expect(expectStatus(await deploy.stopDeployment(deploymentId), 200)).toMatchObject({ status: "stopped", stop_reason: "stopped_by_request" });
    expect(expectStatus(await deploy.createDeployment({ challenge_id: challengeId, duration_minutes: 5 }), 202).status).toBe("deploying");
    expectStatus(await deploy.deleteCtf(deployedId), 200);

    expectForbidden(await deploy.invite(ctfId, "nope@example.test"), "ctf:admin");
    expectForbidden(await deploy.createWebhook({ url: "https://example.com/hook", events: [] }), "ctf:admin");
    expectForbidden(await deploy.createCtf(ctfInput()), "ctf:write");
    expect(await database.db.select().from(members).where(eq(members.ctfId, ctfId))).toHaveLength(0);
  });

  it("ctf:admin invites members and registers webhooks, but cannot deploy", async () => {
    const { admin, keys } = await workspaceWith(["ctf:admin"]);
    const [adminOnly] = keys;
    const { ctfId } = await resources(database.db, admin);

    expect(expectStatus(await adminOnly.invite(ctfId, "welcome@example.test"), 201)).toMatchObject({ email: "welcome@example.test", status: "invited" });
    expectStatus(await adminOnly.createWebhook({ url: "https://example.com/hook", events: ["member.joined"] }), 201);
    expectForbidden(await adminOnly.deploy(ctfId), "ctf:deploy");
    expect((await ctfStatus(ctfId)).status).toBe("draft");
  });

  it("scopes add up: read + write can do both, and still not deploy", async () => {
    const { keys } = await workspaceWith(["ctf:read", "ctf:write"]);
    const [both] = keys;
    const created = expectStatus(await both.createCtf(ctfInput()), 201);
    expect(expectStatus(await both.getCtf(created.id), 200).id).toBe(created.id);
    expectForbidden(await both.deploy(created.id), "ctf:deploy");
  });
});

const competitionRoutes = (await contractRoutes()).filter((route) => /^\/api\/v1\/(ctfs|deployments)\/\{/.test(route.path));

describe("tenancy: another workspace's ids are 404 on every competition route", () => {

  it("covers every competition route that names a resource", () => {
    expect(competitionRoutes.map((route) => `${route.method} ${route.path.replace("/api/v1", "")}`).sort()).toEqual(
      [
        "DELETE /ctfs/{ctf_id}",
        "DELETE /ctfs/{ctf_id}/announcements/{announcement_id}",
        "GET /ctfs/{ctf_id}/announcements",
        "POST /ctfs/{ctf_id}/announcements",
        "DELETE /ctfs/{ctf_id}/challenges/{challenge_id}",
        "DELETE /ctfs/{ctf_id}/challenges/{challenge_id}/files/{file_id}",
        "GET /ctfs/{ctf_id}",
        "GET /ctfs/{ctf_id}/challenges",
        "GET /ctfs/{ctf_id}/challenges/{challenge_id}",
        "GET /ctfs/{ctf_id}/challenges/{challenge_id}/files",
        "GET /ctfs/{ctf_id}/challenges/{challenge_id}/files/{file_id}",
        "GET /ctfs/{ctf_id}/hint-unlocks",
        "GET /ctfs/{ctf_id}/members",
        "GET /ctfs/{ctf_id}/scoreboard",
        "GET /ctfs/{ctf_id}/scoreboard/ctftime",
        "GET /deployments/{deployment_id}",
        "GET /deployments/{deployment_id}/solves",
        "PATCH /ctfs/{ctf_id}",
        "PATCH /ctfs/{ctf_id}/challenges/{challenge_id}",
        "POST /ctfs/{ctf_id}/archive",
        "POST /ctfs/{ctf_id}/challenges",
        "POST /ctfs/{ctf_id}/challenges/generate",
        "POST /ctfs/{ctf_id}/challenges/{challenge_id}/files",
        "POST /ctfs/{ctf_id}/challenges/{challenge_id}/publish",
        "POST /ctfs/{ctf_id}/challenges/{challenge_id}/reveal",
        "POST /ctfs/{ctf_id}/challenges/{challenge_id}/unpublish",
        "POST /ctfs/{ctf_id}/deploy",
        "POST /ctfs/{ctf_id}/members",
        "POST /ctfs/{ctf_id}/stop",
        "POST /deployments/{deployment_id}/stop",
        "GET /ctfs/{ctf_id}/teams",
        "PATCH /ctfs/{ctf_id}/teams/{team_id}",
        "DELETE /ctfs/{ctf_id}/teams/{team_id}",
        "DELETE /ctfs/{ctf_id}/teams/{team_id}/members/{member_id}",
        "POST /ctfs/{ctf_id}/import/ctfd",
      ].sort(),
    );
  });

  it.each(competitionRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))("%s", async (_name, route) => {
    const owner = await createTrainer(database.db);
    const intruder = await createTrainer(database.db);
    const sample = samples[route.contract.id];
    const world = { db: database.db, owner, stranger: intruder };
    const params = await sample.params!(world, owner);
    const body = await sample.body?.(world, owner, params);
    const before = await snapshotOf(params);

    // The intruder's full-access key, the owner's ids.
    const foreign = await call(route.handler, pathWith(route.path, params), { method: route.method, key: intruder.secret, params, body });
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");

    // Indistinguishable from an id that does not exist at all.
    const absentParams = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, value.replace(/.{4}$/, "ZZZZ")]));
    const absent = await call(route.handler, pathWith(route.path, absentParams), { method: route.method, key: owner.secret, params: absentParams, body });
    expect(absent.status).toBe(404);
    expect(absent.body.error.message).toBe(foreign.body.error.message);

    // Mixed: the intruder's own (deployed) competition with the owner's challenge.
    if (params.challenge_id) {
      const theirs = expectStatus(await client(intruder.secret).createCtf(ctfInput()), 201);
      expectStatus(await client(intruder.secret).deploy(theirs.id), 202);
      await completeCtfDeploy(database.db, theirs.id);
      const mixed = { ...params, ctf_id: theirs.id };
      const result = await call(route.handler, pathWith(route.path, mixed), { method: route.method, key: intruder.secret, params: mixed, body });
      expect(result.status).toBe(404);
    }

    // Nothing of the owner's changed.
    expect(await snapshotOf(params)).toEqual(before);
  });

  it("POST /deployments with another workspace's challenge_id is answered exactly as an unknown one, and creates nothing", async () => {
    const owner = await createTrainer(database.db);
    const intruder = client((await createTrainer(database.db)).secret);
    const ctf = expectStatus(await client(owner.secret).createCtf(ctfInput()), 201);
    const challenge = expectStatus(await client(owner.secret).createChallenge(ctf.id, challengeInput()), 201);
    const foreign = await intruder.createDeployment({ challenge_id: challenge.id, duration_minutes: 5 });
    const absent = await intruder.createDeployment({ challenge_id: challenge.id.replace(/.{4}$/, "ZZZZ"), duration_minutes: 5 });
    expect([404, 422]).toContain(foreign.status);
    expect(absent.status).toBe(foreign.status);
    expect(absent.body.error.code).toBe(foreign.body.error.code);
    expect(absent.body.error.fields).toEqual(foreign.body.error.fields);
    expect(await database.db.select().from(deployments).where(eq(deployments.challengeId, challenge.id))).toHaveLength(0);
  });

  it("lists show only the caller's own", async () => {
    const owner = await createTrainer(database.db);
    const intruder = client((await createTrainer(database.db)).secret);
    await resources(database.db, client(owner.secret));
    expect(expectStatus(await intruder.listCtfs(), 200)).toMatchObject({ data: [], pagination: { total: 0 } });
    expect(expectStatus(await intruder.listDeployments(), 200)).toMatchObject({ data: [], pagination: { total: 0 } });
  });
});

/** The rows behind the params, to show an intruder's request changed nothing. */
async function snapshotOf(params: Record<string, string>) {
  return {
    ctf: params.ctf_id ? (await database.db.select().from(ctfs).where(eq(ctfs.id, params.ctf_id)))[0] : undefined,
    challenge: params.challenge_id ? (await database.db.select().from(challenges).where(eq(challenges.id, params.challenge_id)))[0] : undefined,
    deployment: params.deployment_id ? (await database.db.select().from(deployments).where(eq(deployments.id, params.deployment_id)))[0] : undefined,
    members: params.ctf_id ? await database.db.select().from(members).where(eq(members.ctfId, params.ctf_id)) : [],
    files: params.challenge_id ? await database.db.select().from(challengeFiles).where(eq(challengeFiles.challengeId, params.challenge_id)) : [],
  };
}
