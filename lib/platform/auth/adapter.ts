import type { Adapter, AdapterSession } from "@auth/core/adapters";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import type { Db } from "@/db";
import { accounts, sessions, users, verificationTokens } from "@/db/schema";
import { hashToken } from "@/lib/platform/security/tokens";

/** Auth.js's database adapter: the Drizzle one over our tables, its sessions stored hashed. */
export function databaseAdapter(db: Db): Adapter {
  return hashingSessionTokens(
    DrizzleAdapter(db, {
      usersTable: users,
      accountsTable: accounts,
      sessionsTable: sessions,
      verificationTokensTable: verificationTokens,
    }),
  );
}

/**
 * Sessions at rest: the browser's cookie keeps the random session token Auth.js made; the
 * `session` row keeps only its SHA-256, so a copy of the database holds no live cookie.
 * Every session method hashes the token on the way in and gives the caller's token back on
 * the way out (Auth.js sets the cookie from what `createSession` returns). Errors pass
 * through unchanged: lib/platform/auth/auth.ts's outage wrapper still sees them.
 */
export function hashingSessionTokens(adapter: Adapter): Adapter {
  const { createSession, getSessionAndUser, updateSession, deleteSession } = adapter;
  const hashed: Adapter = { ...adapter };
  if (createSession) {
    hashed.createSession = async (session) => ({ ...(await createSession.call(adapter, { ...session, sessionToken: hashToken(session.sessionToken) })), sessionToken: session.sessionToken });
  }
  if (getSessionAndUser) {
    hashed.getSessionAndUser = async (sessionToken) => {
      const found = await getSessionAndUser.call(adapter, hashToken(sessionToken));
      return found && { ...found, session: { ...found.session, sessionToken } };
    };
  }
  if (updateSession) {
    hashed.updateSession = async (session) => {
      const updated = await updateSession.call(adapter, { ...session, sessionToken: hashToken(session.sessionToken) });
      return updated && { ...updated, sessionToken: session.sessionToken };
    };
  }
  if (deleteSession) {
    hashed.deleteSession = async (sessionToken): Promise<AdapterSession | null | undefined> => {
      const deleted = await deleteSession.call(adapter, hashToken(sessionToken));
      return deleted ? { ...deleted, sessionToken } : null;
    };
  }
  return hashed;
}
