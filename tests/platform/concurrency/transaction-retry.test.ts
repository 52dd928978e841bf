import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailMessages } from "@/db/schema";
import { TRANSACTION_ATTEMPTS, transactionWithRetry } from "@/db/transaction";
import { toErrorResponse } from "@/lib/platform/http/http-errors";
import { planLimit } from "@/lib/kernel/errors";
import { lockWorkspace } from "@/lib/platform/workspaces/lock";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { queueEmail } from "@/lib/platform/pipeline/channels/email/queue";

/*
 * The retry helper of workspace writes (db/transaction.ts): a deadlock or serialization
 * failure re-runs the whole transaction a bounded number of times, and what the failed run
 * wrote (e-mails included) is gone with it, so nothing is queued twice.
 */

let database: TestDatabase;
let trainer: Trainer;
let other: Trainer;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  other = await createTrainer(database.db);
});
afterAll(() => database.drop());

/** Raises a real database error with this SQLSTATE (it reaches us wrapped by Drizzle, as in production). */
const raise = (tx: Parameters<Parameters<typeof transactionWithRetry>[1]>[0], sqlstate: "40P01" | "40001") =>
  tx.execute(sql.raw(`do $$ begin raise exception 'simulated' using errcode = '${sqlstate}'; end $$`));

const mail = (to: string) => ({ kind: "test", workspaceId: trainer.workspaceId, to, subject: "s", text: "t", html: "<p>t</p>" });
const mailsTo = async (to: string) => (await database.db.select().from(emailMessages).where(eq(emailMessages.to, to))).length;

describe("transactionWithRetry", () => {
  it("re-runs the whole transaction after a deadlock; the e-mail queued by the failed run is not queued twice", async () => {
    let runs = 0;
    const result = await transactionWithRetry(database.db, async (tx) => {
      runs += 1;
      await lockWorkspace(tx, trainer.workspaceId);
      await queueEmail(tx, mail("once@example.test"));
      if (runs === 1) await raise(tx, "40P01");
      return "committed";
    });
    expect(result).toBe("committed");
    expect(runs).toBe(2);
    expect(await mailsTo("once@example.test")).toBe(1);
  });

  it("gives up after a bounded number of tries; the error then maps to 503, never 500, and nothing was written", async () => {
    let runs = 0;
    const failure = await transactionWithRetry(database.db, async (tx) => {
      runs += 1;
      await queueEmail(tx, mail("never@example.test"));
      await raise(tx, "40001");
    }).catch((error: unknown) => error);
    expect(runs).toBe(TRANSACTION_ATTEMPTS);
    expect(await mailsTo("never@example.test")).toBe(0);
    const response = toErrorResponse(failure, "req_test");
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe("service_unavailable");
  });

  it("does not retry other errors (a plan limit is answered at once)", async () => {
    let runs = 0;
    await expect(
      transactionWithRetry(database.db, async () => {
        runs += 1;
        throw planLimit("full");
      }),
    ).rejects.toMatchObject({ code: "plan_limit_exceeded" });
    expect(runs).toBe(1);
  });

  it("inside a caller's transaction it does not retry on its own: the outer transaction is re-run whole", async () => {
    let outerRuns = 0;
    let innerRuns = 0;
    await transactionWithRetry(database.db, async (tx) => {
      outerRuns += 1;
      await transactionWithRetry(tx, async (inner) => {
        innerRuns += 1;
        if (outerRuns === 1) await raise(inner, "40P01");
      });
    });
    expect([outerRuns, innerRuns]).toEqual([2, 2]);
  });

  // PGlite is one connection: two transactions never interleave, so no real deadlock can happen there.
  it.skipIf(!onPostgres)("PostgreSQL only: a real deadlock between two writers ends with both committed", async () => {
    const arrived: (() => void)[] = [];
    const bothHoldFirstLock = new Promise<void>((resolve) => {
      let count = 0;
      arrived.push(() => ++count === 2 && resolve(), () => ++count === 2 && resolve());
    });
    let runs = 0;
    // Opposite orders on purpose (the bug this helper is the safety net for).
    const writer = (first: string, second: string, index: number, to: string) =>
      transactionWithRetry(database.db, async (tx) => {
        const run = ++runs;
        await lockWorkspace(tx, first);
        if (run <= 2) {
          arrived[index]();
          await bothHoldFirstLock;
        }
        await lockWorkspace(tx, second);
        await queueEmail(tx, mail(to));
      });
    await Promise.all([
      writer(trainer.workspaceId, other.workspaceId, 0, "deadlock-a@example.test"),
      writer(other.workspaceId, trainer.workspaceId, 1, "deadlock-b@example.test"),
    ]);
    expect(runs).toBe(3); // PostgreSQL aborted one of them once; it ran again and committed
    expect(await mailsTo("deadlock-a@example.test")).toBe(1);
    expect(await mailsTo("deadlock-b@example.test")).toBe(1);
  });
});
