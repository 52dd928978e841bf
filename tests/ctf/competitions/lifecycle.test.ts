import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { rowsOf } from "@/db";
import { challenges, ctfs, members, solves } from "@/db/schema";
import { unsealFlag } from "@/lib/ctf/challenges/flags/flags";
import { acceptInvitation } from "@/lib/ctf/competitions/members";
import { challengeCategories, difficulties, pointsFor } from "@/lib/ctf/templates/generate";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import type { CallResult } from "../../helpers/http";
import { memberTokenById } from "../../helpers/tokens";
import { challengeInput, client, ctfInput, expectStatus, settle, type Client } from "../../helpers/competition";
import { stepRegistry } from "@/lib/registry/steps";

let database: TestDatabase;
let api: Client;

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
});

// A fresh workspace and key per test: polling counts against the key's rate limit.
beforeEach(async () => {
  api = client((await createTrainer(database.db)).secret);
});

afterAll(async () => {
  await database?.drop();
  vi.unstubAllEnvs();
});

/**
 * The asynchronous transitions run while a worker runs. The file starts one only around
 * the steps that need it, so a `deploying` competition stays `deploying` while we look.
 */
async function withWorker<T>(run: () => Promise<T>): Promise<T> {
  const worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 100 });
  await worker.start();
  try {
    return await run();
  } finally {
    await worker.stop();
  }
}

async function deployedCtf(overrides: Record<string, unknown> = {}) {
  const created = expectStatus(await api.createCtf(ctfInput(overrides)), 201);
  expectStatus(await api.deploy(created.id), 202);
  const ctf = await withWorker(() => settle(() => api.getCtf(created.id), "deploying"));
  expect(ctf.status).toBe("deployed");
  return ctf;
}

/** 409, code conflict, and the message names the state that forbids the action. */
function expectConflict(result: CallResult, state: string): void {
  expect(result.status, JSON.stringify(result.body)).toBe(409);
  expect(result.body.error.code).toBe("conflict");
  expect(result.body.error.message).toMatch(new RegExp(`\\b${state}\\b`));
  expect(result.body.error.request_id).toBe(result.headers.get("x-request-id"));
}

function expect422(result: CallResult, ...fields: string[]): void {
  expect(result.status, JSON.stringify(result.body)).toBe(422);
  expect(result.body.error.code).toBe("validation_failed");
  const named = (result.body.error.fields as { field: string; message: string }[]).map((f) => f.field);
  for (const field of fields) expect(named).toContain(field);
  for (const field of result.body.error.fields) expect(field.message).toBeTruthy();
}

async function statusInDb(ctfId: string) {
  const [row] = await database.db.select({ status: ctfs.status }).from(ctfs).where(eq(ctfs.id, ctfId));
  return row?.status;
}

