import { beforeEach, describe, expect, it } from "vitest";
import { solves } from "@/db/schema";
import { challengeValue } from "@/lib/ctf/challenges/scoring";
import { newId } from "@/lib/kernel/ids";
import { publicCompetition } from "@/lib/ctf/play/public";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { playerOf, publishedChallenge, runningCtf } from "../../helpers/samples/play";
import { challengeInput, client, ctfInput, expectStatus, type Client } from "../../helpers/competition";

/**
 * A challenge's settings through the API: scoring (static, or CTFd's dynamic value), the
 * prerequisites it `requires`, its attempt cap and tags. They round-trip through create, read,
 * list and update; a dynamic challenge's `points` is its current value; bad prerequisites
 * (unknown, another competition's, itself, a circle) are a 422 on `requires` naming the id;
 * deleting a challenge takes it out of the others' prerequisites.
 */

const world = builtinHostWorld();

let api: Client;

beforeEach(() => {
  api = client(world.trainer.secret);
});

const dynamic = { type: "dynamic", initial: 500, minimum: 100, decay: 10 } as const;

async function newCtf() {
  return expectStatus(await api.createCtf(ctfInput()), 201).id as string;
}

async function newChallenge(ctfId: string, overrides: Record<string, unknown> = {}) {
  return expectStatus(await api.createChallenge(ctfId, challengeInput(overrides)), 201);
}

/** The 422's field errors, as `{field: message}`. */
function fieldErrors(result: { status: number; body: any }): Record<string, string> {
  expect(result.status, JSON.stringify(result.body)).toBe(422);
  return Object.fromEntries((result.body.error.fields as { field: string; message: string }[]).map((f) => [f.field, f.message]));
}

describe("settings round-trip", () => {
  it("defaults: static scoring, no prerequisites, unlimited attempts, no tags", async () => {
    const ctfId = await newCtf();
    const created = await newChallenge(ctfId);
    expect(created).toMatchObject({ points: 120, scoring: { type: "static" }, requires: [], max_attempts: null, tags: [] });
  });

  it("dynamic scoring, prerequisites, an attempt cap and tags are stored and answered by create, read, list and update", async () => {
    const ctfId = await newCtf();
    const first = await newChallenge(ctfId, { title: "Intro" });
    const created = await newChallenge(ctfId, { title: "Follow-up", scoring: dynamic, points: 42, requires: [first.id, first.id], max_attempts: 5, tags: ["sqli", "beginner", "sqli"] });
    // `points` of a dynamic challenge is its initial value while nobody has solved it; a repeated id or tag is kept once.
    expect(created).toMatchObject({ points: 500, scoring: dynamic, requires: [first.id], max_attempts: 5, tags: ["sqli", "beginner"] });
    expect(expectStatus(await api.getChallenge(ctfId, created.id), 200)).toEqual(created);
    const listed = expectStatus(await api.listChallenges(ctfId), 200).data.find((row: { id: string }) => row.id === created.id);
    expect(listed).toEqual(created);

    const updated = expectStatus(await api.updateChallenge(ctfId, created.id, { max_attempts: null, tags: [], scoring: { type: "static" }, points: 250 }), 200);
    expect(updated).toMatchObject({ points: 250, scoring: { type: "static" }, requires: [first.id], max_attempts: null, tags: [] });
    const emptied = expectStatus(await api.updateChallenge(ctfId, created.id, { requires: [] }), 200);
    expect(emptied.requires).toEqual([]);
    // A field left out keeps its value.
    const titled = expectStatus(await api.updateChallenge(ctfId, created.id, { title: "Renamed" }), 200);
    expect(titled).toMatchObject({ title: "Renamed", points: 250, scoring: { type: "static" }, max_attempts: null });
  });

  it("a PATCH of one field keeps the others, those with a creation default too (description, points, hints)", async () => {
    const ctfId = await newCtf();
    const created = await newChallenge(ctfId, { description: "Kept.", points: 300, hints: [{ text: "Kept too.", cost: 5 }], tags: ["t"], max_attempts: 2 });
    const updated = expectStatus(await api.updateChallenge(ctfId, created.id, { title: "Only the title" }), 200);
    expect(updated).toMatchObject({ title: "Only the title", description: "Kept.", points: 300, hints: [{ text: "Kept too.", cost: 5 }], tags: ["t"], max_attempts: 2, scoring: { type: "static" } });
  });

  it("a dynamic challenge's points follow its solves (CTFd's formula), in the read, the list and the public page", async () => {
    const ctfId = await runningCtf(world.database.db, world.trainer);
    const challengeId = await publishedChallenge(world.database.db, world.trainer, ctfId, { scoring: dynamic });
    const values: number[] = [];
    for (let solved = 0; solved <= 3; solved++) {
      if (solved > 0) {
        const player = await playerOf(world.database.db, world.trainer, ctfId);
        await world.database.db.insert(solves).values({ id: newId("slv"), ctfId, challengeId, memberId: player.memberId, points: 0 });
      }
      const read = expectStatus(await api.getChallenge(ctfId, challengeId), 200);
      const listed = expectStatus(await api.listChallenges(ctfId), 200).data[0];
      const publicPoints = (await publicCompetition(world.database.db, ctfId))!.challenges.find((c) => c.id === challengeId)!.points;
      expect([listed.points, publicPoints]).toEqual([read.points, read.points]);
      expect(read.points).toBe(challengeValue(dynamic, 500, solved));
      values.push(read.points);
    }
    // ceil(((100 − 500) / 10²) · s² + 500) with s = solves − 1: 500, 500, 496, 484.
    expect(values).toEqual([500, 500, 496, 484]);
  });

  it("the public page lists each challenge's tags, prerequisites and attempt cap", async () => {
    const ctfId = await runningCtf(world.database.db, world.trainer);
    const opener = await publishedChallenge(world.database.db, world.trainer, ctfId, { title: "Opener" });
    const locked = await publishedChallenge(world.database.db, world.trainer, ctfId, { title: "Locked", requires: [opener], max_attempts: 3, tags: ["crypto-lite"] });
    const page = await publicCompetition(world.database.db, ctfId);
    expect(page!.challenges.find((c) => c.id === locked)).toMatchObject({ tags: ["crypto-lite"], requires: [opener], max_attempts: 3, points: 100 });
    expect(page!.challenges.find((c) => c.id === opener)).toMatchObject({ tags: [], requires: [], max_attempts: null });
  });
});

