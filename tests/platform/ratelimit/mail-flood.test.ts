import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ctfs, emailMessages, events, members } from "@/db/schema";
import { sendSignInLink } from "@/lib/platform/auth/sign-in-link";
import { resetConfig } from "@/lib/kernel/config/config";
import { newId } from "@/lib/kernel/ids";
import { PUBLIC_MAIL_LIMIT } from "@/lib/platform/ratelimit/mail";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";

// Public forms that e-mail whoever is named: self-enrolment on a public competition and the
// magic-link sign-in. At most 3 mails per address per hour and 60 per client address, and
// past a limit the answer is exactly the success answer while nothing is mailed or published.

// Behind one proxy (10.0.0.1): scripts/serve.mjs appends the socket's address, the proxy's,
// to what the proxy forwarded, so the client is the entry before it.
vi.stubEnv("TRUST_PROXY", "1");
const PROXY = "10.0.0.1";

const joinRoute = await import("@/app/api/c/[ctf_id]/join/route");

let database: TestDatabase;
let trainer: Trainer;
let ctfId: string;
let ipCounter = 0;
/** A client address of its own (TEST-NET-3), so tests do not share the per-client bucket. */
const newClient = () => `203.0.113.${++ipCounter}`;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  ctfId = newId("ctf");
  const now = Date.now();
  await database.db.insert(ctfs).values({
    id: ctfId,
    workspaceId: trainer.workspaceId,
    title: "Open CTF",
    startsAt: new Date(now + 86_400_000),
    endsAt: new Date(now + 2 * 86_400_000),
    isPublic: true,
    status: "deployed",
    host: "ctfd",
  });
});
afterAll(() => database.drop());

async function mailsTo(address: string): Promise<number> {
  const [{ count }] = await database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(emailMessages)
    .where(eq(sql`lower(${emailMessages.to})`, address.toLowerCase()));
  return Number(count);
}

async function invitedEvents(address: string): Promise<number> {
  const [{ count }] = await database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(events)
    .where(and(eq(events.type, "member.invited"), sql`${events.data}->>'email' = ${address.toLowerCase()}`));
  return Number(count);
}

function enrol(email: string, client: string, forwardedFor = `${client}, ${PROXY}`) {
  return call(joinRoute.POST, `/api/c/${ctfId}/join`, {
    method: "POST",
    params: { ctf_id: ctfId },
    body: { email },
    headers: { origin: "http://localhost", host: "localhost", "x-forwarded-for": forwardedFor },
  });
}

