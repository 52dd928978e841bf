import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as attemptsRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/attempts/route";
import { completePublish, publishChallenge } from "@/lib/ctf/challenges";
import { regexFlagProblem } from "@/lib/ctf/flag-pattern";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTrainer, type Trainer } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { playerOf, runningCtf } from "../helpers/samples/play";
import { client, expectStatus, type Client } from "./support";

/**
 * Flag modes: each is created through the API (its view names the mode), published, and
 * checked through the attempts route, right and wrong; a pattern that does not compile or
 * could backtrack catastrophically is a 422 on `flag`.
 */

let database: TestDatabase;
let trainer: Trainer;
let api: Client;
const origin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
});
beforeEach(async () => {
  trainer = await createTrainer(database.db);
  api = client(trainer.secret);
});
afterAll(async () => {
  await database?.drop();
  vi.unstubAllEnvs();
});

async function challengeIn(ctfId: string, body: Record<string, unknown>) {
  const created = expectStatus(await api.createChallenge(ctfId, { title: "Modes", category: "web", points: 100, ...body }), 201);
  await publishChallenge(database.db, trainer.workspaceId, ctfId, created.id);
  await completePublish(database.db, created.id);
  return created as { id: string; flag_mode: string };
}

async function submit(cookie: string, ctfId: string, challengeId: string, flag: string) {
  const params = { ctf_id: ctfId, challenge_id: challengeId };
  const result = await call(attemptsRoute.POST, `/api/c/${ctfId}/challenges/${challengeId}/attempts`, { method: "POST", params, body: { flag }, headers: { ...origin, cookie } });
  return (expectStatus(result, 200) as { status: string }).status;
}

describe("flag modes through the attempts route", () => {
  it.each([
    ["exact", undefined, "CTF{Warm}", ["ctf{warm}", "CTF{warm}", "CTF{Warm}x"], [" CTF{Warm} "]],
    ["case_insensitive", "case_insensitive", "CTF{Warm}", ["CTF{cold}", "CTF{Warm}!"], ["ctf{WARM}"]],
    ["regex", "regex", "CTF\\{[a-z]+_[0-9]{3}\\}", ["CTF{abc_12}", "xCTF{abc_123}", "CTF{abc_123}x", "CTF{ABC_123}"], ["CTF{abc_123}"]],
  ])("%s: wrong flags are incorrect, the right one correct", async (mode, given, flag, wrong, right) => {
    const ctfId = await runningCtf(database.db, trainer);
    const challenge = await challengeIn(ctfId, { flag, ...(given ? { flag_mode: given } : {}) });
    expect(challenge.flag_mode).toBe(mode);
    expect(challenge).not.toHaveProperty("flag");
    const { cookie } = await playerOf(database.db, trainer, ctfId);
    for (const attempt of wrong) expect([attempt, await submit(cookie, ctfId, challenge.id, attempt)]).toEqual([attempt, "incorrect"]);
    expect(await submit(cookie, ctfId, challenge.id, right[0])).toBe("correct");
  });

  it("a regex matches the whole submission: an alternation cannot escape the anchors", async () => {
    const ctfId = await runningCtf(database.db, trainer);
    const challenge = await challengeIn(ctfId, { flag: "CTF\\{a\\}|CTF\\{b\\}", flag_mode: "regex" });
    const { cookie } = await playerOf(database.db, trainer, ctfId);
    expect(await submit(cookie, ctfId, challenge.id, "CTF{a}tail")).toBe("incorrect");
    expect(await submit(cookie, ctfId, challenge.id, "headCTF{b}")).toBe("incorrect");
    expect(await submit(cookie, ctfId, challenge.id, "CTF{b}")).toBe("correct");
  });

  it("changing the mode alone re-derives the check from the stored flag", async () => {
    const ctfId = await runningCtf(database.db, trainer);
    const created = expectStatus(await api.createChallenge(ctfId, { title: "Switch", category: "web", flag: "CTF{Mixed}" }), 201);
    expect(expectStatus(await api.updateChallenge(ctfId, created.id, { flag_mode: "case_insensitive" }), 200).flag_mode).toBe("case_insensitive");
    await publishChallenge(database.db, trainer.workspaceId, ctfId, created.id);
    await completePublish(database.db, created.id);
    const { cookie } = await playerOf(database.db, trainer, ctfId);
    expect(await submit(cookie, ctfId, created.id, "ctf{mixed}")).toBe("correct");
  });
});

describe("flag patterns", () => {
  it.each([
    ["does not compile", "CTF\\{[a-z"],
    ["nested quantifiers", "CTF\\{(a+)+\\}"],
    ["a repeated alternation", "(a|aa)*"],
    ["an unbalanced parenthesis", "a)|(b"],
    ["a back-reference", "(a)\\1"],
    ["too many quantifiers", ".*.*.*"],
  ])("%s → 422 naming flag, on create and update", async (_why, pattern) => {
    const ctfId = await runningCtf(database.db, trainer);
    const refused = expectStatus(await api.createChallenge(ctfId, { title: "Bad", category: "web", flag: pattern, flag_mode: "regex" }), 422);
    expect(refused.error.fields.map((f: { field: string }) => f.field)).toEqual(["flag"]);
    const created = expectStatus(await api.createChallenge(ctfId, { title: "Plain", category: "web", flag: pattern }), 201);
    const changed = expectStatus(await api.updateChallenge(ctfId, created.id, { flag_mode: "regex" }), 422);
    expect(changed.error.fields.map((f: { field: string }) => f.field)).toEqual(["flag"]);
  });

  it("a pattern over 500 characters → 422 naming flag", async () => {
    const ctfId = await runningCtf(database.db, trainer);
    const refused = expectStatus(await api.createChallenge(ctfId, { title: "Long", category: "web", flag: "a".repeat(501), flag_mode: "regex" }), 422);
    expect(refused.error.fields.map((f: { field: string }) => f.field)).toEqual(["flag"]);
  });

  it("accepts the usual shapes", () => {
    for (const pattern of ["flag\\{[a-z0-9_]+\\}", "CTF\\{.*\\}", "flag{[0-9a-f]{32}}", "CTF\\{(?:hello|hi)_world\\}", "CTF\\{a(_[a-z]+)?\\}", "[(+*]+x"]) {
      expect([pattern, regexFlagProblem(pattern)]).toEqual([pattern, null]);
    }
  });
});
