import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { variables } from "@/lib/kernel/config/config";

/**
 * Nothing but lib/kernel/config/config.ts reads process.env in the app: every variable is parsed and
 * checked there, once. The exceptions are files that are not the app.
 */
const root = path.resolve(import.meta.dirname, "../../..");

const notTheApp: Record<string, string> = {
  "next.config.mjs": "Next.js's own configuration",
  "playwright.config.ts": "test tooling: starts the app with its environment",
  "vitest.config.ts": "test tooling",
  "drizzle.config.ts": "drizzle-kit's configuration",
  "eslint.config.mjs": "lint tooling",
  "scripts/with-pg-db.mjs": "test tooling: makes a database and passes DATABASE_URL to the command",
  "scripts/serve.mjs":
    "the HTTP server in front of Next.js (npm start), before the app exists: NODE_ENV, PORT, and the variables of scripts/http-server.mjs, which lib/kernel/config/config.ts declares and checks too (scripts/http-server.test.ts: both parse alike)",
};
const notTheAppFolders = ["tests/", "e2e/", "bench/", ".ci/"];

/**
 * Libraries that read the environment themselves (node_modules is not searched; listed so the
 * exception is written down). lib/kernel/config/config.ts declares and checks the variables each one reads
 * that this app documents, so a bad value is still refused at start.
 */
const libraryReads: Record<string, { why: string; variables: string[] }> = {
  inngest: {
    why: "the SDK reads its keys, dev mode and URLs from the environment when the client is constructed (lib/platform/pipeline/executors/inngest.ts), and again when /api/inngest serves",
    variables: [
      "INNGEST_EVENT_KEY",
      "INNGEST_SIGNING_KEY",
      "INNGEST_SIGNING_KEY_FALLBACK",
      "INNGEST_DEV",
      "INNGEST_BASE_URL",
      "INNGEST_API_BASE_URL",
      "INNGEST_EVENT_API_BASE_URL",
      "INNGEST_SERVE_ORIGIN",
      "INNGEST_SERVE_PATH",
    ],
  },
  resend: {
    why: "the SDK falls back on RESEND_API_KEY and RESEND_BASE_URL when not given them (lib/platform/pipeline/channels/email/resend.ts gives both, from config())",
    variables: ["RESEND_API_KEY", "RESEND_BASE_URL"],
  },
};

function sourceFiles(dir = root, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", ".next", ".data", ".git"].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, found);
    else if (/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name)) found.push(path.relative(root, full).split(path.sep).join("/"));
  }
  return found;
}

const readsEnv = /process\s*\.\s*env\b|process\s*\[\s*["'`]env["'`]\s*\]|\{\s*env\s*\}\s*=\s*process\b/;

describe("process.env", () => {
  it("is read by lib/kernel/config/config.ts alone, in the app", () => {
    const files = sourceFiles();
    expect(files).toContain("lib/kernel/config/config.ts");
    const readers = files.filter((file) => readsEnv.test(fs.readFileSync(path.join(root, file), "utf8")));
    expect(readers).toContain("lib/kernel/config/config.ts");
    const unexpected = readers.filter(
      (file) =>
        file !== "lib/kernel/config/config.ts" &&
        file !== "instrumentation.ts" &&
        !(file in notTheApp) &&
        !notTheAppFolders.some((folder) => file.startsWith(folder)),
    );
    expect(unexpected).toEqual([]);
  });

  it("read by a library itself: the variables it reads are declared and checked in lib/kernel/config/config.ts", () => {
    for (const [library, { variables: read }] of Object.entries(libraryReads)) {
      expect(read.filter((name) => !(name in variables)), library).toEqual([]);
    }
  });

  it("is read in instrumentation.ts only for NEXT_RUNTIME, a constant Next.js compiles in", () => {
    const text = fs.readFileSync(path.join(root, "instrumentation.ts"), "utf8");
    const reads = [...text.matchAll(/process\.env\.([A-Z_]+)/g)].map((match) => match[1]);
    expect(new Set(reads)).toEqual(new Set(["NEXT_RUNTIME"]));
  });
});
