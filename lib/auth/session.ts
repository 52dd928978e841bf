import { getDb } from "@/db";
import type { Workspace } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { ensureWorkspace } from "@/lib/workspaces";
import { auth } from "./auth";

export type SessionUser = { id: string; email: string; name?: string | null };

/** The signed-in user, or undefined. */
export async function currentUser(): Promise<SessionUser | undefined> {
  const session = await auth();
  const user = session?.user;
  if (!user?.id || !user.email) return undefined;
  return { id: user.id, email: user.email, name: user.name };
}

/** The signed-in user and their workspace (created on first use); 401 when signed out. */
export async function requireWorkspace(): Promise<{ user: SessionUser; workspace: Workspace }> {
  const user = await currentUser();
  if (!user) throw new AppError("unauthorized", "Sign in first.");
  const workspace = await ensureWorkspace(await getDb(), user);
  return { user, workspace };
}
