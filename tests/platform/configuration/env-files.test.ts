import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `npm run db:migrate` and `npm run cli` read the env files Next.js reads. Each case runs
 * the real script (tsx scripts/migrate.ts) in a directory of its own holding the env files.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "certify-env-"));
  // The migrations are read from <working directory>/db/migrations, as in the project.
  fs.symlinkSync(path.join(root, "db"), path.join(dir, "db"));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeEnvFiles(files: Record<string, string>): void {
  for (const name of fs.readdirSync(dir)) if (name.startsWith(".env")) fs.rmSync(path.join(dir, name));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
}

/** Runs the migrate script in `dir` with the test process's environment minus what the files should decide. */
function migrate(env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = { ...process.env };
  // NODE_ENV=test (vitest's) makes Next skip .env.local, as it does in Next's own test mode.
  for (const name of ["NODE_ENV", "DATABASE_URL", "PGLITE_DATA_DIR", "WORKER_CONCURRENCY", "LOG_LEVEL", "TRUST_PROXY"]) delete base[name];
  return new Promise((resolve) => {
    execFile(tsx, ["--tsconfig", path.join(root, "tsconfig.json"), path.join(root, "scripts", "migrate.ts")], { cwd: dir, env: { ...base, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("the scripts' env files", () => {
  it("reads .env.local, which wins over .env", async () => {
    writeEnvFiles({ ".env": "WORKER_CONCURRENCY=3\n", ".env.local": "WORKER_CONCURRENCY=eight\n" });
    const run = await migrate();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('WORKER_CONCURRENCY must be a whole number from 1 to 256 (got "eight")');
  });

  it("lets a variable set in the environment win over every file", async () => {
    writeEnvFiles({ ".env.local": "LOG_LEVEL=info\n" });
    const run = await migrate({ LOG_LEVEL: "loud" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")');
  });

  it("reads .env.production when NODE_ENV=production, and not .env.development", async () => {
    writeEnvFiles({ ".env.production": "TRUST_PROXY=from-production\n", ".env.development": "TRUST_PROXY=from-development\n" });
    const run = await migrate({ NODE_ENV: "production" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('(got "from-production")');
    expect(run.stderr).not.toContain("from-development");
    expect(run.stderr).toContain("AUTH_SECRET is required in production");
  });

  if (process.env.DATABASE_URL) {
    it("migrates the PostgreSQL database that .env.local names, not the embedded one", async () => {
      const name = `t_envfile_${randomBytes(4).toString("hex")}`;
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const target = new URL(process.env.DATABASE_URL!);
      target.pathname = `/${name}`;
      try {
        writeEnvFiles({ ".env": `DATABASE_URL=postgres://nobody@127.0.0.1:1/wrong\n`, ".env.local": `DATABASE_URL=${target}\n` });
        const run = await migrate();
        expect(run.stderr).toBe("");
        expect(run.stdout).toContain(`PostgreSQL at ${target.host}/${name} (env files: .env.local, .env)`);
        const migrated = postgres(target.toString(), { max: 1, onnotice: () => {} });
        const [{ count }] = await migrated`select count(*)::int as count from certifications`;
        await migrated.end();
        expect(count).toBeGreaterThan(0);
        expect(fs.existsSync(path.join(dir, ".data"))).toBe(false);
      } finally {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    });
  } else {
    it("migrates the embedded database in the directory .env.local names", async () => {
      const dataDir = path.join(dir, "from-env-local");
      writeEnvFiles({ ".env": `PGLITE_DATA_DIR=${path.join(dir, "from-env")}\n`, ".env.local": `PGLITE_DATA_DIR=${dataDir}\n` });
      const run = await migrate();
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain(`embedded PGlite in ${dataDir} (env files: .env.local, .env)`);
      expect(fs.existsSync(path.join(dataDir, "PG_VERSION"))).toBe(true);
      expect(fs.existsSync(path.join(dir, "from-env"))).toBe(false);
    }, 120_000);
  }
});