describe("competition state machine", () => {
  it("a new competition is a draft on the built-in host", async () => {
    const created = expectStatus(await api.createCtf(ctfInput({ is_public: true })), 201);
    expect(created).toMatchObject({
      status: "draft",
      host: "builtin",
      title: "Spring CTF",
      starts_at: "2027-03-01T09:00:00.000Z",
      ends_at: "2027-03-02T21:00:00.000Z",
      is_public: true,
      url: null,
      challenges: 0,
      members: 0,
      deployed_at: null,
      archived_at: null,
    });
    expect(created.id).toMatch(/^ctf_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(expectStatus(await api.getCtf(created.id), 200)).toEqual(created);
  });

  it("stop or archive a draft → 409 naming draft; nothing changes", async () => {
    const draft = expectStatus(await api.createCtf(ctfInput()), 201);
    expectConflict(await api.stop(draft.id), "draft");
    expectConflict(await api.archive(draft.id), "draft");
    expect(await statusInDb(draft.id)).toBe("draft");
  });

  it("deploy a deploying competition → 409 naming deploying; then the worker deploys it once", async () => {
    const draft = expectStatus(await api.createCtf(ctfInput()), 201);
    expect(expectStatus(await api.deploy(draft.id), 202).status).toBe("deploying");
    expectConflict(await api.deploy(draft.id), "deploying");
    const steps = await database.db.execute(sql`select count(*)::int as n from scheduled_steps where payload->>'ctfId' = ${draft.id}`);
    expect(rowsOf<{ n: number }>(steps)[0].n).toBe(1);
    const deployed = await withWorker(() => settle(() => api.getCtf(draft.id), "deploying"));
    expect(deployed).toMatchObject({ status: "deployed", url: expect.stringContaining(draft.id) });
    expect(deployed.deployed_at).not.toBeNull();
  });

  it("delete a deployed competition → 409 naming deployed; stop, then deploy again", async () => {
    const ctf = await deployedCtf();
    expectConflict(await api.deleteCtf(ctf.id), "deployed");
    expectConflict(await api.deploy(ctf.id), "deployed");
    expect(expectStatus(await api.getCtf(ctf.id), 200).status).toBe("deployed");

    expect(expectStatus(await api.stop(ctf.id), 200).status).toBe("stopped");
    expectConflict(await api.stop(ctf.id), "stopped");
    expectStatus(await api.deploy(ctf.id), 202);
    const again = await withWorker(() => settle(() => api.getCtf(ctf.id), "deploying"));
    expect(again.status).toBe("deployed");
  });

  it("publish a challenge while the competition is not deployed → 409 naming the competition's state", async () => {
    const draft = expectStatus(await api.createCtf(ctfInput()), 201);
    const challenge = expectStatus(await api.createChallenge(draft.id, challengeInput()), 201);
    expectConflict(await api.publish(draft.id, challenge.id), "draft");
    expect(expectStatus(await api.getChallenge(draft.id, challenge.id), 200).status).toBe("draft");
  });

  it("edit or delete a published challenge → 409 naming published; unpublish makes it editable again", async () => {
    const ctf = await deployedCtf();
    const challenge = expectStatus(await api.createChallenge(ctf.id, challengeInput()), 201);
    expectStatus(await api.publish(ctf.id, challenge.id), 202);
    const published = await withWorker(() => settle(() => api.getChallenge(ctf.id, challenge.id), "publishing"));
    expect(published.status).toBe("published");

    expectConflict(await api.updateChallenge(ctf.id, challenge.id, { points: 999 }), "published");
    expectConflict(await api.deleteChallenge(ctf.id, challenge.id), "published");
    expectConflict(await api.publish(ctf.id, challenge.id), "published");
    expect(expectStatus(await api.getChallenge(ctf.id, challenge.id), 200).points).toBe(120);

    expectStatus(await api.unpublish(ctf.id, challenge.id), 202);
    const unpublished = await withWorker(() => settle(() => api.getChallenge(ctf.id, challenge.id), "unpublishing"));
    expect(unpublished.status).toBe("unpublished");
    expect(expectStatus(await api.updateChallenge(ctf.id, challenge.id, { points: 999 }), 200).points).toBe(999);
  });

  it("archive stores the final snapshot of challenges, members and scores; the archive is then frozen", async () => {
    const ctf = await deployedCtf({ title: "Autumn CTF" });
    const first = expectStatus(await api.createChallenge(ctf.id, challengeInput({ title: "Alpha", points: 100 })), 201);
    const second = expectStatus(await api.createChallenge(ctf.id, challengeInput({ title: "Beta", category: "crypto", points: 300, flag: "CTF{beta}" })), 201);
    expectStatus(await api.publish(ctf.id, first.id), 202);
    const published = await withWorker(() => settle(() => api.getChallenge(ctf.id, first.id), "publishing"));
    const ann = expectStatus(await api.invite(ctf.id, "ann@example.test"), 201);
    const bob = expectStatus(await api.invite(ctf.id, "bob@example.test"), 201);
    await acceptInvitation(database.db, await memberTokenById(database.db, ann.id));
    // Scores come from the players' solves (tests/ctf/play/play.test.ts plays through the routes).
    await database.db.insert(solves).values({ id: "sol_01JD6S1B9R8W6H3KX1ZJ0V5N2Q", ctfId: ctf.id, challengeId: first.id, memberId: ann.id, points: 100 });

    const archived = expectStatus(await api.archive(ctf.id), 200);
    expect(archived).toMatchObject({ status: "archived", challenges: 2, members: 2 });
    expect(archived.archived_at).not.toBeNull();

    const [row] = await database.db.select({ snapshot: ctfs.snapshot, status: ctfs.status }).from(ctfs).where(eq(ctfs.id, ctf.id));
    expect(row.status).toBe("archived");
    const snapshot = row.snapshot!;
    expect(snapshot.archived_at).toBe(archived.archived_at);
    expect([...snapshot.challenges].sort((a, b) => a.title.localeCompare(b.title))).toEqual([
      { challenge_id: first.id, title: "Alpha", category: "web", points: 100, status: "published", platform_challenge_id: published.platform_challenge_id },
      { challenge_id: second.id, title: "Beta", category: "crypto", points: 300, status: "draft", platform_challenge_id: null },
    ]);
    expect([...snapshot.members].sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { member_id: ann.id, email: "ann@example.test", status: "joined", score: 100 },
      { member_id: bob.id, email: "bob@example.test", status: "invited", score: 0 },
    ]);
    // The final scoreboard: joined players only.
    expect(snapshot.scores).toEqual([{ pos: 1, member_id: ann.id, team_id: null, name: "ann", email: "ann@example.test", score: 100, solves: 1, last_solve_at: expect.any(String), first_blood: [first.id] }]);
    expect(snapshot.solves).toEqual([{ member_id: ann.id, team_id: null, challenge_id: first.id, points: 100, solved_at: expect.any(String), first_blood: true }]);
    // The snapshot holds no secret of a challenge.
    expect(JSON.stringify(snapshot)).not.toContain("CTF{");

    // Frozen: no second archive, no deploy, no new challenge or member, no edit.
    expectConflict(await api.archive(ctf.id), "archived");
    expectConflict(await api.deploy(ctf.id), "archived");
    expect((await api.createChallenge(ctf.id, challengeInput())).status).toBe(409);
    expect((await api.invite(ctf.id, "late@example.test")).status).toBe(409);
    expect((await api.updateChallenge(ctf.id, second.id, { points: 1 })).status).toBe(409);
    expectConflict(await api.updateCtf(ctf.id, { title: "Renamed" }), "archived");
  });

  it("a stopped competition can be archived too", async () => {
    const ctf = await deployedCtf();
    expectStatus(await api.stop(ctf.id), 200);
    expect(expectStatus(await api.archive(ctf.id), 200).status).toBe("archived");
  });

  it("delete removes the competition and what it holds: GET → 404", async () => {
    const ctf = await deployedCtf();
    const challenge = expectStatus(await api.createChallenge(ctf.id, challengeInput()), 201);
    expectStatus(await api.invite(ctf.id, "gone@example.test"), 201);
    expectStatus(await api.archive(ctf.id), 200);
    expect(expectStatus(await api.deleteCtf(ctf.id), 200)).toEqual({ deleted: true, id: ctf.id });

    for (const result of [
      await api.getCtf(ctf.id),
      await api.getChallenge(ctf.id, challenge.id),
      await api.listChallenges(ctf.id),
      await api.listMembers(ctf.id),
      await api.deleteCtf(ctf.id),
    ]) {
      expect(result.status).toBe(404);
      expect(result.body.error.code).toBe("not_found");
    }
    expect(await database.db.select().from(challenges).where(eq(challenges.ctfId, ctf.id))).toHaveLength(0);
    expect(await database.db.select().from(members).where(eq(members.ctfId, ctf.id))).toHaveLength(0);
    const listed = expectStatus(await api.listCtfs({ per_page: 100 }), 200);
    expect(listed.data.map((c: { id: string }) => c.id)).not.toContain(ctf.id);
  });

  it("a draft can be deleted directly", async () => {
    const draft = expectStatus(await api.createCtf(ctfInput()), 201);
    expectStatus(await api.deleteCtf(draft.id), 200);
    expect((await api.getCtf(draft.id)).status).toBe(404);
  });
});

