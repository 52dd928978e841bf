import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { users, workspaces } from "@/db/schema";
import { notFound } from "@/lib/kernel/errors";

/** A new workspace's name until its trainer names it (ensureWorkspace). */
export function defaultWorkspaceName(email: string | null | undefined): string {
  return email ? `${email.split("@")[0]}'s workspace` : "My workspace";
}

/**
 * Whether the workspace still has the name it was created with ("trainer.walk's workspace",
 * "My workspace"): nobody chose it, so no recipient should read it. Workspaces created before
 * the welcome step carry the same names, so they are covered too.
 */
export function isDefaultWorkspaceName(name: string, ownerEmail: string | null | undefined): boolean {
  return name === defaultWorkspaceName(ownerEmail) || name === defaultWorkspaceName(null);
}

/** What `senderName` reads: the workspace's names and its owner (the Auth.js user). */
export type SenderParts = { name: string; organisationName: string; ownerName: string | null; ownerEmail: string | null };

/** The columns of `SenderParts`, for a query that joins `users` on the workspace's owner (`joinOwner`). */
export const senderColumns = {
  name: workspaces.name,
  organisationName: workspaces.organisationName,
  ownerName: users.name,
  ownerEmail: users.email,
};
export const joinOwner = eq(users.id, workspaces.ownerUserId);

/**
 * Who recipients, students and players read as the sender ("<sender> sent you a practice
 * test", "Trainer: <sender>", "run by <sender>"): the organisation's name (the workspace's
 * name once chosen, else the certificates' issuer if set), else the person's name, else their
 * e-mail address. Never the default "<local part>'s workspace".
 */
export function senderName({ name, organisationName, ownerName, ownerEmail }: SenderParts): string {
  if (!isDefaultWorkspaceName(name, ownerEmail)) return name;
  return organisationName.trim() || ownerName?.trim() || ownerEmail || name;
}

/** What `senderName` reads of a workspace and its owner, read through `db` (a transaction's own writes included). */
export async function senderPartsOf(db: Db, workspaceId: string): Promise<SenderParts> {
  const [row] = await db.select(senderColumns).from(workspaces).innerJoin(users, joinOwner).where(eq(workspaces.id, workspaceId));
  if (!row) throw notFound("Workspace");
  return row;
}

/** The sender's name of a workspace (`senderName`). */
export async function workspaceSender(db: Db, workspaceId: string): Promise<string> {
  return senderName(await senderPartsOf(db, workspaceId));
}
