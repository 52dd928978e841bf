import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { members, playerSessions } from "@/db/schema";
import { config } from "@/lib/kernel/config/config";
import { newId } from "@/lib/kernel/ids";
import { isIdShaped } from "@/lib/kernel/values";
import { acceptInvitation } from "@/lib/ctf/competitions/members";
import { defaultPlayerName } from "@/lib/ctf/competitions/views";

/**
 * Players: a joined member of one competition, signed in to it by an HttpOnly cookie made
 * when the invitation is accepted (no account, no password). One cookie per competition,
 * `ctf_player_{ctf_id}`, so a browser can play several competitions and each cookie is set
 * and dropped on its own (no read-modify-write of a shared cookie). Its value is a random
 * token; only its SHA-256 is stored (like API keys), so the table cannot sign anyone in.
 */

/**
 * What the `player` caller kind hands a handler. `teamId`: the member's team when the request
 * came (teams mode; null otherwise or before they join one). Writes re-read it in their
 * transaction (an organiser may have removed them since).
 */
export type Player = { memberId: string; ctfId: string; name: string; teamId: string | null };

const TOKEN_PREFIX = "cp_";
/** Long enough to outlast a competition and its final scoreboard; the session row has no expiry of its own. */
export const PLAYER_COOKIE_MAX_AGE_S = 60 * 24 * 3600;

export function playerCookieName(ctfId: string): string {
  return `ctf_player_${ctfId}`;
}

/** The cookie's attributes: HttpOnly, SameSite=Lax, Path=/, Secure whenever the app is served over HTTPS. */
export function playerCookieOptions() {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: config().appUrl.startsWith("https:"), maxAge: PLAYER_COOKIE_MAX_AGE_S };
}

function hashPlayerToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

const isPlayerTokenShaped = (token: string) => /^cp_[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Accepts the invitation of `token` (joined, member.joined once) and signs the member in as
 * a player of that competition: a fresh session whose token goes into the cookie. Accepting
 * again (another browser, or after the cookie was lost) makes another session and keeps the
 * name unless a new one is given.
 */
export async function joinAsPlayer(db: Db, token: string, input: { name?: string } = {}): Promise<{ ctfId: string; player: Player; sessionToken: string }> {
  return transactionWithRetry(db, async (tx) => {
    const { member, ctf } = await acceptInvitation(tx, token);
    const [row] = await tx.select({ email: members.email, displayName: members.displayName, teamId: members.teamId }).from(members).where(eq(members.id, member.id));
    const name = input.name?.trim() || row.displayName || defaultPlayerName(row.email);
    if (name !== row.displayName) await tx.update(members).set({ displayName: name }).where(eq(members.id, member.id));
    const sessionToken = TOKEN_PREFIX + randomBytes(32).toString("base64url");
    await tx.insert(playerSessions).values({ id: newId("pls"), ctfId: ctf.id, memberId: member.id, tokenHash: hashPlayerToken(sessionToken) });
    return { ctfId: ctf.id, player: { memberId: member.id, ctfId: ctf.id, name, teamId: row.teamId }, sessionToken };
  });
}

/** The player a cookie's token signs in to `ctfId`, or null (unknown token, another competition's, not joined). */
export async function findPlayer(db: Db, ctfId: string, sessionToken: string | undefined): Promise<Player | null> {
  if (!sessionToken || !isPlayerTokenShaped(sessionToken) || !isIdShaped(ctfId, "ctf")) return null;
  const [row] = await db
    .select({ memberId: members.id, email: members.email, displayName: members.displayName, teamId: members.teamId })
    .from(playerSessions)
    .innerJoin(members, eq(members.id, playerSessions.memberId))
    .where(and(eq(playerSessions.tokenHash, hashPlayerToken(sessionToken)), eq(playerSessions.ctfId, ctfId), eq(members.status, "joined")));
  if (!row) return null;
  return { memberId: row.memberId, ctfId, name: row.displayName ?? defaultPlayerName(row.email), teamId: row.teamId };
}

