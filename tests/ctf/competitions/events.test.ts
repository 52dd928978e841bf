import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rowsOf } from "@/db";
import { emailMessages } from "@/db/schema";
import { acceptInvitation, selfEnrol } from "@/lib/ctf/competitions/members";
import { inviteMemberInput } from "@/lib/ctf/competitions/schemas";
import { eventCatalog } from "@/lib/platform/pipeline/channels/webhook/events";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestResultWebhook } from "@/lib/platform/webhooks/endpoints";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, type Receiver, type RecordedRequest } from "../../helpers/receivers";
import { memberTokenById } from "../../helpers/tokens";
import {
  challengeInput,
  client,
  ctfInput,
  expectCompetitionDelivery,
  expectStatus,
  ISO_UTC,
  pollUntil,
  requestsFor,
  settle,
  waitUntil,
  type Client,
  type CompetitionBody,
} from "../../helpers/competition";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * Every competition event, caused through the REST API (or, for joining and
 * self-enrolment, the domain functions the e-mailed link and the public page call), and
 * received by real HTTP endpoints that check the wire format from the spec.
 */

const competitionEvents = [
  "ctf.deployed",
  "ctf.archived",
  "ctf.deleted",
  "challenge.published",
  "challenge.unpublished",
  "deployment.deployed",
  "deployment.stopped",
  "member.invited",
  "member.joined",
] as const;
type CompetitionEvent = (typeof competitionEvents)[number];

type Hook = { name: string; receiver: Receiver; secret: string; id: string; events: string[] };

let database: TestDatabase;
let worker: EmbeddedWorker;
let api: Client;
/** Another key of the same workspace for polling (each key has its own rate-limit bucket). */
let reader: Client;
let workspaceId: string;
const receivers = receiverPool();
const hooks = {} as Record<"subscribed" | "testResults" | "every" | "some", Hook>;

// Shared by the steps below, in order.
const title = "Spring CTF — «finale» ✓";
let ctfId: string;
let challengeId: string;
let platformChallengeId: number;
let deploymentId: string;
let memberId: string;

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "200");
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
  worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 100 });
  await worker.start();
  const trainer = await createTrainer(database.db);
  workspaceId = trainer.workspaceId;
  api = client(trainer.secret);
  reader = client((await createTrainer(database.db, { email: trainer.email })).secret);

  const lists = {
    subscribed: [...competitionEvents],
    every: [],
    some: ["member.joined", "ctf.deleted"],
  } satisfies Record<Exclude<keyof typeof hooks, "testResults">, string[]>;
  for (const [name, events] of Object.entries(lists) as [keyof typeof hooks, string[]][]) {
    const receiver = await receivers.start({ kind: "ok" }, name);
    const secret = `s3cret-${name}-${randomBytes(12).toString("hex")}`;
    const created = expectStatus(await api.createWebhook({ url: receiver.url, events, secret }), 201);
    hooks[name] = { name, receiver, secret, id: created.id, events };
  }
  // A test-result endpoint of the same workspace (the dashboard registers those): it takes test.completed only.
  const receiver = await receivers.start({ kind: "ok" }, "testResults");
  const created = await createTestResultWebhook(database.db, workspaceId, { url: receiver.url });
  hooks.testResults = { name: "testResults", receiver, secret: created.secret, id: created.id, events: created.events };
});

afterAll(async () => {
  await receivers.closeAll();
  await worker?.stop();
  await database?.drop();
  vi.unstubAllEnvs();
});

/** Waits for the one delivery of `event` to the subscribed endpoint that `match`es, checks the wire format, returns the body. */
async function delivered(event: CompetitionEvent, match: (data: Record<string, unknown>) => boolean, window: { from: number }): Promise<CompetitionBody> {
  const hook = hooks.subscribed;
  const matching = () =>
    requestsFor(hook.receiver.requests, event).filter((request) => match(JSON.parse(request.raw.toString("utf8")).data as Record<string, unknown>));
  const [request] = await waitUntil(`${event} at ${hook.name}`, async () => (matching().length ? matching() : undefined), 15_000);
  const body = expectCompetitionDelivery(request, hook.secret, event, { from: window.from, to: Date.now() });
  // Nothing is left in flight for this workspace, so a duplicate would have arrived by now.
  await noPendingDeliveries();
  expect(matching()).toHaveLength(1);
  return body;
}

