"use client";

import { useRef, useState } from "react";
import { callApi } from "@/components/api";
import { formatDateTime } from "@/components/format/date";
import { queryKeys } from "@/components/query-keys";
import { usePageQuery } from "@/components/use-page-query";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Markdown } from "@/components/ui/markdown";
import { announcementContracts } from "@/lib/ctf/announcements/contracts";
import type { PublicAnnouncementList, PublicAnnouncementView } from "@/lib/ctf/announcements/schemas";
import { unreadOf, useReadMarker } from "./announcements-read";

/** How often an open competition's page reads its announcements again (as its scoreboard). */
const REFRESH_MS = 5_000;

/** What a screen reader is told, politely, when announcements arrive while the page is open. */
function arrivalMessage(arrived: PublicAnnouncementView[]): string {
  if (arrived.length === 1) return `New announcement: ${arrived[0].title}`;
  return `${arrived.length} new announcements: ${arrived.map((a) => a.title).join("; ")}`;
}

/**
 * The organiser's announcements on a competition's page, newest first, in Markdown. The
 * server renders the first list; while the competition is deployed the page reads them again
 * every 5 s, so new ones appear without a reload, each said once to a screen reader (a
 * polite live region, present from the start). Unread ones (newer than the last one this
 * browser read) are counted and marked "New" once the browser's memory is known (never a
 * wrong count first); "Mark as read" reads them all. An archived competition without any
 * shows nothing.
 */
export function Announcements({ ctfId, initial, live }: { ctfId: string; initial: PublicAnnouncementList; live: boolean }) {
  const query = usePageQuery({
    queryKey: queryKeys.announcements(ctfId),
    queryFn: () => callApi(announcementContracts.publicList, { params: { ctf_id: ctfId } }),
    initial,
    staleTime: live ? 0 : Infinity,
    refetchInterval: live ? REFRESH_MS : false,
  });
  const list = query.data.data;
  const [seen, markRead] = useReadMarker(ctfId);
  const heading = useRef<HTMLHeadingElement>(null);

  // Arrivals since the page was shown: adjusted during render (React's pattern for state that follows props).
  const [known, setKnown] = useState(() => new Set(initial.data.map((a) => a.id)));
  const [message, setMessage] = useState("");
  const arrived = list.filter((a) => !known.has(a.id));
  if (arrived.length > 0) {
    setKnown(new Set([...known, ...arrived.map((a) => a.id)]));
    setMessage(arrivalMessage(arrived));
  }

  if (!live && list.length === 0) return null;
  const unread = seen === null ? [] : unreadOf(list, seen);
  const unreadIds = new Set(unread.map((a) => a.id));

  return (
    <section aria-labelledby="announcements-title" className="mt-8" data-testid="announcements">
      {/* The row keeps its size whether or not the count and the button show (the button is only hidden): nothing below moves. */}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h2 id="announcements-title" ref={heading} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
          Announcements
        </h2>
        <span data-testid="announcements-unread" data-count={seen === null ? undefined : unread.length}>
          {unread.length > 0 ? <Badge tone="info">{unread.length} new</Badge> : null}
        </span>
        <Button
          variant="secondary"
          // Hidden, not removed, when nothing is unread (visibility: hidden also takes it out of the tab order and the accessibility tree).
          className={`ml-auto ${unread.length > 0 ? "" : "invisible"}`}
          onClick={() => {
            if (list[0]) markRead(list[0]);
            // The button hides itself: the focus goes to the section, not to the page's start.
            heading.current?.focus();
          }}
        >
          Mark as read
        </Button>
      </div>
      <p className="sr-only" aria-live="polite" data-testid="announcements-live">
        {message}
      </p>
      {list.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No announcements yet. New ones appear here as the organisers post them.</p>
      ) : (
        <ol className="mt-3 space-y-3">
          {list.map((announcement) => (
            <li key={announcement.id}>
              <article
                aria-labelledby={`announcement-${announcement.id}`}
                className={`rounded-lg border bg-white p-4 ${unreadIds.has(announcement.id) ? "border-brand-300" : "border-slate-200"}`}
                data-testid="announcement"
                data-unread={unreadIds.has(announcement.id) ? "true" : undefined}
              >
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                  <h3 id={`announcement-${announcement.id}`} className="font-semibold [overflow-wrap:anywhere]">
                    {announcement.title}
                  </h3>
                  {unreadIds.has(announcement.id) ? <Badge tone="info">New</Badge> : null}
                  <time dateTime={announcement.created_at} className="text-xs text-slate-600">
                    {formatDateTime(announcement.created_at)}
                  </time>
                </div>
                <Markdown text={announcement.body} className="mt-2 text-sm text-slate-800 [overflow-wrap:anywhere]" />
              </article>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
