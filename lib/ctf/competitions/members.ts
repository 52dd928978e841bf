import { createElement } from "react";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { transactionWithRetry } from "@/db/transaction";
import { ctfs, members, type Ctf, type Member } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import { MemberInvitationEmail, memberInvitationSubject } from "@/lib/ctf/emails/member-invitation";
import { conflict, notFound } from "@/lib/kernel/errors";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { newId } from "@/lib/kernel/ids";
import { admitPublicMail } from "@/lib/platform/ratelimit/mail";
import { unseal } from "@/lib/platform/security/sealing";
import { hashToken, isTokenShaped, newToken, storedToken } from "@/lib/platform/security/tokens";
import { findCtf } from "./competitions";
import type { InviteMemberInput, MemberView } from "./schemas";
import { toMemberView } from "./views";
import { appUrl } from "@/lib/kernel/config/config";
import { queueEmail } from "@/lib/platform/pipeline/channels/email/queue";
import { workspaceSender } from "@/lib/platform/workspaces/sender";

/** The member's own link (accepting the invitation signs the player in), opened from its sealed copy. */
export function memberLink(member: Pick<Member, "tokenSealed">): string {
  return `${appUrl()}/c/join/${unseal("members.token", member.tokenSealed)}`;
}

export async function listMembers(db: Db, workspaceId: string, ctfId: string, paging: Paging): Promise<Page<MemberView>> {
  await findCtf(db, workspaceId, ctfId);
  const where = eq(members.ctfId, ctfId);
  return readPage(paging, db.select().from(members).where(where).orderBy(asc(members.invitedAt), asc(members.id)), countRows(db, members, where), toMemberView);
}

/** Invites (or re-invites) by e-mail: member.invited each time; a joined member → 409. */
export async function inviteMember(db: Db, workspaceId: string, ctfId: string, { email }: InviteMemberInput): Promise<MemberView> {
  return transactionWithRetry(db, async (tx) => {
    const ctf = await findCtf(tx, workspaceId, ctfId, true);
    if (ctf.status === "archived") throw conflict("The competition is archived.");
    return toMemberView(await invite(tx, ctf, email, { selfEnrolled: false }));
  });
}

async function invite(tx: Db, ctf: Ctf, email: string, options: { selfEnrolled: boolean }): Promise<Member> {
  const [existing] = await tx.select().from(members).where(and(eq(members.ctfId, ctf.id), eq(members.email, email))).for("update");
  if (existing?.status === "joined") throw conflict(`${email} has already joined this competition.`);
  const now = new Date();
  const [member] = existing
    ? await tx.update(members).set({ invitations: existing.invitations + 1, invitedAt: now }).where(eq(members.id, existing.id)).returning()
    : await tx.insert(members).values({ id: newId("mem"), ctfId: ctf.id, workspaceId: ctf.workspaceId, email, ...storedToken("members.token", newToken()), selfEnrolled: options.selfEnrolled, invitedAt: now }).returning();
  const props = {
    title: ctf.title,
    organizer: await workspaceSender(tx, ctf.workspaceId),
    link: memberLink(member),
    startsAt: ctf.startsAt,
    endsAt: ctf.endsAt,
    sentAt: now,
    selfEnrolled: options.selfEnrolled,
  };
  await queueEmail(tx, {
    kind: "member_invitation",
    workspaceId: ctf.workspaceId,
    to: email,
    subject: memberInvitationSubject(props),
    react: createElement(MemberInvitationEmail, props),
    links: [props.link],
  });
  await publishEvent(tx, ctf.workspaceId, "member.invited", {
    managed_ctf_id: ctf.id,
    member_id: member.id,
    email,
    invited_at: now.toISOString(),
    reinvited: Boolean(existing),
    self_enrolled: options.selfEnrolled,
  });
  return member;
}

/**
 * Self-enrolment on a public, deployed competition: an invitation the visitor asked for.
 * A public form that e-mails whoever is named, so it is limited per address and per client
 * (`client`: the requester's address, see lib/platform/ratelimit/client-ip.ts). Past a limit nothing
 * is written, mailed or published and null comes back; the caller answers as on success.
 * A member who has already joined is returned as they are, with nothing written, sent or
 * charged: the caller sends their own link instead (resendPlayerLink, under the same
 * limits) and answers as for anyone else, so the form tells nobody who has joined.
 */
export async function selfEnrol(db: Db, ctfId: string, { email }: InviteMemberInput, client: string | null = null): Promise<MemberView | null> {
  return transactionWithRetry(db, async (tx) => {
    const [ctf] = await tx.select().from(ctfs).where(eq(ctfs.id, ctfId)).for("update");
    if (!ctf || !ctf.isPublic || ctf.status !== "deployed") throw notFound("Competition");
    // The competition's row lock orders this against an acceptance (acceptInvitation takes it first too).
    const [existing] = await tx.select().from(members).where(and(eq(members.ctfId, ctf.id), eq(members.email, email)));
    if (existing?.status === "joined") return toMemberView(existing);
    if (!(await admitPublicMail(tx, email, client))) return null;
    return toMemberView(await invite(tx, ctf, email, { selfEnrolled: true }));
  });
}

/** The invitee follows the e-mailed link: joined, then member.joined (once). */
export async function acceptInvitation(db: Db, token: string): Promise<{ member: MemberView; ctf: Ctf }> {
  if (!isTokenShaped(token)) throw notFound("Invitation");
  return transactionWithRetry(db, async (tx) => {
    // Competition first, then member: the order invite() takes them in, so an acceptance
    // and a re-invitation of the same member cannot deadlock.
    const tokenHash = hashToken(token);
    const [found] = await tx.select({ ctfId: members.ctfId }).from(members).where(eq(members.tokenHash, tokenHash));
    if (!found) throw notFound("Invitation");
    const [ctf] = await tx.select().from(ctfs).where(eq(ctfs.id, found.ctfId)).for("update");
    const [member] = await tx.select().from(members).where(eq(members.tokenHash, tokenHash)).for("update");
    if (!ctf || !member) throw notFound("Invitation");
    const row = { member, ctf };
    if (row.member.status === "joined") return { member: toMemberView(row.member), ctf: row.ctf };
    if (row.ctf.status === "archived") throw conflict("This competition is archived.");
    const joinedAt = new Date();
    const [joined] = await tx.update(members).set({ status: "joined", joinedAt }).where(eq(members.id, row.member.id)).returning();
    await publishEvent(tx, row.ctf.workspaceId, "member.joined", {
      managed_ctf_id: row.ctf.id,
      member_id: joined.id,
      email: joined.email,
      joined_at: joinedAt.toISOString(),
    });
    return { member: toMemberView(joined), ctf: row.ctf };
  });
}