describe("generated challenges", () => {
  it("generate → generating, then draft with a real title, the category and difficulty kept, points by difficulty and hints", async () => {
    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    const requested: { id: string; difficulty: string }[] = [];
    for (const difficulty of difficulties) {
      const pending = expectStatus(await api.generate(ctf.id, { category: "crypto", difficulty }), 202);
      expect(pending).toMatchObject({ status: "generating", category: "crypto", difficulty, managed_ctf_id: ctf.id });
      requested.push({ id: pending.id, difficulty });
    }
    // No worker yet: still generating, and a generating challenge cannot be touched.
    expect(expectStatus(await api.getChallenge(ctf.id, requested[0].id), 200).status).toBe("generating");
    expectConflict(await api.updateChallenge(ctf.id, requested[0].id, { points: 5 }), "generating");

    const generated = await withWorker(() => Promise.all(requested.map(({ id }) => settle(() => api.getChallenge(ctf.id, id), "generating"))));
    for (const [index, challenge] of generated.entries()) {
      const difficulty = requested[index].difficulty as (typeof difficulties)[number];
      expect(challenge).toMatchObject({ status: "draft", category: "crypto", difficulty, points: pointsFor[difficulty], last_error: null });
      expect(challenge.title).toBeTruthy();
      expect(challenge.title).not.toMatch(/generating/i);
      expect(challenge.description.length).toBeGreaterThan(10);
      for (const hint of challenge.hints) {
        expect(hint.text).toBeTruthy();
        expect(Number.isInteger(hint.cost)).toBe(true);
        expect(hint.cost).toBeGreaterThanOrEqual(0);
      }
      expect(Object.keys(challenge).some((key) => key !== "flag_mode" && /flag/i.test(key))).toBe(false);
    }
    // Points rise with the difficulty; an easy challenge comes with hints.
    expect(generated.map((c) => c.points)).toEqual([...generated.map((c) => c.points)].sort((a, b) => a - b));
    expect(new Set(generated.map((c) => c.points)).size).toBe(difficulties.length);
    expect(generated[0].hints.length).toBeGreaterThan(0);
  });

  it("every category can be generated", async () => {
    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    const ids: string[] = [];
    for (const category of challengeCategories) ids.push(expectStatus(await api.generate(ctf.id, { category, difficulty: "easy" }), 202).id);
    const generated = await withWorker(() => Promise.all(ids.map((id) => settle(() => api.getChallenge(ctf.id, id), "generating"))));
    expect(generated.map((c) => [c.category, c.status, c.points])).toEqual(challengeCategories.map((category) => [category, "draft", pointsFor.easy]));
  });

  it("a generated challenge has a flag that no read ever returns; it is stored hashed", async () => {
    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    const pending = expectStatus(await api.generate(ctf.id, { category: "web", difficulty: "medium" }), 202);
    const generated = await withWorker(() => settle(() => api.getChallenge(ctf.id, pending.id), "generating"));
    const [row] = await database.db.select().from(challenges).where(eq(challenges.id, pending.id));
    const flag = unsealFlag(row.flagSealed);
    expect(flag).toMatch(/^CTF\{.+\}$/);
    expect(flag).not.toBe("pending-generation");

    const reads = [
      JSON.stringify(pending),
      JSON.stringify(generated),
      JSON.stringify(expectStatus(await api.listChallenges(ctf.id, { per_page: 100 }), 200)),
      JSON.stringify(expectStatus(await api.getCtf(ctf.id), 200)),
      JSON.stringify(expectStatus(await api.listCtfs(), 200)),
      JSON.stringify(expectStatus(await api.updateChallenge(ctf.id, pending.id, { points: 260 }), 200)),
    ];
    for (const read of reads) {
      expect(read).not.toContain(flag);
      expect(read).not.toContain(flag.slice(4, -1));
      expect(read).not.toMatch(/"flag(?!_mode")/);
    }
    expect(row.flagHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.flagHash).toBe(createHash("sha256").update(flag).digest("hex"));
  });
});

