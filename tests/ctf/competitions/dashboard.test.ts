import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { completeGeneration, completePublish } from "@/lib/ctf/challenges/challenges";
import { completeCtfDeploy } from "@/lib/ctf/competitions/competitions";
import { completeDeploymentDeploy, stopLiveDeployment } from "@/lib/ctf/deployments/deployments";
import { invitationPreview, publicCompetition } from "@/lib/ctf/play/public";
import { members } from "@/db/schema";
import { eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallOptions } from "../../helpers/http";
import { signInAs } from "../../helpers/session";
import { memberToken } from "../../helpers/tokens";
import { deploymentPage } from "@/lib/ctf/deployments/page";

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

const ctfsRoute = await import("@/app/api/v1/ctfs/route");
const ctfRoute = await import("@/app/api/v1/ctfs/[ctf_id]/route");
const deployRoute = await import("@/app/api/v1/ctfs/[ctf_id]/deploy/route");
const stopRoute = await import("@/app/api/v1/ctfs/[ctf_id]/stop/route");
const archiveRoute = await import("@/app/api/v1/ctfs/[ctf_id]/archive/route");
const snapshotRoute = await import("@/app/api/app/ctfs/[ctf_id]/snapshot/route");
const challengesRoute = await import("@/app/api/v1/ctfs/[ctf_id]/challenges/route");
const generateRoute = await import("@/app/api/v1/ctfs/[ctf_id]/challenges/generate/route");
const challengeRoute = await import("@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/route");
const publishRoute = await import("@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/publish/route");
const unpublishRoute = await import("@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/unpublish/route");
const membersRoute = await import("@/app/api/v1/ctfs/[ctf_id]/members/route");
const deploymentsRoute = await import("@/app/api/v1/deployments/route");
const deploymentRoute = await import("@/app/api/v1/deployments/[deployment_id]/route");
const deploymentStopRoute = await import("@/app/api/v1/deployments/[deployment_id]/stop/route");
const joinRoute = await import("@/app/api/c/[ctf_id]/join/route");

let database: TestDatabase;
let trainer: Trainer;
let other: Trainer;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  other = await createTrainer(database.db);
});
afterAll(() => database.drop());

const sameOrigin = { origin: "http://localhost", host: "localhost" };

/** A same-origin dashboard call as `who`. */
function as(who: Trainer | undefined, handler: Parameters<typeof call>[0], path: string, options: CallOptions = {}) {
  signInAs(who);
  return call(handler, path, { ...options, headers: { ...sameOrigin, ...options.headers } });
}

const window = { starts_at: "2026-12-01T18:00:00Z", ends_at: "2026-12-02T18:00:00Z" };
const FLAG = "CTF{dashboard-secret}";

