import net from "node:net";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { databaseKnownDown, isConnectionLost, markDatabaseDown, markDatabaseUp } from "@/db/availability";
import { postgresSettings } from "@/lib/platform/database";

/** The error postgres.js really throws for a query against `url`. */
async function errorOf(url: string, options: postgres.Options<Record<string, never>> = {}): Promise<unknown> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, ...options });
  try {
    await sql`select 1`;
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await sql.end({ timeout: 0 });
  }
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("isConnectionLost", () => {
  afterEach(() => markDatabaseUp());

  it("recognises what postgres.js throws when nothing listens, bare and wrapped as Drizzle does", async () => {
    const error = await errorOf(`postgres://postgres@127.0.0.1:${await closedPort()}/x`);
    expect((error as { code?: string }).code).toBe("ECONNREFUSED");
    expect(isConnectionLost(error)).toBe(true);
    expect(isConnectionLost(Object.assign(new Error("Failed query: select 1"), { cause: error }))).toBe(true);
  });

  it("recognises a connection attempt the server never answers (connect_timeout)", async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as net.AddressInfo;
      const error = await errorOf(`postgres://postgres@127.0.0.1:${port}/x`, { connect_timeout: 0.2 });
      expect((error as { code?: string }).code).toBe("CONNECT_TIMEOUT");
      expect(isConnectionLost(error)).toBe(true);
    } finally {
      silent.close();
    }
  });

  it("does not take a statement's own failure for a lost server", () => {
    for (const code of ["23505", "57014", "53300", "40001", "22P02"]) {
      expect(isConnectionLost(Object.assign(new Error(code), { code }))).toBe(false);
    }
    expect(isConnectionLost(new Error("boom"))).toBe(false);
    expect(isConnectionLost(undefined)).toBe(false);
    for (const code of ["57P01", "57P03", "08006", "CONNECTION_CLOSED"]) {
      expect(isConnectionLost(Object.assign(new Error(code), { code }))).toBe(true);
    }
  });

  it("marks the database down once, until it is marked up", () => {
    expect(databaseKnownDown()).toBe(false);
    expect(markDatabaseDown()).toBe(true);
    expect(markDatabaseDown()).toBe(false);
    expect(databaseKnownDown()).toBe(true);
    markDatabaseUp();
    expect(databaseKnownDown()).toBe(false);
  });
});

describe("postgresSettings", () => {
  it("has defaults, reads the environment, and names a bad variable", () => {
    expect(postgresSettings({})).toMatchObject({ connect_timeout: 2, statement_timeout: 5_000, idle_timeout: 60 });
    expect(postgresSettings({ DATABASE_CONNECT_TIMEOUT: "0.5", DATABASE_STATEMENT_TIMEOUT_MS: "1500" })).toMatchObject({
      connect_timeout: 0.5,
      statement_timeout: 1_500,
    });
    expect(() => postgresSettings({ DATABASE_STATEMENT_TIMEOUT_MS: "soon" })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
    expect(() => postgresSettings({ DATABASE_CONNECT_TIMEOUT: "0" })).toThrow(/DATABASE_CONNECT_TIMEOUT/);
  });

  it("caps the reconnection delay at half a second", () => {
    const { backoff } = postgresSettings({});
    for (const retries of [1, 5, 10, 50]) expect(backoff(retries)).toBeLessThanOrEqual(0.5);
  });
});

describe.runIf(process.env.DATABASE_URL)("the server-side statement timeout", () => {
  it("is applied to every connection of the pool (57014 past it)", async () => {
    const { openDatabase } = await import("@/lib/platform/database");
    process.env.DATABASE_STATEMENT_TIMEOUT_MS = "200";
    const database = await openDatabase({ url: process.env.DATABASE_URL, poolMax: 2 });
    try {
      await expect(database.query("select pg_sleep(1)")).rejects.toMatchObject({ code: "57014" });
      expect(await database.query<{ statement_timeout: string }>("show statement_timeout")).toEqual([{ statement_timeout: "200ms" }]);
    } finally {
      delete process.env.DATABASE_STATEMENT_TIMEOUT_MS;
      await database.close();
    }
  });
});
