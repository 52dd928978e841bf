import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db";
import { challengeValue } from "@/lib/ctf/challenges/scoring";
import { dynamicValueSql } from "@/lib/ctf/play/scoreboard";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";

/**
 * The scoreboard counts a dynamic challenge's current value in SQL (lib/ctf/play/scoreboard.ts);
 * `challengeValue` (lib/ctf/challenges/scoring.ts) is the one definition: both must agree on
 * every input, CTFd's rounding included.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** A small deterministic generator (the same inputs on every run). */
function* scorings(count: number) {
  let seed = 27;
  const next = (max: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % max;
  };
  yield { type: "dynamic" as const, initial: 500, minimum: 100, decay: 10 };
  yield { type: "dynamic" as const, initial: 7, minimum: 1, decay: 4 };
  yield { type: "dynamic" as const, initial: 100, minimum: 10, decay: 3 };
  yield { type: "dynamic" as const, initial: 10_000, minimum: 0, decay: 100_000 };
  yield { type: "dynamic" as const, initial: 1, minimum: 1, decay: 1 };
  for (let i = 0; i < count; i++) {
    const initial = 1 + next(10_000);
    yield { type: "dynamic" as const, initial, minimum: next(initial + 1), decay: 1 + next(i % 3 === 0 ? 100_000 : 60) };
  }
}

describe("the dynamic value in SQL", () => {
  it("agrees with challengeValue over a range of scorings and solve counts (0–150, and large counts)", async () => {
    const counts = [...Array.from({ length: 151 }, (_, n) => n), 1_000, 99_999, 100_001, 1_000_000];
    for (const scoring of scorings(60)) {
      const result = await database.db.execute(
        sql`select n::int as n, ${dynamicValueSql(sql`${JSON.stringify(scoring)}::jsonb`, sql`n`)} as value from unnest(${sql.raw(`array[${counts.join(",")}]::bigint[]`)}) as n`,
      );
      const fromSql = rowsOf<{ n: number; value: number }>(result).map((row) => [Number(row.n), Number(row.value)]);
      expect(fromSql, JSON.stringify(scoring)).toEqual(counts.map((n) => [n, challengeValue(scoring, scoring.initial, n)]));
    }
  });
});