describe("dashboard competition routes", () => {
  let ctfId: string;
  let challengeId: string;

  it("refuses a signed-out caller and a cross-origin change", async () => {
    expect((await as(undefined, ctfsRoute.GET, "/api/v1/ctfs")).status).toBe(401);
    const crossOrigin = await as(trainer, ctfsRoute.POST, "/api/v1/ctfs", { method: "POST", body: { title: "X", ...window }, headers: { origin: "https://evil.example" } });
    expect(crossOrigin.status).toBe(403);
  });

  it("creates (422 with fields when the window is backwards), lists and reads a competition", async () => {
    const backwards = await as(trainer, ctfsRoute.POST, "/api/v1/ctfs", {
      method: "POST",
      body: { title: "Backwards", starts_at: window.ends_at, ends_at: window.starts_at },
    });
    expect(backwards.status).toBe(422);
    expect(backwards.body.error.fields).toEqual([{ field: "ends_at", message: "ends_at must be after starts_at." }]);

    const created = await as(trainer, ctfsRoute.POST, "/api/v1/ctfs", { method: "POST", body: { title: "Spring CTF", ...window, is_public: true } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Spring CTF", status: "draft", is_public: true, host: "builtin", challenges: 0, members: 0 });
    ctfId = created.body.id;

    const list = await as(trainer, ctfsRoute.GET, "/api/v1/ctfs");
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([ctfId]);
    const read = await as(trainer, ctfRoute.GET, `/api/v1/ctfs/${ctfId}`, { params: { ctf_id: ctfId } });
    expect(read.body.id).toBe(ctfId);
    expect(await publicCompetition(database.db, ctfId), "a draft is not public").toBeNull();

    const patched = await as(trainer, ctfRoute.PATCH, `/api/v1/ctfs/${ctfId}`, { method: "PATCH", params: { ctf_id: ctfId }, body: { description: "Find the flags." } });
    expect(patched.body.description).toBe("Find the flags.");
  });

  it("adds a challenge (the flag never comes back), generates one, refuses publishing before deploy", async () => {
    const created = await as(trainer, challengesRoute.POST, `/api/v1/ctfs/${ctfId}/challenges`, {
      method: "POST",
      params: { ctf_id: ctfId },
      body: { title: "Cookie Jar", category: "web", points: 150, flag: FLAG, hints: [{ text: "Cookies.", cost: 10 }] },
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain(FLAG);
    challengeId = created.body.id;

    const generated = await as(trainer, generateRoute.POST, `/api/v1/ctfs/${ctfId}/challenges/generate`, {
      method: "POST",
      params: { ctf_id: ctfId },
      body: { category: "crypto", difficulty: "hard" },
    });
    expect(generated.status).toBe(202);
    expect(generated.body.status).toBe("generating");
    await completeGeneration(database.db, generated.body.id);

    const early = await as(trainer, publishRoute.POST, "/publish", { method: "POST", params: { ctf_id: ctfId, challenge_id: challengeId } });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/Deploy the competition first/);

    const list = await as(trainer, challengesRoute.GET, `/api/v1/ctfs/${ctfId}/challenges`, { params: { ctf_id: ctfId } });
    expect(list.body.data.map((c: { status: string }) => c.status)).toEqual(["draft", "draft"]);
    const one = await as(trainer, challengeRoute.GET, "/c", { params: { ctf_id: ctfId, challenge_id: challengeId } });
    expect(one.body.title).toBe("Cookie Jar");
  });

  it("deploys (202, then deployed), answers 409 with the state for a wrong action, publishes", async () => {
    const deploying = await as(trainer, deployRoute.POST, "/deploy", { method: "POST", params: { ctf_id: ctfId } });
    expect(deploying.status).toBe(202);
    expect(deploying.body.status).toBe("deploying");
    const again = await as(trainer, deployRoute.POST, "/deploy", { method: "POST", params: { ctf_id: ctfId } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/deploying/);
    await completeCtfDeploy(database.db, ctfId);
    const deleteDeployed = await as(trainer, ctfRoute.DELETE, "/ctf", { method: "DELETE", params: { ctf_id: ctfId } });
    expect(deleteDeployed.status).toBe(409);

    const publishing = await as(trainer, publishRoute.POST, "/publish", { method: "POST", params: { ctf_id: ctfId, challenge_id: challengeId } });
    expect(publishing.status).toBe(202);
    expect(publishing.body.status).toBe("publishing");
    await completePublish(database.db, challengeId);
  });

  it("shows the public competition: deployed, published challenges only, never a flag", async () => {
    const shown = await publicCompetition(database.db, ctfId);
    expect(shown).toMatchObject({ id: ctfId, title: "Spring CTF", description: "Find the flags.", is_public: true, starts_at: "2026-12-01T18:00:00.000Z" });
    expect(shown!.challenges.map((c) => c.title)).toEqual(["Cookie Jar"]);
    expect(Object.keys(shown!.challenges[0]).sort()).toEqual(["category", "difficulty", "hints", "id", "max_attempts", "points", "requires", "tags", "title"]);
    expect(JSON.stringify(shown)).not.toContain(FLAG);
    expect(JSON.stringify(shown)).not.toMatch(/"flag/i);
    expect(await publicCompetition(database.db, "ctf_unknown")).toBeNull();
  });

  it("invites and re-invites members; a visitor enrols through the public route; the invitation is read without joining", async () => {
    const invited = await as(trainer, membersRoute.POST, "/members", { method: "POST", params: { ctf_id: ctfId }, body: { email: "Ann@Example.com" } });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: "ann@example.com", status: "invited", invitations: 1 });
    const reinvited = await as(trainer, membersRoute.POST, "/members", { method: "POST", params: { ctf_id: ctfId }, body: { email: "ann@example.com" } });
    expect(reinvited.body.invitations).toBe(2);

    const join = (body: unknown, headers: Record<string, string> = sameOrigin, id = ctfId) =>
      call(joinRoute.POST, `/api/c/${id}/join`, { method: "POST", params: { ctf_id: id }, body, headers });
    expect((await join({ email: "visitor@example.com" }, { origin: "https://evil.example", host: "localhost" })).status).toBe(403);
    const badEmail = await join({ email: "nope" });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.error.fields[0].field).toBe("email");
    expect((await join({ email: "visitor@example.com" }, sameOrigin, "ctf_unknown")).status).toBe(404);
    const enrolled = await join({ email: "visitor@example.com" });
    expect(enrolled.status).toBe(202);
    expect(enrolled.body).toEqual({ status: "invited", message: expect.stringContaining("visitor@example.com") });

    const list = await as(trainer, membersRoute.GET, "/members", { params: { ctf_id: ctfId } });
    expect(list.body.data.map((m: { email: string; self_enrolled: boolean }) => [m.email, m.self_enrolled])).toEqual([
      ["ann@example.com", false],
      ["visitor@example.com", true],
    ]);

    const [ann] = await database.db.select().from(members).where(eq(members.email, "ann@example.com"));
    const preview = await invitationPreview(database.db, memberToken(ann));
    expect(preview).toMatchObject({ email: "ann@example.com", status: "invited", ctf: { id: ctfId, title: "Spring CTF", status: "deployed", url: expect.stringMatching(new RegExp(`/c/${ctfId}$`)) } });
    expect(await invitationPreview(database.db, "short")).toBeNull();
    expect(await invitationPreview(database.db, "x".repeat(32))).toBeNull();
    const [still] = await database.db.select().from(members).where(eq(members.id, ann.id));
    expect(still.status, "reading the invitation does not join").toBe("invited");
  });

  it("deploys a challenge on its own: listed for its competition with the title, live on its page, stopped", async () => {
    const created = await as(trainer, deploymentsRoute.POST, "/api/v1/deployments", { method: "POST", body: { challenge_id: challengeId, duration_minutes: 30 } });
    expect(created.status).toBe(202);
    const deploymentId = created.body.id;
    expect(await deploymentPage(database.db, deploymentId), "not live yet").toMatchObject({ state: "deploying", title: "Cookie Jar" });
    await completeDeploymentDeploy(database.db, deploymentId);

    const forCtf = await as(trainer, deploymentsRoute.GET, "/api/v1/deployments", { query: { ctf_id: ctfId } });
    expect(forCtf.body.data.map((d: { id: string; challenge_title: string; status: string }) => [d.id, d.challenge_title, d.status])).toEqual([
      [deploymentId, "Cookie Jar", "live"],
    ]);
    const all = await as(trainer, deploymentsRoute.GET, "/api/v1/deployments");
    expect(all.body.pagination.total).toBe(1);
    expect((await as(other, deploymentsRoute.GET, "/api/v1/deployments", { query: { ctf_id: ctfId } })).status).toBe(404);
    expect((await as(trainer, deploymentRoute.GET, "/d", { params: { deployment_id: deploymentId } })).body.status).toBe("live");

    const live = await deploymentPage(database.db, deploymentId);
    expect(live).toMatchObject({ state: "live", id: deploymentId, challenge: { title: "Cookie Jar", category: "web", points: 150, hints: [{ cost: 10 }] } });
    expect(JSON.stringify(live)).not.toContain(FLAG);
    // A hint's text goes to a player who unlocks it, never onto the page.
    expect(JSON.stringify(live)).not.toContain("Cookies.");
    const after = new Date(Date.now() + 31 * 60_000);
    expect(await deploymentPage(database.db, deploymentId, after), "after its window").toMatchObject({ state: "over", title: "Cookie Jar" });

    const stopped = await as(trainer, deploymentStopRoute.POST, "/stop", { method: "POST", params: { deployment_id: deploymentId } });
    expect(stopped.body.status).toBe("stopped");
    expect(await deploymentPage(database.db, deploymentId)).toMatchObject({ state: "over", ended_at: expect.any(String) });
    expect(await deploymentPage(database.db, "dep_unknown")).toBeNull();
    expect(await stopLiveDeployment(database.db, deploymentId, "window_elapsed")).toBe(false);
  });

  it("answers 404 to another workspace", async () => {
    for (const [handler, params] of [
      [ctfRoute.GET, { ctf_id: ctfId }],
      [challengesRoute.GET, { ctf_id: ctfId }],
      [membersRoute.GET, { ctf_id: ctfId }],
      [challengeRoute.GET, { ctf_id: ctfId, challenge_id: challengeId }],
    ] as const) {
      expect((await as(other, handler, "/x", { params })).status).toBe(404);
    }
    expect((await as(other, stopRoute.POST, "/stop", { method: "POST", params: { ctf_id: ctfId } })).status).toBe(404);
  });

  it("unpublishes, stops (public page gone), archives with a snapshot, then deletes", async () => {
    const unpublishing = await as(trainer, unpublishRoute.POST, "/unpublish", { method: "POST", params: { ctf_id: ctfId, challenge_id: challengeId } });
    expect(unpublishing.status).toBe(202);

    const early = await as(trainer, snapshotRoute.GET, "/snapshot", { params: { ctf_id: ctfId } });
    expect(early.status).toBe(409);

    const stopped = await as(trainer, stopRoute.POST, "/stop", { method: "POST", params: { ctf_id: ctfId } });
    expect(stopped.body.status).toBe("stopped");
    expect(await publicCompetition(database.db, ctfId)).toBeNull();

    const archived = await as(trainer, archiveRoute.POST, "/archive", { method: "POST", params: { ctf_id: ctfId } });
    expect(archived.body.status).toBe("archived");
    const snapshot = await as(trainer, snapshotRoute.GET, "/snapshot", { params: { ctf_id: ctfId } });
    expect(snapshot.status).toBe(200);
    expect(snapshot.body.challenges).toHaveLength(2);
    expect(snapshot.body.members.map((m: { email: string }) => m.email).sort()).toEqual(["ann@example.com", "visitor@example.com"]);
    // The final scoreboard lists joined players only: nobody accepted here.
    expect(snapshot.body.scores).toEqual([]);

    const deleted = await as(trainer, ctfRoute.DELETE, "/ctf", { method: "DELETE", params: { ctf_id: ctfId } });
    expect(deleted.body).toEqual({ deleted: true, id: ctfId });
    expect((await as(trainer, ctfRoute.GET, "/ctf", { params: { ctf_id: ctfId } })).status).toBe(404);
  });
});
