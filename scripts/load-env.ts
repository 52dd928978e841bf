/**
 * The scripts (`npm run db:migrate`, `npm run cli`) read the same env files as Next.js, with
 * Next's own loader (@next/env), from the working directory: `.env.$NODE_ENV.local`,
 * `.env.local` (not when NODE_ENV=test), `.env.$NODE_ENV`, `.env` — the first file that sets
 * a variable wins, and a variable already in the environment wins over every file.
 * Imported first by each script, so the configuration is read after the files are loaded.
 */
import nextEnv from "@next/env";
import { nodeEnv, resetConfig } from "@/lib/kernel/config/config";

// A CommonJS bundle: Node's ESM loader cannot see its named exports.
const { loadEnvConfig } = nextEnv;

const silent = { info: () => {}, error: (...args: unknown[]) => console.error(...args) };
const { loadedEnvFiles } = loadEnvConfig(process.cwd(), nodeEnv() !== "production", silent as unknown as Console);
resetConfig();

/** The env files that were read, for the script's first line of output. */
export const envFiles = loadedEnvFiles.map((file) => file.path);
