import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { announcements, ctfs } from "@/db/schema";
import { conflict, notFound } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { countRows, readPage } from "@/lib/kernel/paged";
import type { Page, Paging } from "@/lib/kernel/paging";
import { isIdShaped } from "@/lib/kernel/values";
import { findCtf, runHost } from "@/lib/ctf/competitions/competitions";
import { publicCtfStatuses } from "@/lib/ctf/play/standings";
import { postCtfdNotification } from "./ctfd-notifications";
import { PUBLIC_ANNOUNCEMENTS_MAX, type AnnouncementView, type CreateAnnouncementInput, type PublicAnnouncementList, type PublicAnnouncementsQuery } from "./schemas";
import { toAnnouncementView, toPublicAnnouncementView } from "./views";

/**
 * What an organiser tells a competition's players. Posted and deleted in any state but
 * archived (an archived competition is settled: nothing changes afterwards, 409); read by the
 * organiser in any state and, on the competition's page, while its page is public (deployed
 * or archived). No webhook event: the nine lifecycle events stay as they are.
 */

const newestFirst = [desc(announcements.createdAt), desc(announcements.id)] as const;

export async function listAnnouncements(db: Db, workspaceId: string, ctfId: string, paging: Paging): Promise<Page<AnnouncementView>> {
  await findCtf(db, workspaceId, ctfId);
  const where = eq(announcements.ctfId, ctfId);
  return readPage(paging, db.select().from(announcements).where(where).orderBy(...newestFirst), countRows(db, announcements, where), toAnnouncementView);
}

/**
 * Posts an announcement. On a deployed CTFd-hosted competition it is posted to CTFd first
 * (outside the transaction, which may be run again): CTFd failing → 503 and nothing is kept.
 * The competition's row is then locked, so an archiving waits for the insert (or it sees the
 * archive and is refused).
 */
export async function postAnnouncement(db: Db, workspaceId: string, ctfId: string, input: CreateAnnouncementInput): Promise<AnnouncementView> {
  const ctf = await findCtf(db, workspaceId, ctfId);
  assertNotArchived(ctf.status);
  if (ctf.host === "ctfd" && ctf.status === "deployed") await runHost(() => postCtfdNotification(input));
  return transactionWithRetry(db, async (tx) => {
    const locked = await findCtf(tx, workspaceId, ctfId, true);
    assertNotArchived(locked.status);
    const [row] = await tx.insert(announcements).values({ id: newId("ann"), ctfId: locked.id, workspaceId: locked.workspaceId, title: input.title, body: input.body }).returning();
    return toAnnouncementView(row);
  });
}

function assertNotArchived(status: string): void {
  if (status === "archived") throw conflict("The competition is archived: its announcements stay as they are.");
}

/** Deletes an announcement (gone from the page at its next refresh); not once archived (409). */
export async function deleteAnnouncement(db: Db, workspaceId: string, ctfId: string, announcementId: string): Promise<void> {
  await transactionWithRetry(db, async (tx) => {
    const ctf = await findCtf(tx, workspaceId, ctfId, true);
    if (!isIdShaped(announcementId, "ann")) throw notFound("Announcement");
    assertNotArchived(ctf.status);
    const deleted = await tx
      .delete(announcements)
      .where(and(eq(announcements.id, announcementId), eq(announcements.ctfId, ctf.id)))
      .returning({ id: announcements.id });
    if (deleted.length === 0) throw notFound("Announcement");
  });
}

/**
 * The announcements of a competition's page (`GET /api/c/{ctf_id}/announcements`): the
 * latest 50, newest first, those after `since` when it is given; a competition whose page is
 * not public (a draft, a stopped instance) is a 404, as for its scoreboard.
 */
export async function publicAnnouncements(db: Db, ctfId: string, query: PublicAnnouncementsQuery = {}): Promise<PublicAnnouncementList> {
  if (!isIdShaped(ctfId, "ctf")) throw notFound("Competition");
  const [ctf] = await db
    .select({ id: ctfs.id })
    .from(ctfs)
    .where(and(eq(ctfs.id, ctfId), inArray(ctfs.status, [...publicCtfStatuses])));
  if (!ctf) throw notFound("Competition");
  const rows = await db
    .select({ id: announcements.id, title: announcements.title, body: announcements.body, createdAt: announcements.createdAt })
    .from(announcements)
    .where(and(eq(announcements.ctfId, ctf.id), query.since ? gt(announcements.createdAt, query.since) : undefined))
    .orderBy(...newestFirst)
    .limit(PUBLIC_ANNOUNCEMENTS_MAX);
  return { data: rows.map(toPublicAnnouncementView) };
}
