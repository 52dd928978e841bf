import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";
import { logger } from "@/lib/log";

let cached: string | undefined;

/**
 * AUTH_SECRET, or on the embedded defaults a random secret kept in .data/auth-secret so
 * sessions survive restarts without any setup. In production AUTH_SECRET is required
 * (lib/config.ts refuses to start without it).
 */
export function authSecret(): string {
  const configured = config().auth.secret;
  if (configured) return configured;
  if (cached) return cached;
  const file = path.join(process.cwd(), ".data", "auth-secret");
  try {
    cached = fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    cached = randomBytes(32).toString("base64url");
    fs.writeFileSync(file, cached, { mode: 0o600 });
    logger().warn({ context: "auth", file }, "AUTH_SECRET is not set: generated one (set AUTH_SECRET in production)");
  }
  return cached;
}
