import { z } from "zod";
import { isoDateTime } from "@/lib/kernel/fields";
import { pageSchema } from "@/lib/kernel/paging";
import { DISPLAY_LINE_MESSAGE, isDisplayLine } from "@/lib/kernel/values";

/** The most announcements the public page's route answers: the latest ones. */
export const PUBLIC_ANNOUNCEMENTS_MAX = 50;

/** `POST /api/v1/ctfs/{ctf_id}/announcements`. */
export const createAnnouncementInput = z.object({
  title: z
    .string()
    .trim()
    .min(1, "Give the announcement a title.")
    .max(200, "title can be at most 200 characters.")
    .refine(isDisplayLine, DISPLAY_LINE_MESSAGE)
    .meta({ description: "1–200 characters, trimmed; one line of visible text (no line breaks, control, invisible, formatting or text-direction characters)." }),
  body: z
    .string()
    .trim()
    .min(1, "Write the announcement.")
    .max(5000, "body can be at most 5000 characters.")
    .meta({ description: "Markdown, shown on the competition's page rendered safely (no raw HTML; links `rel=\"noopener nofollow\"`), as challenge descriptions are." }),
});
export type CreateAnnouncementInput = z.output<typeof createAnnouncementInput>;

/** `GET /api/c/{ctf_id}/announcements?since=`. */
export const publicAnnouncementsQuery = z.object({
  since: isoDateTime("since").optional().meta({ description: "Only announcements posted after this moment (ISO 8601 with an offset)." }),
});
export type PublicAnnouncementsQuery = z.output<typeof publicAnnouncementsQuery>;

const fields = {
  id: z.string().meta({ example: "ann_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
  title: z.string(),
  body: z.string().meta({ description: "Markdown." }),
  created_at: z.string(),
};

export const announcementView = z
  .object({ id: fields.id, managed_ctf_id: z.string(), title: fields.title, body: fields.body, created_at: fields.created_at })
  .meta({ id: "Announcement" });
export type AnnouncementView = z.infer<typeof announcementView>;
export const announcementList = pageSchema(announcementView).meta({ id: "AnnouncementList" });

/** What the competition's page shows: the announcement without the organiser's ids. */
export const publicAnnouncementView = z.object(fields).meta({ id: "PublicAnnouncement" });
export type PublicAnnouncementView = z.infer<typeof publicAnnouncementView>;
export const publicAnnouncementList = z
  .object({ data: z.array(publicAnnouncementView).meta({ description: `Newest first; at most ${PUBLIC_ANNOUNCEMENTS_MAX} (the latest).` }) })
  .meta({ id: "PublicAnnouncementList" });
export type PublicAnnouncementList = z.infer<typeof publicAnnouncementList>;
