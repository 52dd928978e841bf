import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { freePort } from "../../helpers/ports";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certifications } from "@/db/schema";
import { openDatabase, prepareDatabase } from "@/lib/platform/database";

/**
 * The pooled mode against a real PgBouncer in transaction mode (two server connections
 * shared by every client), where the machine has one (`apt-get install pgbouncer`; skipped
 * otherwise, and on PGlite runs). PgBouncer refuses to run as root: it is started as the
 * `postgres` user then.
 */
const adminUrl = process.env.DATABASE_URL;
const binary = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((file) => fs.existsSync(file));

describe.runIf(adminUrl && binary)("a pooled DATABASE_URL through PgBouncer (transaction mode)", () => {
  let dir: string;
  let bouncer: ChildProcess;
  let output = "";
  let name: string;
  let directUrl: string;
  let pooledUrl: string;

  beforeAll(async () => {
    const server = new URL(adminUrl!);
    name = `t_bouncer_${randomBytes(4).toString("hex")}`;
    const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    server.pathname = `/${name}`;
    directUrl = server.toString();

    dir = fs.mkdtempSync(path.join(os.tmpdir(), "certify-pgbouncer-"));
    fs.chmodSync(dir, 0o755);
    const port = await freePort();
    const user = decodeURIComponent(server.username || "postgres");
    fs.writeFileSync(path.join(dir, "users.txt"), `"${user}" ""\n`, { mode: 0o644 });
    fs.writeFileSync(
      path.join(dir, "pgbouncer.ini"),
      [
        "[databases]",
        `* = host=${server.hostname} port=${server.port || 5432}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${port}`,
        "unix_socket_dir =",
        "auth_type = trust",
        `auth_file = ${path.join(dir, "users.txt")}`,
        "pool_mode = transaction",
        "default_pool_size = 2",
        "max_client_conn = 100",
        "",
      ].join("\n"),
      { mode: 0o644 },
    );
    const asRoot = process.getuid?.() === 0;
    bouncer = spawn(binary!, [...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] });
    const ready = new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (output.includes("process up")) resolve();
      };
      bouncer.stdout!.on("data", read);
      bouncer.stderr!.on("data", read);
      bouncer.once("exit", (code) => reject(new Error(`pgbouncer exited (${code}):\n${output}`)));
    });
    await ready;
    const pooled = new URL(directUrl);
    pooled.host = `127.0.0.1:${port}`;
    pooledUrl = pooled.toString();
  });

  afterAll(async () => {
    if (bouncer && bouncer.exitCode === null) {
      const exited = new Promise((resolve) => bouncer.once("exit", resolve));
      bouncer.kill("SIGTERM");
      await exited;
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    if (name) {
      const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it("control: the unpooled settings cannot even connect through it (statement_timeout startup parameter)", async () => {
    const database = await openDatabase({ url: pooledUrl, poolMax: 1 });
    try {
      await expect(database.query("select 1")).rejects.toMatchObject({ code: "08P01", message: expect.stringContaining("statement_timeout") });
    } finally {
      await database.close();
    }
  });

  it("migrates over the direct URL, runs concurrent statements and transactions through PgBouncer, and listens", async () => {
    const database = await openDatabase({ url: pooledUrl, directUrl, pooled: true, poolMax: 8 });
    try {
      await prepareDatabase(database);
      // 8 client connections over 2 server connections: every statement is unnamed, so any
      // server connection can run it.
      const work = Array.from({ length: 120 }, (_, i) =>
        i % 3 === 0
          ? database.db.transaction(async (tx) => {
              const rows = await tx.select({ id: certifications.id }).from(certifications).where(sql`${certifications.id} > ${i}`).limit(1);
              await tx.execute(sql`select ${i}::int`);
              return rows.length;
            })
          : i % 3 === 1
            ? database.query<{ n: number }>("select $1::int * 2 as n", [i]).then(([row]) => row.n)
            : database.db.select({ id: certifications.id }).from(certifications).limit(1).then((rows) => rows.length),
      );
      const results = await Promise.allSettled(work);
      expect(results.filter((result) => result.status === "rejected")).toEqual([]);

      let notified!: () => void;
      const arrived = new Promise<void>((resolve) => (notified = resolve));
      const unlisten = await database.listen("certify_bouncer_test", () => notified());
      await database.query("select pg_notify('certify_bouncer_test', 'x')");
      await arrived;
      await unlisten();
    } finally {
      await database.close();
    }
  });
});
