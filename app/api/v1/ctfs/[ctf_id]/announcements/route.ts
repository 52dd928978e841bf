import { otherMethods } from "@/lib/platform/http/unrouted";
import { announcementContracts as announcements } from "@/lib/ctf/announcements/contracts";
import { listAnnouncements, postAnnouncement } from "@/lib/ctf/announcements/announcements";
import { handle } from "@/lib/registry/handle";

export const GET = handle(announcements.list, ({ db, workspaceId, params, query }) => listAnnouncements(db, workspaceId, params.ctf_id, query));
export const POST = handle(announcements.create, ({ db, workspaceId, params, body }) => postAnnouncement(db, workspaceId, params.ctf_id, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
