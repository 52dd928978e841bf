import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isConnectionLost } from "@/db/availability";
import { retryWhileDisconnected } from "@/db/transaction";
import { privatePostgresUnsupported, startPrivatePostgres, type PrivatePostgres } from "../../helpers/private-postgres";
import { postgresSettings } from "@/lib/platform/database";

/**
 * A PostgreSQL restart (a fast shutdown: every backend is sent 57P01, then the server is
 * gone) on a cluster of the test's own — never the shared server. PostgreSQL run only (the
 * embedded database cannot restart under the app), and only where the machine's PostgreSQL
 * binaries can be run as `postgres` (tests/helpers/private-postgres.ts).
 */
const unsupported = privatePostgresUnsupported();
const { statement_timeout: _statementTimeout, ...settings } = postgresSettings({});
const code = (error: unknown) => (error as { code?: string }).code;

describe.runIf(process.env.DATABASE_URL && !unsupported)("a PostgreSQL restart under the pool", () => {
  let cluster: PrivatePostgres;
  beforeAll(async () => {
    cluster = await startPrivatePostgres();
  });
  afterAll(() => cluster?.destroy());

  it("after the server is back, no query fails with the error of a connection that died in the restart (patches/postgres+3.4.9.patch)", async () => {
    const sql = postgres(cluster.url, { ...settings, max: 4, onnotice: () => {} });
    const watch = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      // Every connection of the pool is in a query when the server goes: each is sent the
      // FATAL 57P01 mid-query, then closed.
      const running = Array.from({ length: 4 }, () => sql`select pg_sleep(30)`.then(() => undefined, (error: unknown) => error));
      await expect
        .poll(async () => (await watch<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where query like 'select pg_sleep%' and pid <> pg_backend_pid()`)[0].n)
        .toBe(4);
      await watch.end();
      cluster.stop();
      const interrupted = await Promise.all(running);
      expect(interrupted.every((error) => isConnectionLost(error)), interrupted.map(code).join()).toBe(true);

      cluster.start();
      // Each connection reconnects on its next query. Unpatched, postgres.js 3.4.9 fails
      // that first query with the dead connection's 57P01 (porsager/postgres#1223).
      const after = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => sql`select ${i}::int as i`));
      expect(after.filter((result) => result.status === "rejected").map((result) => code((result as PromiseRejectedResult).reason))).toEqual([]);
      // And later, one connection at a time, the same.
      for (let i = 0; i < 8; i++) expect((await sql`select ${i}::int as i`)[0].i).toBe(i);
    } finally {
      await watch.end({ timeout: 0 }).catch(() => {});
      await sql.end({ timeout: 0 });
    }
  });

  it("a write that records what was done elsewhere waits for the server's return (retryWhileDisconnected), within its budget", async () => {
    const sql = postgres(cluster.url, { ...settings, max: 2, onnotice: () => {} });
    try {
      await sql`create table if not exists recorded (id int primary key, state text not null)`;
      await sql`insert into recorded values (1, 'in_flight') on conflict (id) do update set state = 'in_flight'`;
      cluster.stop();
      let tries = 0;
      const recording = retryWhileDisconnected(async () => {
        tries += 1;
        return sql`update recorded set state = 'completed' where id = 1 and state = 'in_flight' returning id`;
      }, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      cluster.start();
      expect((await recording).length).toBe(1);
      expect(tries).toBeGreaterThan(1);
      expect((await sql`select state from recorded where id = 1`)[0].state).toBe("completed");

      // Out of budget: the connection error itself, after the tries the budget allows.
      cluster.stop();
      tries = 0;
      const failed = await retryWhileDisconnected(() => {
        tries += 1;
        return sql`select 1`;
      }, 300).then(() => undefined, (error: unknown) => error);
      expect(isConnectionLost(failed), String(code(failed))).toBe(true);
      expect(tries).toBeGreaterThan(1);
      cluster.start();

      // A statement's own failure is not a lost connection: thrown at once, not tried again.
      tries = 0;
      const duplicate = await retryWhileDisconnected(() => {
        tries += 1;
        return sql`insert into recorded values (1, 'again')`;
      }, 10_000).then(() => undefined, (error: unknown) => error);
      expect(code(duplicate)).toBe("23505");
      expect(tries).toBe(1);
    } finally {
      await sql.end({ timeout: 0 });
    }
  });
});
