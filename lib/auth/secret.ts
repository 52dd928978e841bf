import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

let cached: string | undefined;

/**
 * AUTH_SECRET, or on the embedded defaults a random secret kept in .data/auth-secret so
 * sessions survive restarts without any setup. Production deployments set AUTH_SECRET.
 */
export function authSecret(): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET;
  if (cached) return cached;
  const file = path.join(process.cwd(), ".data", "auth-secret");
  try {
    cached = fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    cached = randomBytes(32).toString("base64url");
    fs.writeFileSync(file, cached, { mode: 0o600 });
    console.warn(`AUTH_SECRET is not set: generated one in ${file}. Set AUTH_SECRET in production.`);
  }
  return cached;
}