describe("POST /api/c/{ctfId}/join (self-enrolment)", () => {
  it("20 enrolments of one address: 3 mails and 3 member.invited events, 20 identical answers", async () => {
    const address = "flood@example.test";
    const client = newClient();
    // Several spellings of one address are one address.
    const spellings = [address, "Flood@Example.test", "FLOOD@EXAMPLE.TEST"];
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => enrol(spellings[i % 3], client)));
    expect(await mailsTo(address)).toBe(PUBLIC_MAIL_LIMIT.perAddress);
    expect(await invitedEvents(address)).toBe(PUBLIC_MAIL_LIMIT.perAddress);
    // The same answer for each spelling, sent or not: nothing tells the limited ones apart.
    for (const spelling of spellings) {
      const forSpelling = answers.filter((_, i) => spellings[i % 3] === spelling);
      expect(new Set(forSpelling.map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`)).size).toBe(1);
      expect(forSpelling[0].status).toBe(202);
      expect(forSpelling[0].body.status).toBe("invited");
    }
    expect(new Set(answers.map((answer) => answer.headers.get("cache-control")))).toEqual(new Set(["no-store"]));
  });

  it("the per-address limit holds whatever client address the requests come from", async () => {
    const address = "many-clients@example.test";
    for (let i = 0; i < 6; i++) expect((await enrol(address, newClient())).status).toBe(202);
    expect(await mailsTo(address)).toBe(3);
  });

  it(`one client address: at most ${PUBLIC_MAIL_LIMIT.perClient} mails an hour over many addresses; another client is not affected`, async () => {
    const client = newClient();
    const answers = [];
    for (let i = 0; i <= PUBLIC_MAIL_LIMIT.perClient; i++) answers.push(await enrol(`spray${i}@example.test`, client));
    expect(answers.every((answer) => answer.status === 202 && answer.body.status === "invited")).toBe(true);
    const sent = await Promise.all(answers.map((_, i) => mailsTo(`spray${i}@example.test`)));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(PUBLIC_MAIL_LIMIT.perClient);
    expect(sent.at(-1)).toBe(0);
    // The refused one answered like the others, addressed to its own address.
    expect(answers.at(-1)!.body).toEqual({ ...answers[0].body, message: answers[0].body.message.replace("spray0@", `spray${PUBLIC_MAIL_LIMIT.perClient}@`) });

    expect((await enrol("spray-other-client@example.test", newClient())).status).toBe(202);
    expect(await mailsTo("spray-other-client@example.test")).toBe(1);
  });

  it("PUBLIC_MAIL_PER_CLIENT sets the per-client limit (a site where many people share one address)", async () => {
    vi.stubEnv("PUBLIC_MAIL_PER_CLIENT", "5");
    resetConfig();
    try {
      const client = newClient();
      for (let i = 0; i < 6; i++) expect((await enrol(`five${i}@example.test`, client)).status).toBe(202);
      const sent = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => mailsTo(`five${i}@example.test`)));
      expect(sent).toEqual([1, 1, 1, 1, 1, 0]);
    } finally {
      vi.stubEnv("PUBLIC_MAIL_PER_CLIENT", "");
      resetConfig();
    }
  });

  it("trusts only the entry the proxy appended behind one proxy (TRUST_PROXY=1): a client cannot pick its bucket", async () => {
    const client = newClient();
    // The client writes a fresh address into the header each time; the proxy appends the real one.
    for (let i = 0; i < PUBLIC_MAIL_LIMIT.perClient; i++) {
      expect((await enrol(`spoof${i}@example.test`, client, `198.51.100.${i % 250}, ${client}, ${PROXY}`)).status).toBe(202);
    }
    await enrol("spoof-last@example.test", client, `198.51.100.77, ${client}, ${PROXY}`);
    expect(await mailsTo("spoof-last@example.test")).toBe(0);
  });

  it("a member who has already joined is answered as a stranger is, and gets their own link within the same limits", async () => {
    const address = "joined@example.test";
    const client = newClient();
    const first = await enrol(address, client);
    expect(first.status).toBe(202);
    await database.db.execute(sql`update members set status = 'joined', joined_at = now() where email = ${address}`);
    const member = () => database.db.select({ invitations: members.invitations, status: members.status }).from(members).where(eq(members.email, address));
    const [before] = await member();

    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await enrol(address, client));
    const stranger = await enrol("stranger@example.test", client);
    for (const answer of answers) {
      expect(answer.status).toBe(stranger.status);
      expect(answer.body).toEqual({ ...stranger.body, message: stranger.body.message.replace("stranger@", "joined@") });
      expect(answer.headers.get("cache-control")).toBe("no-store");
    }
    // Their own link, as "Send me my link again" sends it, charged like any mail: 3 in all with the invitation.
    const kinds = await database.db.select({ kind: emailMessages.kind }).from(emailMessages).where(eq(emailMessages.to, address));
    expect(kinds.map((row) => row.kind).sort()).toEqual(["member_invitation", "player_link", "player_link"]);
    // Nothing else happened: no new invitation, no member.invited.
    expect(await invitedEvents(address)).toBe(1);
    expect(await member()).toEqual([{ invitations: before.invitations, status: "joined" }]);
  });
});

describe("sign-in links (Auth.js sendVerificationRequest → sendSignInLink)", () => {
  // Auth.js awaits sendVerificationRequest and then redirects to "check your e-mail" whatever
  // it returned; sent or not, the visitor's answer is the same. (next-auth itself cannot be
  // loaded under vitest: its ESM imports `next/server` without an extension; the e2e suite
  // covers the real form.)
  const link = (address: string) => `http://localhost/api/auth/callback/resend?callbackUrl=%2Ftests&token=${newId("tok")}&email=${encodeURIComponent(address)}`;

  async function signInLinks(address: string): Promise<string[]> {
    const rows = await database.db
      .select({ links: emailMessages.links })
      .from(emailMessages)
      .where(and(eq(emailMessages.to, address), eq(emailMessages.kind, "sign_in")));
    return rows.flatMap((row) => row.links);
  }

  it("20 requests for one address send 3 links", async () => {
    const address = "signin-flood@example.test";
    const client = newClient();
    const sent = await Promise.all(Array.from({ length: 20 }, () => sendSignInLink(database.db, { to: address, url: link(address), client })));
    expect(sent.filter(Boolean)).toHaveLength(3);
    expect(await signInLinks(address)).toHaveLength(3);
  });

  it("a real user asking again within the limit gets each link", async () => {
    const address = "forgetful@example.test";
    const client = newClient();
    const first = link(address);
    const second = link(address);
    expect(await sendSignInLink(database.db, { to: address, url: first, client })).toBe(true);
    expect(await sendSignInLink(database.db, { to: address, url: second, client })).toBe(true);
    expect(await signInLinks(address)).toEqual(expect.arrayContaining([first, second]));
  });

  it("sign-in and self-enrolment share the per-address limit", async () => {
    const address = "both-forms@example.test";
    const client = newClient();
    await enrol(address, client);
    await enrol(address, client);
    expect(await sendSignInLink(database.db, { to: address, url: link(address), client })).toBe(true);
    expect(await sendSignInLink(database.db, { to: address, url: link(address), client })).toBe(false);
    expect(await mailsTo(address)).toBe(3);
  });

  it("sign-in links count against the client address too", async () => {
    const client = newClient();
    for (let i = 0; i < PUBLIC_MAIL_LIMIT.perClient; i++) {
      expect(await sendSignInLink(database.db, { to: `user${i}@example.test`, url: link(`user${i}@example.test`), client })).toBe(true);
    }
    expect(await sendSignInLink(database.db, { to: "one-more@example.test", url: link("one-more@example.test"), client })).toBe(false);
    expect(await signInLinks("one-more@example.test")).toHaveLength(0);
  });
});
