import { otherMethods } from "@/lib/platform/http/unrouted";
import { announcementContracts as announcements } from "@/lib/ctf/announcements/contracts";
import { deleteAnnouncement } from "@/lib/ctf/announcements/announcements";
import { handle } from "@/lib/registry/handle";

export const DELETE = handle(announcements.remove, ({ db, workspaceId, params }) => deleteAnnouncement(db, workspaceId, params.ctf_id, params.announcement_id));
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
