import type { Announcement } from "@/db/schema";
import type { AnnouncementView, PublicAnnouncementView } from "./schemas";

export function toAnnouncementView(row: Announcement): AnnouncementView {
  return { id: row.id, managed_ctf_id: row.ctfId, title: row.title, body: row.body, created_at: row.createdAt.toISOString() };
}

export function toPublicAnnouncementView(row: Pick<Announcement, "id" | "title" | "body" | "createdAt">): PublicAnnouncementView {
  return { id: row.id, title: row.title, body: row.body, created_at: row.createdAt.toISOString() };
}
