/**
 * Pure helpers of the Competitions pages. A `datetime-local` field is read in the browser's
 * own time zone (the form names it) and sent as ISO 8601 with that zone's offset; the pages
 * show times in UTC, and in the viewer's zone beside them.
 */

const localInput = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;
const pad = (value: number) => String(value).padStart(2, "0");

/** The offset of this machine's zone at `date`: "+01:00", "-05:30", "+00:00". */
function offsetOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * "2026-12-01T18:00" (a datetime-local value, in this machine's zone) → "2026-12-01T18:00:00+01:00"
 * (the same instant with the offset that zone has on that day); null when blank, malformed,
 * or not a time of that zone (a day that does not exist, an hour skipped by a clock change).
 */
export function localInputToIso(value: string): string | null {
  const match = localInput.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const seconds = Number.isNaN(s) ? 0 : s;
  const date = new Date(y, mo - 1, d, h, mi, seconds);
  // The Date constructor rolls 2026-02-30 over to March and 02:30 on a spring-forward day to 03:30.
  if (date.getMonth() !== mo - 1 || date.getDate() !== d || date.getHours() !== h || date.getMinutes() !== mi) return null;
  return `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(seconds)}${offsetOf(date)}`;
}

/** An ISO time → the value of a datetime-local field showing it in this machine's zone ("2026-12-01T19:00"). */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** This machine's zone as the forms name it: "Europe/Paris, UTC+01:00" (the offset it has at `at`). */
export function localZoneLabel(at: Date = new Date()): string {
  const name = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${name}, UTC${offsetOf(at)}`;
}

// The public competition pages import the window from here.
export { formatWindow } from "@/components/format/date";

export type Tone = "neutral" | "info" | "success" | "warning" | "danger";

/** Every status of competitions, challenges, deployments and members, as a label and a colour. */
export const statusStyles: Record<string, { label: string; tone: Tone }> = {
  draft: { label: "Draft", tone: "neutral" },
  deploying: { label: "Deploying…", tone: "info" },
  deployed: { label: "Deployed", tone: "success" },
  deploy_failed: { label: "Deploy failed", tone: "danger" },
  stopped: { label: "Stopped", tone: "warning" },
  archived: { label: "Archived", tone: "neutral" },
  generating: { label: "Generating…", tone: "info" },
  generation_failed: { label: "Generation failed", tone: "danger" },
  publishing: { label: "Publishing…", tone: "info" },
  published: { label: "Published", tone: "success" },
  publish_failed: { label: "Publish failed", tone: "danger" },
  unpublishing: { label: "Unpublishing…", tone: "info" },
  unpublished: { label: "Unpublished", tone: "warning" },
  unpublish_failed: { label: "Unpublish failed", tone: "danger" },
  live: { label: "Live", tone: "success" },
  invited: { label: "Invited", tone: "info" },
  joined: { label: "Joined", tone: "success" },
};

/** States that change by themselves (a background step is running): the page follows them. */
export const transitionalStatuses = ["deploying", "generating", "publishing", "unpublishing"] as const;

export function isTransitional(status: string): boolean {
  return (transitionalStatuses as readonly string[]).includes(status);
}

export type CtfAction = "deploy" | "stop" | "archive" | "delete";

/**
 * The actions the dashboard offers in each competition state — the same table the domain
 * enforces (it answers 409 otherwise), so a button is never offered only to be refused.
 */
export function ctfActions(status: string): CtfAction[] {
  switch (status) {
    case "draft":
      return ["deploy", "delete"];
    case "deploy_failed":
      return ["deploy", "delete"];
    case "deployed":
      return ["stop", "archive"];
    case "stopped":
      return ["deploy", "archive", "delete"];
    case "archived":
      return ["delete"];
    default:
      return [];
  }
}

/** Challenge states from which Publish / Unpublish / Delete are accepted. */
export const challengeRules = {
  publish: ["draft", "publish_failed", "unpublished"],
  unpublish: ["published", "unpublish_failed"],
  remove: ["draft", "publish_failed", "unpublished", "generation_failed"],
} as const;

export function challengeCan(action: keyof typeof challengeRules, status: string): boolean {
  return (challengeRules[action] as readonly string[]).includes(status);
}

/** Hints typed in the form: blank rows dropped, cost a whole number ≥ 0 (blank = 0). */
export function cleanHints(rows: { text: string; cost: string }[]): { text: string; cost: number }[] {
  return rows
    .filter((row) => row.text.trim())
    .map((row) => ({ text: row.text.trim(), cost: row.cost.trim() === "" ? 0 : Number(row.cost) }));
}