describe("flags at rest", () => {
  it("the raw flag never appears in the challenges table's flag_hash or flag_sealed, nor in any read", async () => {
    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    const flag = "CTF{plaintext_must_not_be_stored_7f3a}";
    const created = expectStatus(await api.createChallenge(ctf.id, challengeInput({ flag })), 201);
    const changed = "CTF{changed_flag_also_hidden_91bd}";
    const updated = expectStatus(await api.updateChallenge(ctf.id, created.id, { flag: changed }), 200);

    const result = await database.db.execute(sql`select flag_hash, flag_sealed, row_to_json(challenges)::text as whole from challenges where id = ${created.id}`);
    const [row] = rowsOf<{ flag_hash: string; flag_sealed: string; whole: string }>(result);
    for (const raw of [flag, changed]) {
      for (const column of [row.flag_hash, row.flag_sealed, row.whole]) {
        expect(column).not.toContain(raw);
        expect(column).not.toContain(raw.slice(4, -1));
        expect(column).not.toContain(Buffer.from(raw).toString("base64"));
        expect(column).not.toContain(Buffer.from(raw).toString("hex"));
      }
    }
    expect(row.flag_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.flag_hash).toBe(createHash("sha256").update(changed).digest("hex"));
    expect(unsealFlag(row.flag_sealed)).toBe(changed);

    for (const read of [created, updated, expectStatus(await api.getChallenge(ctf.id, created.id), 200), expectStatus(await api.listChallenges(ctf.id), 200)]) {
      const text = JSON.stringify(read);
      expect(text).not.toContain(flag);
      expect(text).not.toContain(changed);
      expect(text).not.toMatch(/"flag(?!_mode")/);
    }
  });
});

