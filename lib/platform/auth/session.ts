import type { Workspace } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import { ensureWorkspace } from "@/lib/platform/workspaces";
import { asUnavailable } from "@/lib/platform/server/unavailable";
import { readSession } from "./auth";
import { getDb } from "@/lib/platform/database";

export type SessionUser = { id: string; email: string; name?: string | null };

/**
 * The signed-in user, or undefined when nobody is signed in. When the session cannot be
 * looked up (the database is unavailable) it throws the service_unavailable error (503 in a
 * route, the unavailable page in a page): a signed-in user is never taken for signed out.
 */
export async function currentUser(): Promise<SessionUser | undefined> {
  let session;
  try {
    session = await readSession();
  } catch (error) {
    throw asUnavailable(error) ?? error;
  }
  const user = session?.user;
  if (!user?.id || !user.email) return undefined;
  return { id: user.id, email: user.email, name: user.name };
}

/** Auth.js's session cookie (database sessions): `authjs.session-token`, `__Secure-` prefixed over HTTPS. */
const SESSION_COOKIE = /^(__Secure-)?authjs\.session-token(\.\d+)?$/;

/**
 * Whether a request with these cookies may carry a session. Without the session cookie nobody
 * is signed in, and `currentUser()` (a database read) can be skipped: the recipient's page of
 * a class exam is opened by a thousand people who are not signed in.
 */
export function mayBeSignedIn(cookieNames: Iterable<string>): boolean {
  for (const name of cookieNames) if (SESSION_COOKIE.test(name)) return true;
  return false;
}

/** The signed-in user and their workspace (created on first use); 401 when signed out. */
export async function requireWorkspace(): Promise<{ user: SessionUser; workspace: Workspace }> {
  const user = await currentUser();
  if (!user) throw new AppError("unauthorized", "Sign in first.");
  try {
    const workspace = await ensureWorkspace(await getDb(), user);
    return { user, workspace };
  } catch (error) {
    throw asUnavailable(error) ?? error;
  }
}
