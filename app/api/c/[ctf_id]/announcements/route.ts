import { otherMethods } from "@/lib/platform/http/unrouted";
import { announcementContracts as announcements } from "@/lib/ctf/announcements/contracts";
import { publicAnnouncements } from "@/lib/ctf/announcements/announcements";
import { handle } from "@/lib/registry/handle";

export const GET = handle(announcements.publicList, ({ db, params, query }) => publicAnnouncements(db, params.ctf_id, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
