import { and, count, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as attemptsRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/attempts/route";
import { challenges, flagAttempts, rateLimitBuckets } from "@/db/schema";
import { completePublish, completeUnpublish, publishChallenge } from "@/lib/ctf/challenges/challenges";
import { regexFlagProblem } from "@/lib/ctf/challenges/flags/pattern";
import { storedFlag } from "@/lib/ctf/challenges/flags/flags";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { playerOf, runningCtf } from "../../helpers/samples/play";
import { client, expectStatus, type Client } from "../../helpers/competition";

/**
 * Flag modes: each is created through the API (its view names the mode), published, and
 * checked through the attempts route, right and wrong. Patterns are RE2 (linear time): one
 * RE2 does not compile (a back-reference, a look-around, a syntax error) or too large is a 422
 * on `flag`; the hostile shapes a backtracking engine choked on are stored and answer right;
 * a pattern stored before RE2 that it cannot compile answers 409, not a 500.
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

function attempt(cookie: string, ctfId: string, challengeId: string, flag: string) {
  const params = { ctf_id: ctfId, challenge_id: challengeId };
  return call(attemptsRoute.POST, `/api/c/${ctfId}/challenges/${challengeId}/attempts`, { method: "POST", params, body: { flag }, headers: { ...origin, cookie } });
}

async function submit(cookie: string, ctfId: string, challengeId: string, flag: string) {
  return (expectStatus(await attempt(cookie, ctfId, challengeId, flag), 200) as { status: string }).status;
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
    ["does not compile", "CTF\\{[a-z", "Not a valid RE2 pattern: missing closing ]: `[a-z`."],
    ["an unbalanced parenthesis", "a)|(b", "Not a valid RE2 pattern: unexpected ): `a)|(b`."],
    ["a back-reference", "(a)\\1", "Back-references (`\\1`, `\\k<name>`) are not supported: flag patterns are RE2 syntax, matched in linear time."],
    ["a look-around", "(?=CTF)CTF\\{x\\}", "Look-arounds (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`) are not supported: flag patterns are RE2 syntax, matched in linear time."],
    ["a JavaScript escape", "CTF\\{\\u00e9\\}", "Write a code point as `\\x{00e9}`, not `\\u00e9`: flag patterns are RE2 syntax."],
    ["too large a program", ".{0,500}", "This pattern is too large: it compiles to 1002 instructions, at most 1000. Repeat counts multiply (`(?:[a-z]{10}){20}` counts 200); a flag is at most 500 characters, so smaller counts match the same."],
  ])("%s → 422 naming flag, on create and update", async (_why, pattern, message) => {
    const ctfId = await runningCtf(database.db, trainer);
    const refused = expectStatus(await api.createChallenge(ctfId, { title: "Bad", category: "web", flag: pattern, flag_mode: "regex" }), 422);
    expect(refused.error.fields).toEqual([{ field: "flag", message }]);
    const created = expectStatus(await api.createChallenge(ctfId, { title: "Plain", category: "web", flag: pattern }), 201);
    const changed = expectStatus(await api.updateChallenge(ctfId, created.id, { flag_mode: "regex" }), 422);
    expect(changed.error.fields).toEqual([{ field: "flag", message: `The current flag is not a valid pattern: ${message} Give a flag with the mode.` }]);
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

  it("stores the shapes a backtracking engine choked on, and checks them right: a hostile attempt is merely incorrect", async () => {
    const ctfId = await runningCtf(database.db, trainer);
    // `(?:a|a){28}`: one 33-character attempt held the former checker for 10 s, each character more doubled it.
    const repeated = await challengeIn(ctfId, { flag: "CTF\\{(?:a|a){28}\\}", flag_mode: "regex" });
    const nested = await challengeIn(ctfId, { flag: "CTF\\{(a+)+\\}", flag_mode: "regex" });
    const { cookie } = await playerOf(database.db, trainer, ctfId);
    expect(await submit(cookie, ctfId, repeated.id, `CTF{${"a".repeat(28)}!`)).toBe("incorrect");
    expect(await submit(cookie, ctfId, repeated.id, `CTF{${"a".repeat(27)}}`)).toBe("incorrect");
    expect(await submit(cookie, ctfId, repeated.id, `CTF{${"a".repeat(28)}}`)).toBe("correct");
    expect(await submit(cookie, ctfId, nested.id, `CTF{${"a".repeat(480)}!`)).toBe("incorrect");
    expect(await submit(cookie, ctfId, nested.id, `CTF{${"a".repeat(480)}}`)).toBe("correct");
  });

  it("a pattern stored before RE2 that RE2 cannot compile answers 409 naming why, and the attempt is neither recorded nor counted", async () => {
    const ctfId = await runningCtf(database.db, trainer);
    const challenge = await challengeIn(ctfId, { flag: "CTF\\{x\\}", flag_mode: "regex" });
    // What the former checker accepted (a look-ahead compiles in JavaScript), written as it stored it.
    await database.db.update(challenges).set(storedFlag("(?=CTF)CTF\\{x\\}", "regex")).where(eq(challenges.id, challenge.id));
    const { cookie, memberId } = await playerOf(database.db, trainer, ctfId);
    const refused = await attempt(cookie, ctfId, challenge.id, "CTF{x}");
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      "This challenge's flag pattern cannot be checked: Look-arounds (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`) are not supported: flag patterns are RE2 syntax, matched in linear time. The organiser must give the flag again.",
    );
    const [{ attempts }] = await database.db.select({ attempts: count() }).from(flagAttempts).where(and(eq(flagAttempts.memberId, memberId), eq(flagAttempts.challengeId, challenge.id)));
    expect(attempts).toBe(0);
    // The refusal rolled the throttle's hit back with the rest: no bucket names the challenge.
    expect(await database.db.select().from(rateLimitBuckets).where(like(rateLimitBuckets.key, `%${challenge.id}%`))).toEqual([]);
    // The organiser gives the pattern again (RE2 syntax): it checks again.
    expectStatus(await api.unpublish(ctfId, challenge.id), 202);
    await completeUnpublish(database.db, challenge.id);
    expectStatus(await api.updateChallenge(ctfId, challenge.id, { flag: "CTF\\{x\\}", flag_mode: "regex" }), 200);
    await publishChallenge(database.db, trainer.workspaceId, ctfId, challenge.id);
    await completePublish(database.db, challenge.id);
    expect(await submit(cookie, ctfId, challenge.id, "CTF{x}")).toBe("correct");
  });
});
