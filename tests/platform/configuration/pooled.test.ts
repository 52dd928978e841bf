import { randomBytes } from "node:crypto";
import net from "node:net";
import postgres from "postgres";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db";
import { certifications } from "@/db/schema";
import type { Database } from "@/db/types";
import { openDatabase, prepareDatabase } from "@/lib/platform/database";

/**
 * A pooled DATABASE_URL (DATABASE_POOLED=true) next to DATABASE_DIRECT_URL, against the real
 * PostgreSQL. The "pooler" here is a TCP forwarder that counts its connections, so the test
 * sees which URL each connection used; tests/platform/configuration/pgbouncer.test.ts adds a real PgBouncer
 * in transaction mode where one is installed.
 */
const adminUrl = process.env.DATABASE_URL;

describe.runIf(adminUrl)("a pooled DATABASE_URL", () => {
  let name: string;
  let directUrl: string;
  let forwarder: net.Server;
  let forwardedConnections = 0;
  let pooledUrl: string;

  beforeAll(async () => {
    name = `t_pooled_${randomBytes(4).toString("hex")}`;
    const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const direct = new URL(adminUrl!);
    direct.pathname = `/${name}`;
    directUrl = direct.toString();
    forwarder = net.createServer((client) => {
      forwardedConnections++;
      const server = net.connect(Number(direct.port || 5432), direct.hostname);
      client.pipe(server).pipe(client);
      client.on("error", () => server.destroy());
      server.on("error", () => client.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, "127.0.0.1", resolve));
    const pooled = new URL(directUrl);
    pooled.host = `127.0.0.1:${(forwarder.address() as net.AddressInfo).port}`;
    pooledUrl = pooled.toString();
  });

  afterAll(async () => {
    forwarder?.close();
    const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  /** Named prepared statements of the pool's one connection (it is a server session view). */
  async function namedStatements(database: Database): Promise<number> {
    const [row] = await database.query<{ count: number }>("select count(*)::int as count from pg_prepared_statements");
    return row.count;
  }

  async function exercise(database: Database): Promise<void> {
    await database.db.select().from(certifications).limit(1);
    await database.db.transaction(async (tx) => {
      await tx.select({ id: certifications.id }).from(certifications).where(sql`${certifications.id} > ${0}`);
    });
    await database.query("select $1::int + 1 as n", [41]);
  }

  it("control: the direct pool prepares named statements (what a transaction pooler breaks)", async () => {
    const database = await openDatabase({ url: directUrl, poolMax: 1 });
    try {
      await prepareDatabase(database);
      await exercise(database);
      expect(await namedStatements(database)).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });

  it("sends no named prepared statement through the pooler, and migrates and listens over the direct URL", async () => {
    const database = await openDatabase({ url: pooledUrl, directUrl, pooled: true, poolMax: 1 });
    try {
      expect(database.pooled).toBe(true);
      const before = forwardedConnections;
      // Migrations and the seed: over the direct URL (a session-level advisory lock).
      await prepareDatabase(database);
      expect(forwardedConnections).toBe(before);

      await exercise(database);
      expect(await database.query<{ n: number }>("select $1::int + 1 as n", [41])).toEqual([{ n: 42 }]);
      expect(await namedStatements(database)).toBe(0);
      expect(forwardedConnections).toBe(before + 1);

      // LISTEN on the direct URL; a NOTIFY committed through the pooler reaches it.
      let notified!: () => void;
      const arrived = new Promise<void>((resolve) => (notified = resolve));
      const unlisten = await database.listen("certify_pooled_test", () => notified());
      expect(forwardedConnections).toBe(before + 1);
      const listeners = rowsOf<{ application_name: string }>(
        await database.db.execute(sql`select application_name from pg_stat_activity where datname = current_database() and query ilike 'listen%'`),
      );
      expect(listeners.map((row) => row.application_name)).toEqual(["certify-ctf-direct"]);
      await database.query("select pg_notify('certify_pooled_test', 'x')");
      await arrived;
      await unlisten();
    } finally {
      await database.close();
    }
  });

  it("does not send statement_timeout as a startup parameter through the pooler (poolers refuse it)", async () => {
    const database = await openDatabase({ url: pooledUrl, directUrl, pooled: true, poolMax: 1 });
    try {
      const [pooled] = await database.query<{ statement_timeout: string }>("show statement_timeout");
      expect(pooled.statement_timeout).toBe("0");
      const direct = await database.direct(async ({ sql: directSql }) => directSql!`show statement_timeout`);
      expect(direct[0].statement_timeout).toBe("5s");
    } finally {
      await database.close();
    }
  });
});
