import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { classInvitations, members, recipients, type ClassInvitation, type Member, type Recipient } from "@/db/schema";
import { unseal } from "@/lib/platform/security/sealing";
import { hashToken } from "@/lib/platform/security/tokens";

/**
 * Personal tokens are stored hashed and sealed, never as they are (docs/security.md, "Tokens
 * and secrets at rest"): how a test finds a row by a token (by its hash, as the app does) or
 * reads a row's token (opening the sealed copy, as the app does to e-mail it again).
 */

export const recipientHasToken = (token: string) => eq(recipients.tokenHash, hashToken(token));

export async function recipientByToken(db: Db, token: string): Promise<Recipient> {
  const [recipient] = await db.select().from(recipients).where(recipientHasToken(token));
  if (!recipient) throw new Error(`no recipient has the token ${token}`);
  return recipient;
}

export const invitationToken = (invitation: Pick<ClassInvitation, "tokenSealed">) => unseal("class_invitations.token", invitation.tokenSealed);

export async function invitationTokenById(db: Db, invitationId: number): Promise<string> {
  const [invitation] = await db.select({ tokenSealed: classInvitations.tokenSealed }).from(classInvitations).where(eq(classInvitations.id, invitationId));
  return invitationToken(invitation);
}

export const memberToken = (member: Pick<Member, "tokenSealed">) => unseal("members.token", member.tokenSealed);

export async function memberTokenById(db: Db, memberId: string): Promise<string> {
  const [member] = await db.select({ tokenSealed: members.tokenSealed }).from(members).where(eq(members.id, memberId));
  return memberToken(member);
}