describe("validation", () => {
  it("a dynamic minimum above its initial, a zero decay, an attempt cap of 0 or a blank tag → 422 at the field", async () => {
    const ctfId = await newCtf();
    expect(fieldErrors(await api.createChallenge(ctfId, challengeInput({ scoring: { ...dynamic, minimum: 600 } })))).toHaveProperty(["scoring.minimum"]);
    expect(fieldErrors(await api.createChallenge(ctfId, challengeInput({ scoring: { ...dynamic, decay: 0 } })))).toHaveProperty(["scoring.decay"]);
    expect(fieldErrors(await api.createChallenge(ctfId, challengeInput({ scoring: { type: "dynamic" } })))).toHaveProperty(["scoring.initial"]);
    expect(fieldErrors(await api.createChallenge(ctfId, challengeInput({ scoring: { type: "linear" } })))).toHaveProperty(["scoring.type"]);
    expect(fieldErrors(await api.createChallenge(ctfId, challengeInput({ max_attempts: 0 })))).toHaveProperty(["max_attempts"]);
    expect(fieldErrors(await api.createChallenge(ctfId, challengeInput({ tags: ["ok", " "] })))).toHaveProperty(["tags.1"]);
    const existing = await newChallenge(ctfId);
    expect(fieldErrors(await api.updateChallenge(ctfId, existing.id, { scoring: { ...dynamic, minimum: 501 } }))).toHaveProperty(["scoring.minimum"]);
    expect(expectStatus(await api.listChallenges(ctfId), 200).pagination.total).toBe(1);
  });

  it("the 10-tag and 20-prerequisite limits count a repeated entry once; past them, 422 on tags / requires", async () => {
    const ctfId = await newCtf();
    const first = await newChallenge(ctfId, { title: "First" });
    const repeated = await newChallenge(ctfId, { tags: [...Array(10).fill("a"), "b"], requires: Array(21).fill(first.id) });
    expect(repeated).toMatchObject({ tags: ["a", "b"], requires: [first.id] });
    const patched = expectStatus(await api.updateChallenge(ctfId, repeated.id, { tags: ["c", ...Array(12).fill("d")], requires: Array(25).fill(first.id) }), 200);
    expect(patched).toMatchObject({ tags: ["c", "d"], requires: [first.id] });

    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
    expect(fieldErrors(await api.createChallenge(ctfId, challengeInput({ tags: eleven })))).toHaveProperty(["tags"]);
    expect(fieldErrors(await api.updateChallenge(ctfId, repeated.id, { tags: [...eleven, "t0"] }))).toHaveProperty(["tags"]);
    const ids = Array.from({ length: 21 }, (_, i) => `chl_${String(i).padStart(26, "0")}`);
    expect(fieldErrors(await api.updateChallenge(ctfId, repeated.id, { requires: ids }))).toHaveProperty(["requires"]);
  });

  it("a tag is one line of visible text: direction overrides, invisible or formatting characters → 422 on that tag", async () => {
    const ctfId = await newCtf();
    for (const tag of ["UNIQUETAG\u202Eevil", "a\u2066b", "\u200B", "\u00AD", "\u3164", "a\u2028b", "x\u061Cy", "\u0301"]) {
      expect(fieldErrors(await api.createChallenge(ctfId, challengeInput({ tags: ["ok", tag] }))), JSON.stringify(tag)).toHaveProperty(["tags.1"]);
    }
    expect(await newChallenge(ctfId, { tags: ["crypto-lite", "Ünïcode", "東京", "⚡"] })).toMatchObject({ tags: ["crypto-lite", "Ünïcode", "東京", "⚡"] });
  });

  it("requires: an unknown id, another competition's challenge, the challenge itself → 422 on requires naming the id; nothing changes", async () => {
    const ctfId = await newCtf();
    const other = await newChallenge(await newCtf(), { title: "Elsewhere" });
    const missing = "chl_01JD6S1B9R8W6H3KX1ZJ0V5N2Q";
    const unknown = fieldErrors(await api.createChallenge(ctfId, challengeInput({ requires: [missing] })));
    expect(unknown.requires).toContain(missing);
    const foreign = fieldErrors(await api.createChallenge(ctfId, challengeInput({ requires: [other.id] })));
    expect(foreign.requires).toContain(other.id);
    expect(fieldErrors(await api.createChallenge(ctfId, challengeInput({ requires: ["not-an-id"] }))).requires).toContain("not-an-id");
    expect(expectStatus(await api.listChallenges(ctfId), 200).pagination.total).toBe(0);

    const own = await newChallenge(ctfId);
    const self = fieldErrors(await api.updateChallenge(ctfId, own.id, { requires: [own.id] }));
    expect(self.requires).toContain(own.id);
    expect(expectStatus(await api.getChallenge(ctfId, own.id), 200).requires).toEqual([]);
  });

  it("a circle of prerequisites, direct or through others → 422 naming the id that closes it", async () => {
    const ctfId = await newCtf();
    const a = await newChallenge(ctfId, { title: "A" });
    const b = await newChallenge(ctfId, { title: "B", requires: [a.id] });
    const c = await newChallenge(ctfId, { title: "C", requires: [b.id] });
    const direct = fieldErrors(await api.updateChallenge(ctfId, a.id, { requires: [b.id] }));
    expect(direct.requires).toContain(b.id);
    const through = fieldErrors(await api.updateChallenge(ctfId, a.id, { requires: [c.id] }));
    expect(through.requires).toContain(c.id);
    expect(through.requires).toContain(`${c.id} requires ${b.id} requires ${a.id}`);
    expect(expectStatus(await api.getChallenge(ctfId, a.id), 200).requires).toEqual([]);
    // Not a circle: two challenges requiring the same one.
    expect(expectStatus(await api.updateChallenge(ctfId, c.id, { requires: [a.id, b.id] }), 200).requires).toEqual([a.id, b.id]);
  });

  it("two edits at once that would close a circle between them: one is refused", async () => {
    const ctfId = await newCtf();
    const a = await newChallenge(ctfId, { title: "A" });
    const b = await newChallenge(ctfId, { title: "B" });
    const results = await Promise.all([api.updateChallenge(ctfId, a.id, { requires: [b.id] }), api.updateChallenge(ctfId, b.id, { requires: [a.id] })]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 422]);
    const [readA, readB] = [expectStatus(await api.getChallenge(ctfId, a.id), 200), expectStatus(await api.getChallenge(ctfId, b.id), 200)];
    expect(readA.requires.length + readB.requires.length).toBe(1);
  });
});

describe("deleting a prerequisite", () => {
  it("removes its id from the challenges that required it, and only that id", async () => {
    const ctfId = await newCtf();
    const a = await newChallenge(ctfId, { title: "A" });
    const b = await newChallenge(ctfId, { title: "B" });
    const c = await newChallenge(ctfId, { title: "C", requires: [a.id, b.id] });
    const d = await newChallenge(ctfId, { title: "D", requires: [a.id] });
    expectStatus(await api.deleteChallenge(ctfId, a.id), 200);
    expect(expectStatus(await api.getChallenge(ctfId, c.id), 200).requires).toEqual([b.id]);
    expect(expectStatus(await api.getChallenge(ctfId, d.id), 200).requires).toEqual([]);
    expect(expectStatus(await api.getChallenge(ctfId, b.id), 200).requires).toEqual([]);
  });
});
