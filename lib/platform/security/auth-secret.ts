import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/kernel/config/config";
import { logger } from "@/lib/kernel/log";

let cached: string | undefined;

/**
 * AUTH_SECRET, or on the embedded defaults a random secret kept in .data/auth-secret so
 * sign-in links and the sealed links and secrets of the database (lib/platform/security/sealing.ts,
 * which derives its key from it by default) survive restarts without any setup. In production AUTH_SECRET is required
 * (lib/kernel/config/config.ts refuses to start without it).
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
    const generated = randomBytes(32).toString("base64url");
    // Written whole under another name, then linked into place (which fails if the file exists):
    // two processes starting at once (test workers) end up with one secret, and neither reads
    // a half-written file. It also derives the key that seals stored links (lib/platform/security/sealing.ts).
    const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    fs.writeFileSync(draft, generated, { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
      cached = generated;
      logger().warn({ context: "auth", file }, "AUTH_SECRET is not set: generated one (set AUTH_SECRET in production)");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      cached = fs.readFileSync(file, "utf8").trim();
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  return cached;
}
