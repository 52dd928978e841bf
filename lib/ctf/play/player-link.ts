import { createElement } from "react";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { ctfs, members } from "@/db/schema";
import { PlayerLinkEmail, playerLinkSubject } from "@/lib/ctf/emails/player-link";
import { notFound } from "@/lib/kernel/errors";
import { isIdShaped } from "@/lib/kernel/values";
import { admitPublicMail } from "@/lib/platform/ratelimit/mail";
import { memberLink } from "@/lib/ctf/competitions/members";
import type { InviteMemberInput } from "@/lib/ctf/competitions/schemas";
import { queueEmail } from "@/lib/platform/pipeline/channels/email/queue";
import { workspaceSender } from "@/lib/platform/workspaces/sender";

/**
 * "Send me my link again" on a deployed competition's page: a member (invited or joined)
 * gets their own link by e-mail, the way back in on another browser. A public form that
 * mails whoever is named, so it shares the public mail limits (lib/platform/ratelimit/mail.ts); an
 * unknown address gets nothing, and the caller answers the same in every case.
 */
export async function resendPlayerLink(db: Db, ctfId: string, { email }: InviteMemberInput, client: string | null = null): Promise<void> {
  if (!isIdShaped(ctfId, "ctf")) throw notFound("Competition");
  await transactionWithRetry(db, async (tx) => {
    const [ctf] = await tx.select().from(ctfs).where(and(eq(ctfs.id, ctfId), eq(ctfs.status, "deployed")));
    if (!ctf) throw notFound("Competition");
    const [member] = await tx.select().from(members).where(and(eq(members.ctfId, ctf.id), eq(members.email, email)));
    if (!member) return;
    // Counted in the transaction that queues the mail: an address that gets nothing is not charged.
    if (!(await admitPublicMail(tx, email, client))) return;
    const props = { title: ctf.title, organizer: await workspaceSender(tx, ctf.workspaceId), link: memberLink(member) };
    await queueEmail(tx, {
      kind: "player_link",
      workspaceId: ctf.workspaceId,
      to: email,
      subject: playerLinkSubject(props),
      react: createElement(PlayerLinkEmail, props),
      links: [props.link],
    });
  });
}