describe("validation → 422 with the fields named", () => {
  it("bad dates, ends before starts, missing title", async () => {
    expect422(await api.createCtf(ctfInput({ starts_at: "tomorrow", ends_at: "2027-13-45T99:00:00Z" })), "starts_at", "ends_at");
    expect422(await api.createCtf(ctfInput({ starts_at: "2027-03-02T09:00:00Z", ends_at: "2027-03-01T09:00:00Z" })), "ends_at");
    expect422(await api.createCtf(ctfInput({ starts_at: "2027-03-01T09:00:00Z", ends_at: "2027-03-01T09:00:00Z" })), "ends_at");
    expect422(await api.createCtf({ starts_at: "2027-03-01T09:00:00Z", ends_at: "2027-03-02T09:00:00Z" }), "title");
    expect422(await api.createCtf(ctfInput({ is_public: "yes" })), "is_public");

    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    expect422(await api.updateCtf(ctf.id, { ends_at: "2027-02-01T00:00:00Z" }), "ends_at");
    expect422(await api.updateCtf(ctf.id, { starts_at: "not a date" }), "starts_at");
    const unchanged = expectStatus(await api.getCtf(ctf.id), 200);
    expect(unchanged.ends_at).toBe("2027-03-02T21:00:00.000Z");
  });

  it("unknown category or difficulty", async () => {
    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    expect422(await api.createChallenge(ctf.id, challengeInput({ category: "cooking" })), "category");
    expect422(await api.generate(ctf.id, { category: "cooking", difficulty: "easy" }), "category");
    expect422(await api.generate(ctf.id, { category: "web", difficulty: "legendary" }), "difficulty");
    expect422(await api.generate(ctf.id, {}), "category", "difficulty");
    expect422(await api.createChallenge(ctf.id, challengeInput({ flag: "" })), "flag");
    expect(expectStatus(await api.listChallenges(ctf.id), 200).pagination.total).toBe(0);
  });

  it("per_page 101 on every list", async () => {
    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    for (const result of [
      await api.listCtfs({ per_page: 101 }),
      await api.listChallenges(ctf.id, { per_page: 101 }),
      await api.listMembers(ctf.id, { per_page: 101 }),
      await api.listDeployments({ per_page: 101 }),
    ]) {
      expect422(result, "per_page");
    }
    expect(expectStatus(await api.listCtfs({ per_page: 100 }), 200).pagination.per_page).toBe(100);
  });

  it("deployments: neither or both of duration_minutes and ends_at, or an end in the past", async () => {
    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    const challenge = expectStatus(await api.createChallenge(ctf.id, challengeInput()), 201);
    expect422(await api.createDeployment({ challenge_id: challenge.id }), "duration_minutes");
    expect422(await api.createDeployment({ challenge_id: challenge.id, duration_minutes: 5, ends_at: "2030-01-01T00:00:00Z" }), "duration_minutes");
    expect422(await api.createDeployment({ challenge_id: challenge.id, ends_at: "2020-01-01T00:00:00Z" }), "ends_at");
    expect(expectStatus(await api.listDeployments(), 200).pagination.total).toBe(0);
  });
});
