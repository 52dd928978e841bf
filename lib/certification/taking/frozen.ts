import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { databaseKey } from "@/db/prepared";
import { testDomains, testQuestions, tests, type Test } from "@/db/schema";

/** A question as frozen at the test's creation (options in the question's own order). */
export type FrozenQuestion = {
  id: number;
  domainId: number;
  prompt: string;
  options: string[];
  type: "single" | "multiple";
  correctIndex: number;
  /** A `multiple` question's right options (ascending); null on a `single` one. */
  correctIndexes: number[] | null;
  explanation: string;
};

/**
 * What never changes once a test is created: its settings, its questions and its domains
 * (docs/decisions.md, "Test settings": fixed at creation; questions and domains are frozen
 * copies). The taking path (page, answer, submit, deadline) reads it on every request, so it
 * is kept per process instead of being read again.
 */
export type FrozenTest = Pick<
  Test,
  | "id"
  | "code"
  | "workspaceId"
  | "name"
  | "certificationName"
  | "questionCount"
  | "timeLimitMinutes"
  | "opensAt"
  | "closesAt"
  | "passMark"
  | "showAnswers"
  | "sendResult"
  | "draw"
  | "recordIntegrity"
  | "certificate"
  | "language"
> & {
  /** By question id. */
  questions: Map<number, FrozenQuestion>;
  /** In the test's order (position): the order of a result's domains. */
  domains: { domainId: number; name: string }[];
  domainName: Map<number, string>;
};

/** Tests kept per database: a class exam is one test; a busy instance serves a few hundred at most at once. */
export const FROZEN_TESTS_MAX = 256;

type Cache = Map<number, Promise<FrozenTest | undefined>>;
const caches = new WeakMap<object, Cache>();

/**
 * The frozen test `testId`, read once per process and database (3 statements on a miss, none
 * on a hit); a least-recently-used one is dropped past FROZEN_TESTS_MAX. Concurrent misses
 * share one read. A test that does not exist is not kept. Works in a transaction too (`db`
 * may be a `tx`; the cache is the database's).
 */
export async function frozenTest(db: Db, testId: number): Promise<FrozenTest | undefined> {
  const key = databaseKey(db);
  let cache = caches.get(key);
  if (!cache) caches.set(key, (cache = new Map()));
  const held = cache.get(testId);
  if (held) {
    // Most recently used last: Map keeps insertion order.
    cache.delete(testId);
    cache.set(testId, held);
    return held;
  }
  const loading = loadFrozenTest(db, testId);
  cache.set(testId, loading);
  if (cache.size > FROZEN_TESTS_MAX) cache.delete(cache.keys().next().value!);
  try {
    const frozen = await loading;
    if (!frozen && cache.get(testId) === loading) cache.delete(testId);
    return frozen;
  } catch (error) {
    if (cache.get(testId) === loading) cache.delete(testId);
    throw error;
  }
}

async function loadFrozenTest(db: Db, testId: number): Promise<FrozenTest | undefined> {
  const [[test], questionRows, domainRows] = await Promise.all([
    db
      .select({
        id: tests.id,
        code: tests.code,
        workspaceId: tests.workspaceId,
        name: tests.name,
        certificationName: tests.certificationName,
        questionCount: tests.questionCount,
        timeLimitMinutes: tests.timeLimitMinutes,
        opensAt: tests.opensAt,
        closesAt: tests.closesAt,
        passMark: tests.passMark,
        showAnswers: tests.showAnswers,
        sendResult: tests.sendResult,
        draw: tests.draw,
        recordIntegrity: tests.recordIntegrity,
        certificate: tests.certificate,
        language: tests.language,
      })
      .from(tests)
      .where(eq(tests.id, testId)),
    db
      .select({
        id: testQuestions.id,
        domainId: testQuestions.domainId,
        prompt: testQuestions.prompt,
        options: testQuestions.options,
        type: testQuestions.type,
        correctIndex: testQuestions.correctIndex,
        correctIndexes: testQuestions.correctIndexes,
        explanation: testQuestions.explanation,
      })
      .from(testQuestions)
      .where(eq(testQuestions.testId, testId))
      .orderBy(asc(testQuestions.position), asc(testQuestions.id)),
    db.select({ domainId: testDomains.domainId, name: testDomains.name }).from(testDomains).where(eq(testDomains.testId, testId)).orderBy(asc(testDomains.position)),
  ]);
  if (!test) return undefined;
  return {
    ...test,
    questions: new Map(questionRows.map((q) => [q.id, q])),
    domains: domainRows,
    domainName: new Map(domainRows.map((d) => [d.domainId, d.name])),
  };
}

/** Tests only: forget every frozen test of `db`. */
export function forgetFrozenTests(db: Db): void {
  caches.delete(databaseKey(db));
}
