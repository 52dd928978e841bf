import { PgTransaction } from "drizzle-orm/pg-core";
import { isConnectionLost } from "./availability";
import { errorCodes } from "./error-codes";
import type { Db } from "./types";

/** SQLSTATEs after which running the whole transaction again can succeed. */
const RETRYABLE = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);

/** Tries in all (the first run and up to three re-runs). */
export const TRANSACTION_ATTEMPTS = 4;

/**
 * Runs `work` in a transaction and, when PostgreSQL aborts it with a serialization failure
 * or a deadlock, runs the WHOLE transaction again (up to TRANSACTION_ATTEMPTS in all,
 * after a short jittered pause). Everything `work` wrote — rows, queued e-mails, events,
 * NOTIFYs — was rolled back with the failed run, so a re-run queues nothing twice; `work`
 * must therefore keep its side effects inside the transaction (no HTTP calls, no sends).
 *
 * When the tries are used up the last error is thrown unchanged: the API maps its
 * SQLSTATE to 503 `service_unavailable` (lib/platform/http/http-errors.ts), never to a 500.
 * Other errors (an AppError such as a plan limit, a unique violation) are not retried.
 *
 * Called with a transaction (`db` is already a `tx`), it opens a savepoint and does not
 * retry: a deadlock aborts the outer transaction, which its own caller re-runs.
 */
export async function transactionWithRetry<T>(db: Db, work: (tx: Db) => Promise<T>, attempts = TRANSACTION_ATTEMPTS): Promise<T> {
  if ((db as unknown) instanceof PgTransaction) return db.transaction(work);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
    }
  }
}

/** 10–30 ms, 20–60 ms, 40–120 ms: short, and jittered so the losers do not collide again. */
function backoffMs(attempt: number): number {
  return 10 * 2 ** (attempt - 1) * (1 + 2 * Math.random());
}

/** True for a serialization failure or deadlock, also when Drizzle wraps the driver's error. */
export function isRetryable(error: unknown): boolean {
  return errorCodes(error).some((code) => RETRYABLE.has(code));
}

/**
 * Runs `write` again while it fails because the connection to the database was lost
 * (isConnectionLost: the server restarting, a failover, a pooled connection that died), for
 * at most `budgetMs`, after 50 ms, 100 ms, … up to 1 s between tries; any other error, or
 * the last one once the budget is spent, is thrown unchanged.
 *
 * For the write that records what was already done outside the database — a webhook the
 * receiver has, an e-mail the provider took: left unrecorded, the outbox would do it again
 * once its lease runs out. `write` must be safe to run twice (a lost connection can hide a
 * commit): it changes only rows still in the state it expects.
 */
export async function retryWhileDisconnected<T>(write: () => Promise<T>, budgetMs: number): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const pause = Math.min(50 * 2 ** (attempt - 1), 1_000);
      if (!isConnectionLost(error) || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