async function noPendingDeliveries(): Promise<void> {
  await waitUntil(
    "every delivery settled",
    async () => {
      const result = await database.db.execute(sql`select count(*)::int as n from webhook_deliveries where workspace_id = ${workspaceId} and status = 'pending'`);
      return rowsOf<{ n: number }>(result)[0].n === 0;
    },
    15_000,
  );
}

/** The data of an event other than the two the spec shows: exactly the fields lib/platform/pipeline/channels/webhook/events.ts defines. */
function expectCatalogShape(event: CompetitionEvent, data: Record<string, unknown>): void {
  const schema = eventCatalog[event].data;
  expect(Object.keys(data).sort()).toEqual(Object.keys(schema.shape).sort());
  expect(schema.strict().safeParse(data).success).toBe(true);
}

describe("each competition event is delivered once, in the competition format", () => {
  it("ctf.deployed: POST /ctfs/{id}/deploy → deploying → deployed; data is exactly {managed_ctf_id, title, url, is_public}", async () => {
    const created = expectStatus(await api.createCtf(ctfInput({ title, is_public: true })), 201);
    ctfId = created.id;
    const from = Date.now();
    expect(expectStatus(await api.deploy(ctfId), 202).status).toBe("deploying");
    const ctf = await settle(() => reader.getCtf(ctfId), "deploying");
    expect(ctf.status).toBe("deployed");

    const body = await delivered("ctf.deployed", (data) => data.managed_ctf_id === ctfId, { from });
    expect(Object.keys(body.data)).toEqual(["is_public", "managed_ctf_id", "title", "url"]);
    expect(body.data).toEqual({ managed_ctf_id: ctfId, title, url: ctf.url, is_public: true });
    expect(typeof body.data.url === "string" && new URL(body.data.url).protocol).toMatch(/^https?:$/);
  });

  it("challenge.published: data is exactly {managed_ctf_id, challenge_id, title, category, platform_challenge_id (integer)}", async () => {
    const created = expectStatus(await api.createChallenge(ctfId, challengeInput({ title: "Cookie Jar", category: "web" })), 201);
    challengeId = created.id;
    const from = Date.now();
    expect(expectStatus(await api.publish(ctfId, challengeId), 202).status).toBe("publishing");
    const challenge = await settle(() => reader.getChallenge(ctfId, challengeId), "publishing");
    expect(challenge.status).toBe("published");
    expect(Number.isInteger(challenge.platform_challenge_id)).toBe(true);
    platformChallengeId = challenge.platform_challenge_id;

    const body = await delivered("challenge.published", (data) => data.challenge_id === challengeId, { from });
    expect(Object.keys(body.data)).toEqual(["category", "challenge_id", "managed_ctf_id", "platform_challenge_id", "title"]);
    expect(body.data).toEqual({ managed_ctf_id: ctfId, challenge_id: challengeId, title: "Cookie Jar", category: "web", platform_challenge_id: platformChallengeId });
    expect(Number.isInteger(body.data.platform_challenge_id)).toBe(true);
  });

  it("deployment.deployed: POST /deployments with a short window → live", async () => {
    const from = Date.now();
    const endsAt = new Date(Date.now() + 3_000).toISOString();
    const created = expectStatus(await api.createDeployment({ challenge_id: challengeId, ends_at: endsAt }), 202);
    deploymentId = created.id;
    expect(created.status).toBe("deploying");
    const live = await settle(() => reader.getDeployment(deploymentId), "deploying");
    expect(live.status).toBe("live");

    const body = await delivered("deployment.deployed", (data) => data.deployment_id === deploymentId, { from });
    expectCatalogShape("deployment.deployed", body.data);
    expect(body.data).toEqual({ deployment_id: deploymentId, challenge_id: challengeId, url: live.url, starts_at: live.starts_at, ends_at: live.ends_at });
    expect(body.data.ends_at).toBe(endsAt);
  });

  it("member.invited: POST /ctfs/{id}/members, then a re-invitation sends a second one with reinvited true", async () => {
    let from = Date.now();
    const invited = expectStatus(await api.invite(ctfId, "Ada@Example.test"), 201);
    memberId = invited.id;
    expect(invited).toMatchObject({ email: "ada@example.test", status: "invited", invitations: 1 });
    const first = await delivered("member.invited", (data) => data.member_id === memberId && data.reinvited === false, { from });
    expectCatalogShape("member.invited", first.data);
    expect(first.data).toEqual({
      managed_ctf_id: ctfId,
      member_id: memberId,
      email: "ada@example.test",
      invited_at: expect.stringMatching(ISO_UTC),
      reinvited: false,
      self_enrolled: false,
    });
    // The event's invited_at is the member's invited_at, as GET …/members shows it.
    expect.soft(first.data.invited_at, "member.invited invited_at vs the member's invited_at").toBe(invited.invited_at);

    from = Date.now();
    const again = expectStatus(await api.invite(ctfId, "ada@example.test"), 201);
    expect(again).toMatchObject({ id: memberId, invitations: 2 });
    const second = await delivered("member.invited", (data) => data.member_id === memberId && data.reinvited === true, { from });
    expect(second.data).toEqual({ ...first.data, invited_at: again.invited_at, reinvited: true });
    expect(requestsFor(hooks.subscribed.receiver.requests, "member.invited")).toHaveLength(2);
  });

  it("member.joined: the invitee follows the e-mailed link (acceptInvitation with the member's token)", async () => {
    const token = await memberTokenById(database.db, memberId);
    const from = Date.now();
    const { member } = await acceptInvitation(database.db, token);
    expect(member.status).toBe("joined");
    const body = await delivered("member.joined", (data) => data.member_id === memberId, { from });
    expectCatalogShape("member.joined", body.data);
    expect(body.data).toEqual({ managed_ctf_id: ctfId, member_id: memberId, email: "ada@example.test", joined_at: member.joined_at });
    expect(body.data.joined_at).toMatch(ISO_UTC);

    // Following the link again changes nothing and sends nothing.
    await acceptInvitation(database.db, token);
    await noPendingDeliveries();
    expect(requestsFor(hooks.subscribed.receiver.requests, "member.joined")).toHaveLength(1);
  });

  it("member.invited: self-enrolment on a public deployed competition carries self_enrolled true", async () => {
    const from = Date.now();
    const enrolled = (await selfEnrol(database.db, ctfId, inviteMemberInput.parse({ email: "Visitor@Example.test" })))!;
    expect(enrolled.self_enrolled).toBe(true);
    const body = await delivered("member.invited", (data) => data.member_id === enrolled.id, { from });
    expect(body.data).toEqual({
      managed_ctf_id: ctfId,
      member_id: enrolled.id,
      email: "visitor@example.test",
      invited_at: expect.stringMatching(ISO_UTC),
      reinvited: false,
      self_enrolled: true,
    });
    expect.soft(body.data.invited_at, "member.invited invited_at vs the member's invited_at").toBe(enrolled.invited_at);
    // The e-mail asks the visitor to confirm the place they asked for; it does not claim an invitation.
    const mails = await database.db.select().from(emailMessages).where(eq(emailMessages.to, "visitor@example.test"));
    expect(mails.map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Confirm your place in /)]);
    expect(mails[0].html).toContain("Confirm my place");
    expect(mails[0].text).not.toMatch(/invited/i);
    const invitedMails = await database.db.select().from(emailMessages).where(eq(emailMessages.to, "ada@example.test"));
    expect(invitedMails.length).toBeGreaterThan(0);
    for (const mail of invitedMails) expect(mail.subject).toMatch(/^You are invited to /);
    const members = expectStatus(await api.listMembers(ctfId), 200);
    expect(members.pagination.total).toBe(2);
  });

  it("challenge.unpublished: POST …/unpublish → unpublishing → unpublished", async () => {
    const from = Date.now();
    expect(expectStatus(await api.unpublish(ctfId, challengeId), 202).status).toBe("unpublishing");
    const challenge = await settle(() => reader.getChallenge(ctfId, challengeId), "unpublishing");
    expect(challenge.status).toBe("unpublished");
    const body = await delivered("challenge.unpublished", (data) => data.challenge_id === challengeId, { from });
    expectCatalogShape("challenge.unpublished", body.data);
    expect(body.data).toEqual({ managed_ctf_id: ctfId, challenge_id: challengeId, title: "Cookie Jar", category: "web", platform_challenge_id: platformChallengeId });
  });

  it("deployment.stopped: the deployment's window elapses and it stops by itself (reason window_elapsed)", async () => {
    const before = expectStatus(await api.getDeployment(deploymentId), 200);
    const stopped = await pollUntil("the window to elapse", () => reader.getDeployment(deploymentId), (d) => d.status !== "live", 15_000);
    expect(stopped).toMatchObject({ status: "stopped", stop_reason: "window_elapsed" });
    expect(Date.parse(stopped.stopped_at)).toBeGreaterThanOrEqual(Date.parse(before.ends_at));

    const body = await delivered("deployment.stopped", (data) => data.deployment_id === deploymentId, { from: Date.parse(before.ends_at) });
    expectCatalogShape("deployment.stopped", body.data);
    expect(body.data).toEqual({ deployment_id: deploymentId, challenge_id: challengeId, stopped_at: stopped.stopped_at, reason: "window_elapsed" });
  });

  it("ctf.archived: POST /ctfs/{id}/archive stores the snapshot and sends the counts", async () => {
    const from = Date.now();
    const archived = expectStatus(await api.archive(ctfId), 200);
    expect(archived.status).toBe("archived");
    const body = await delivered("ctf.archived", (data) => data.managed_ctf_id === ctfId, { from });
    expectCatalogShape("ctf.archived", body.data);
    expect(body.data).toEqual({ managed_ctf_id: ctfId, title, archived_at: archived.archived_at, challenges: 1, members: 2 });
  });

  it("ctf.deleted: DELETE /ctfs/{id} of a draft competition", async () => {
    const draft = expectStatus(await api.createCtf(ctfInput({ title: "Throwaway" })), 201);
    const from = Date.now();
    expect(expectStatus(await api.deleteCtf(draft.id), 200)).toEqual({ deleted: true, id: draft.id });
    const to = Date.now();
    expect((await api.getCtf(draft.id)).status).toBe(404);
    const body = await delivered("ctf.deleted", (data) => data.managed_ctf_id === draft.id, { from });
    expectCatalogShape("ctf.deleted", body.data);
    expect(body.data).toMatchObject({ managed_ctf_id: draft.id, title: "Throwaway" });
    expect(body.data.deleted_at).toMatch(ISO_UTC);
    expect(Date.parse(body.data.deleted_at as string)).toBeGreaterThanOrEqual(from - 5);
    expect(Date.parse(body.data.deleted_at as string)).toBeLessThanOrEqual(to + 5);
  });
});

