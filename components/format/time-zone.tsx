"use client";

import { useSyncExternalStore } from "react";
import { formatWindow } from "./date";
import { localZoneLabel } from "./date-input";

const noSubscription = () => () => {};

/** The browser's zone, known only once rendered in the browser (null on the server and while hydrating). */
function useBrowserZone(): string | null {
  return useSyncExternalStore(
    noSubscription,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => null,
  );
}

/** What the date-time pickers of a form mean: "Times in your time zone (Europe/Paris, UTC+01:00)." */
export function ZoneNote({ id }: { id: string }) {
  const zone = useBrowserZone();
  return (
    <p id={id} className="text-xs text-slate-600" data-testid="time-zone-note">
      Times in your time zone{zone ? ` (${localZoneLabel()})` : ""}; they are shown in UTC once saved.
    </p>
  );
}

/** A window in the viewer's own zone, beside its UTC form; nothing when the viewer's zone is UTC. */
export function LocalWindow({ startsAt, endsAt }: { startsAt: string; endsAt: string }) {
  const zone = useBrowserZone();
  if (!zone || zone === "UTC" || zone === "Etc/UTC") return null;
  return (
    <span className="block text-slate-500" data-testid="ctf-window-local">
      Your time: {formatWindow(startsAt, endsAt, zone)}
    </span>
  );
}
