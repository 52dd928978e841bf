import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**", ".next/**"],
    environment: "node",
    // Auth.js imports "next/server" without an extension, which Node's ESM resolver refuses;
    // inlined, Vite resolves it (every route wrapper can read the session).
    server: { deps: { inline: ["next-auth"] } },
    // Challenge files stored on the filesystem (the default without DATABASE_URL) go to a
    // temporary folder, not the working tree's .data/.
    env: { API_LOG: "off", FILE_STORAGE_DIR: path.join(os.tmpdir(), "certify-test-files") },
    // One migrated, seeded database made once; every file starts from a copy (tests/helpers/db.ts).
    globalSetup: ["tests/helpers/global-setup.ts"],
    // A worker process runs many files: the packages (Next.js, PGlite, Inngest…) load once per
    // worker, not once per file (~40 % of the suite's CPU time). The app's own modules, env vars and
    // mocks still start fresh in each file (tests/helpers/per-file.ts). `--isolate` on the command
    // line gives every file a process of its own again, to tell a leak between files from a bug.
    isolate: false,
    setupFiles: ["tests/helpers/per-file.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three files at a time on a 2-core machine: a file that waits (a lease, a backoff, a
    // receiver) leaves its core to the others. Measured: npm test 95 s with three, 117 s with
    // two, 98 s with four.
    maxWorkers: 3,
  },
});