describe("subscriptions", () => {
  const expected: Record<CompetitionEvent, number> = {
    "ctf.deployed": 1,
    "ctf.archived": 1,
    "ctf.deleted": 1,
    "challenge.published": 1,
    "challenge.unpublished": 1,
    "deployment.deployed": 1,
    "deployment.stopped": 1,
    "member.invited": 3,
    "member.joined": 1,
  };

  const countsOf = (requests: RecordedRequest[]) => {
    const counts: Record<string, number> = {};
    for (const request of requests) {
      const event = String(request.headers["x-service-event"] ?? request.headers["x-webhook-event"]);
      counts[event] = (counts[event] ?? 0) + 1;
    }
    return counts;
  };
  /** What happened, without the build time: identical for two endpoints that got the same events. */
  const contentOf = (requests: RecordedRequest[]) =>
    requests
      .map((request) => {
        const { data, event } = JSON.parse(request.raw.toString("utf8"));
        return JSON.stringify({ event, data });
      })
      .sort();

  it("the endpoint subscribed to the nine events got each lifecycle change exactly once", async () => {
    await noPendingDeliveries();
    expect(countsOf(hooks.subscribed.receiver.requests)).toEqual(expected);
  });

  it("an endpoint with an empty list got every event, in its own signature", async () => {
    const every = hooks.every;
    expect(countsOf(every.receiver.requests)).toEqual(expected);
    expect(contentOf(every.receiver.requests)).toEqual(contentOf(hooks.subscribed.receiver.requests));
    for (const request of every.receiver.requests) expectCompetitionDelivery(request, every.secret, String(request.headers["x-service-event"]));
  });

  it("a test-result endpoint got none of these; a partial list got only its events", async () => {
    expect(hooks.testResults.receiver.requests).toHaveLength(0);
    expect(countsOf(hooks.some.receiver.requests)).toEqual({ "member.joined": 1, "ctf.deleted": 1 });
    for (const request of hooks.some.receiver.requests) expectCompetitionDelivery(request, hooks.some.secret, String(request.headers["x-service-event"]));
  });
});
