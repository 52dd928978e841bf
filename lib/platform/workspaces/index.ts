import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { users, workspaces, type PlanName, type Workspace } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { defaultWorkspaceName } from "./sender";

/** The user's workspace, created on first use (first sign-in) on the free plan. */
export async function ensureWorkspace(db: Db, user: { id: string; email?: string | null }): Promise<Workspace> {
  const [existing] = await db.select().from(workspaces).where(eq(workspaces.ownerUserId, user.id));
  if (existing) return existing;
  // Until the trainer names it (the welcome step, Settings), recipients read their name instead (sender.ts).
  const name = defaultWorkspaceName(user.email);
  await db.insert(workspaces).values({ id: newId("ws"), name, ownerUserId: user.id }).onConflictDoNothing();
  const [created] = await db.select().from(workspaces).where(eq(workspaces.ownerUserId, user.id));
  return created;
}

/** The user with this e-mail (created if absent) and their workspace: used by the admin CLI. */
export async function ensureUserWorkspace(db: Db, email: string): Promise<{ userId: string; workspace: Workspace }> {
  const normalized = email.trim().toLowerCase();
  await db.insert(users).values({ email: normalized }).onConflictDoNothing();
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${normalized}`);
  return { userId: user.id, workspace: await ensureWorkspace(db, user) };
}

export async function setPlan(db: Db, workspaceId: string, plan: PlanName): Promise<Workspace> {
  const [updated] = await db.update(workspaces).set({ plan }).where(eq(workspaces.id, workspaceId)).returning();
  if (!updated) throw new AppError("not_found", "Workspace not found.");
  return updated;
}
