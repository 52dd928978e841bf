import { contract, prefixedParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import { ctfParams } from "@/lib/ctf/competitions/contracts";
import { announcementList, announcementView, createAnnouncementInput, PUBLIC_ANNOUNCEMENTS_MAX, publicAnnouncementList, publicAnnouncementsQuery } from "./schemas";

const announcementParams = ctfParams.extend({ announcement_id: prefixedParam("ann", "Announcement") });
const tag = "Announcements";

/** A competition's announcements: the organiser's (an API key or the dashboard's session) and the competition page's. */
export const announcementContracts = {
  list: contract({
    id: "announcements.list",
    method: "GET",
    path: "/api/v1/ctfs/{ctf_id}/announcements",
    caller: "workspace",
    scope: "ctf:read",
    params: ctfParams,
    query: pagingQuery,
    status: 200,
    response: announcementList,
    docs: { tag, summary: "List a competition's announcements", description: "A page of announcements, newest first, in any state of the competition." },
  }),
  create: contract({
    id: "announcements.create",
    method: "POST",
    path: "/api/v1/ctfs/{ctf_id}/announcements",
    caller: "workspace",
    scope: "ctf:write",
    params: ctfParams,
    body: createAnnouncementInput,
    status: 201,
    response: announcementView,
    docs: {
      tag,
      summary: "Post an announcement",
      description:
        "A title and a Markdown body, shown on the competition's page (`/c/{id}`) within seconds, without a reload, newest first with a count of unread ones. In any state but archived (409). No webhook event is sent. On a deployed CTFd-hosted competition it is also posted to CTFd as a notification (CTFd failing → 503, nothing kept); deleting it here does not remove CTFd's copy.",
      errors: [409, 503],
    },
  }),
  remove: contract({
    id: "announcements.delete",
    method: "DELETE",
    path: "/api/v1/ctfs/{ctf_id}/announcements/{announcement_id}",
    caller: "workspace",
    scope: "ctf:write",
    params: announcementParams,
    status: 204,
    docs: { tag, summary: "Delete an announcement", description: "It leaves the competition's page at its next refresh. Not once the competition is archived (409).", errors: [409] },
  }),
  publicList: contract({
    id: "play.announcements",
    method: "GET",
    path: "/api/c/{ctf_id}/announcements",
    caller: "public",
    params: ctfParams,
    query: publicAnnouncementsQuery,
    status: 200,
    response: publicAnnouncementList,
    docs: {
      tag: "Public pages",
      summary: "The announcements of a competition's page",
      description: `The latest ${PUBLIC_ANNOUNCEMENTS_MAX}, newest first (\`since\`: only those posted after it); the page polls it. A deployed or archived competition only, as its public scoreboard; any other state → 404.`,
    },
  }),
};
