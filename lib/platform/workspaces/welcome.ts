import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { users, workspaces } from "@/db/schema";
import { notFound } from "@/lib/kernel/errors";
import type { WelcomeInput, WelcomeView } from "./schemas";
import { isDefaultWorkspaceName, senderName, senderPartsOf } from "./sender";

/**
 * The first sign-in's welcome step (your name, your organisation's name; both optional).
 * Whether it was answered needs no column of its own: the owner's `name` (Auth.js's users
 * table) is null until the step is answered and a string after it (empty: skipped or left
 * blank), and a workspace already named (not its default name) needs no asking. Workspaces
 * created before the step get it once too, on their default name.
 */
export async function welcomeState(db: Db, workspaceId: string): Promise<WelcomeView> {
  const row = await senderPartsOf(db, workspaceId);
  return { show: row.ownerName === null && isDefaultWorkspaceName(row.name, row.ownerEmail), sender: senderName(row) };
}

/**
 * Saves (or, with nothing given, skips) the welcome step: a name given becomes the owner's,
 * an organisation name becomes the workspace's name; the step is answered either way. A name
 * the owner already has stays when none is given.
 */
export async function answerWelcome(db: Db, workspaceId: string, input: WelcomeInput): Promise<WelcomeView> {
  await transactionWithRetry(db, async (tx) => {
    const [workspace] = await tx.select({ owner: workspaces.ownerUserId }).from(workspaces).where(eq(workspaces.id, workspaceId));
    if (!workspace) throw notFound("Workspace");
    const yourName = input.your_name ? input.your_name : sql<string>`coalesce(${users.name}, '')`;
    await tx.update(users).set({ name: yourName }).where(eq(users.id, workspace.owner));
    if (input.organisation_name) await tx.update(workspaces).set({ name: input.organisation_name }).where(eq(workspaces.id, workspaceId));
  });
  return welcomeState(db, workspaceId);
}
