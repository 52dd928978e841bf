import { createHash } from "node:crypto";
import { AppError, notFound } from "@/lib/kernel/errors";
import { xorByte } from "@/lib/ctf/templates/kit/bytes";
import { defineTemplate, type TargetState } from "@/lib/ctf/templates/kit/types";

/**
 * Cookie Jar (web): the target signs visitors in as a guest with a session cookie it only
 * encodes, never signs with a secret; the admin page believes whatever the cookie says.
 * easy: base64 JSON; medium: base64 `key=value` pairs; hard: base64url JSON plus an unkeyed
 * SHA-256 "signature"; insane: hex of JSON XORed with one secret byte.
 */
type State = TargetState & { user: string; uid: number; key: number };

const COOKIE = "jar_session";

type Session = { user: string; uid: number; role: string };

function encode(state: State, session: Session): string {
  const json = JSON.stringify(session);
  switch (state.difficulty) {
    case "easy":
      return Buffer.from(json).toString("base64");
    case "medium":
      return Buffer.from(`user=${session.user}|uid=${session.uid}|role=${session.role}`).toString("base64");
    case "hard": {
      const payload = Buffer.from(json).toString("base64url");
      return `${payload}.${createHash("sha256").update(payload).digest("hex").slice(0, 16)}`;
    }
    case "insane":
      return xorByte(Buffer.from(json), state.key).toString("hex");
  }
}

/** The session a cookie claims, or null when it does not decode the way this jar encodes. */
function decode(state: State, value: string): Session | null {
  try {
    let json: string;
    switch (state.difficulty) {
      case "easy":
        json = Buffer.from(value, "base64").toString("utf8");
        break;
      case "medium": {
        const fields = Object.fromEntries(
          Buffer.from(value, "base64")
            .toString("utf8")
            .split("|")
            .map((pair) => pair.split("=", 2)),
        );
        return typeof fields.user === "string" && typeof fields.role === "string" ? { user: fields.user, uid: Number(fields.uid), role: fields.role } : null;
      }
      case "hard": {
        const [payload, signature] = value.split(".");
        if (!payload || signature !== createHash("sha256").update(payload).digest("hex").slice(0, 16)) return null;
        json = Buffer.from(payload, "base64url").toString("utf8");
        break;
      }
      case "insane":
        if (!/^(?:[0-9a-f]{2})+$/i.test(value)) return null;
        json = xorByte(Buffer.from(value, "hex"), state.key).toString("utf8");
        break;
    }
    const parsed = JSON.parse(json) as Partial<Session>;
    return typeof parsed.user === "string" && typeof parsed.role === "string" ? { user: parsed.user, uid: Number(parsed.uid), role: parsed.role } : null;
  } catch {
    return null;
  }
}

const formats = {
  easy: "It is Base64 of a JSON object: decode it, change the role to admin, encode it again.",
  medium: "It is Base64 of `user=…|uid=…|role=user`: decode it, change the role to admin, encode it again.",
  hard: "It is `payload.signature`: the payload is base64url JSON and the signature the first 16 hex digits of SHA-256 of the payload, with no secret — change the role to admin and compute the signature yourself.",
  insane: "It is hex of JSON XORed with one byte: the first byte must be `{`, which gives the key; XOR the forged JSON with it.",
} as const;

export const cookieJar = defineTemplate<State>({
  key: "cookie-jar",
  build({ difficulty, rng }) {
    const state: State = { difficulty, user: rng.pick(["guest", "visitor", "intern", "trainee"]), uid: rng.between(1000, 9999), key: rng.between(1, 255) };
    return {
      description: "The admin panel of the target trusts its session cookie a little too much. Sign in as a guest, then convince the admin page that you are the admin.",
      hints: ["Look at the cookie the server sets when you sign in.", "Encoding is not signing: what can you change?"],
      solution: [
        "Open the target's `login` page: it sets the cookie `jar_session` and signs you in as a guest.",
        `Read the cookie. ${formats[difficulty]}`,
        "Send the forged cookie to the `admin` page: it shows the flag.",
      ],
      target: state,
    };
  },
  serve(state, request) {
    switch (request.page) {
      case "index":
        return { text: "The Cookie Jar\n\nSign in as a guest: ./login\nThe admin panel: ./admin\n" };
      case "login": {
        const value = encode(state, { user: state.user, uid: state.uid, role: "user" });
        return {
          text: `Signed in as ${state.user} (role: user).\nThe admin panel is at ./admin\n`,
          setCookies: [`${COOKIE}=${value}; Path=${request.basePath}; SameSite=Lax`],
        };
      }
      case "admin": {
        const raw = request.cookie(COOKIE);
        if (!raw) throw new AppError("forbidden", "Sign in first: ./login");
        const session = decode(state, raw);
        if (!session) throw new AppError("forbidden", "Your session cookie is not valid: sign in again at ./login.");
        if (session.role !== "admin") throw new AppError("forbidden", `Admins only: you are ${session.user} (role: ${session.role}).`);
        return { text: `Welcome back, ${session.user} (role: admin).\nThe vault code is ${request.flag}\n` };
      }
      default:
        throw notFound("Page");
    }
  },
});
