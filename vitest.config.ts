import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**", ".next/**"],
    environment: "node",
    env: { API_LOG: "off" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; two files at a time fits a 2-core machine.
    maxWorkers: 2,
  },
});
