"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * Which of a competition's announcements a visitor has read, remembered in this browser
 * (localStorage, per competition): the marker of the newest one they saw. Anything newer is
 * unread; a first visit has read nothing. A marker is `created_at|id`: ISO times in UTC and
 * ULIDs both sort as text, so comparing markers orders announcements as the API does.
 */

type Dated = { id: string; created_at: string };

const storageKey = (ctfId: string) => `certify:announcements-read:${ctfId}`;
/** Same-tab changes (the `storage` event only reaches other tabs). */
const changed = "certify:announcements-read";

/** Where the marker is kept when the browser refuses storage (private mode, blocked): this page only. */
const memory = new Map<string, string>();

export const markerOf = (announcement: Dated) => `${announcement.created_at}|${announcement.id}`;

/** The unread ones of `list`: newer than `seen` ("" = none read yet). */
export function unreadOf<T extends Dated>(list: T[], seen: string): T[] {
  return list.filter((announcement) => markerOf(announcement) > seen);
}

function read(ctfId: string): string {
  try {
    return window.localStorage.getItem(storageKey(ctfId)) ?? "";
  } catch {
    return memory.get(ctfId) ?? "";
  }
}

function subscribe(notify: () => void): () => void {
  window.addEventListener("storage", notify);
  window.addEventListener(changed, notify);
  return () => {
    window.removeEventListener("storage", notify);
    window.removeEventListener(changed, notify);
  };
}

/**
 * The visitor's marker, and a function that marks everything up to `newest` read. null while
 * it is not known yet (the server's render and hydration): the page then shows no count
 * rather than a wrong one.
 */
export function useReadMarker(ctfId: string): [string | null, (newest: Dated) => void] {
  const seen = useSyncExternalStore(
    subscribe,
    () => read(ctfId),
    () => null,
  );
  const markRead = useCallback(
    (newest: Dated) => {
      const marker = markerOf(newest);
      if (marker <= read(ctfId)) return;
      try {
        window.localStorage.setItem(storageKey(ctfId), marker);
      } catch {
        memory.set(ctfId, marker);
      }
      window.dispatchEvent(new Event(changed));
    },
    [ctfId],
  );
  return [seen, markRead];
}
