import { config } from "@/lib/kernel/config/config";
import { envFiles } from "./load-env";
import { defaultDataDir } from "@/lib/platform/database";

/** Which database a script is about to use, and from which env files: never silently the wrong one. */
export function describeDatabase(): string {
  const { directUrl } = config().database;
  const where = directUrl ? `PostgreSQL at ${safeLocation(directUrl)}` : `embedded PGlite in ${defaultDataDir()}`;
  return `${where} (env files: ${envFiles.join(", ") || "none"})`;
}

/** host:port/database, without user or password. */
function safeLocation(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return "(unparseable URL)";
  }
}
