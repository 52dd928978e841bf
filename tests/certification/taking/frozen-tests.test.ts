import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { tests } from "@/db/schema";
import { FROZEN_TESTS_MAX, forgetFrozenTests, frozenTest, type FrozenTest } from "@/lib/certification/taking/frozen";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";

/**
 * The per-process copy of each test's frozen part (lib/certification/taking/frozen.ts) is bounded: past
 * FROZEN_TESTS_MAX tests the least recently used one is dropped (and read again when asked
 * for), a test in use stays, concurrent misses share one read, and a test that does not exist
 * is not kept. A kept copy is the same object on every hit, which is what these tests watch.
 */

let database: TestDatabase;
let ids: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  const trainer = await createTrainer(database.db);
  const certificationId = (await catalogCertificationId(database.db, "comptia-security-plus-sy0-701"))!;
  const rows = Array.from({ length: FROZEN_TESTS_MAX + 1 }, (_, index) => ({
    code: `FRZ${String(index).padStart(5, "0")}`,
    workspaceId: trainer.workspaceId,
    certificationId,
    certificationName: "CompTIA Security+",
    questionCount: 0,
    name: `Frozen ${index}`,
  }));
  ids = (await database.db.insert(tests).values(rows).returning({ id: tests.id })).map((row) => row.id);
});
beforeEach(() => forgetFrozenTests(database.db));
afterAll(() => database.drop());

async function load(testId: number): Promise<FrozenTest> {
  const frozen = await frozenTest(database.db, testId);
  expect(frozen, `test ${testId}`).toBeDefined();
  return frozen!;
}

describe("the frozen-test cache", () => {
  it("keeps a test: the same copy on every hit", async () => {
    const first = await load(ids[0]);
    expect(first.name).toBe("Frozen 0");
    expect(await load(ids[0])).toBe(first);
  });

  it("drops the least recently used test past FROZEN_TESTS_MAX, and reads it again when asked", async () => {
    const copies = new Map<number, FrozenTest>();
    for (const id of ids.slice(0, FROZEN_TESTS_MAX)) copies.set(id, await load(id));
    // Full: the next one drops ids[0], the least recently used.
    await load(ids[FROZEN_TESTS_MAX]);
    expect(await load(ids[1])).toBe(copies.get(ids[1]));
    const again = await load(ids[0]);
    expect(again).not.toBe(copies.get(ids[0]));
    expect(again).toEqual(copies.get(ids[0]));
  });

  it("keeps a test in use: a hit makes it the most recently used", async () => {
    const copies = new Map<number, FrozenTest>();
    for (const id of ids.slice(0, FROZEN_TESTS_MAX)) copies.set(id, await load(id));
    await load(ids[0]); // in use again: now ids[1] is the least recently used
    await load(ids[FROZEN_TESTS_MAX]);
    expect(await load(ids[0])).toBe(copies.get(ids[0]));
    expect(await load(ids[1])).not.toBe(copies.get(ids[1]));
  });

  it("gives concurrent misses one read and one copy", async () => {
    const copies = await Promise.all(Array.from({ length: 8 }, () => load(ids[2])));
    for (const copy of copies) expect(copy).toBe(copies[0]);
  });

  it("does not keep a test that does not exist", async () => {
    const missing = Math.max(...ids) + 1_000;
    expect(await frozenTest(database.db, missing)).toBeUndefined();
    const [row] = await database.db
      .insert(tests)
      .values({ id: missing, code: "FRZLATE", workspaceId: (await createTrainer(database.db)).workspaceId, certificationId: (await catalogCertificationId(database.db, "comptia-security-plus-sy0-701"))!, certificationName: "CompTIA Security+", questionCount: 0, name: "Late" })
      .returning({ id: tests.id });
    expect((await load(row.id)).name).toBe("Late");
  });
});
