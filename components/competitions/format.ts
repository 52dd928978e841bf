/**
 * Pure helpers of the Competitions pages. Times are UTC everywhere: a `datetime-local`
 * field is read as UTC (not the browser's zone) and sent as ISO 8601 with `Z`.
 */

const localInput = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

/** "2026-12-01T18:00" (a datetime-local value, meant as UTC) → "2026-12-01T18:00:00.000Z"; null when blank or malformed. */
export function utcInputToIso(value: string): string | null {
  const match = localInput.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s));
  // Date.UTC rolls 2026-02-30 over to March: such a value is not a real time.
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59) return null;
  return date.toISOString();
}

/** An ISO time → the value of a datetime-local field showing it in UTC ("2026-12-01T18:00"). */
export function isoToUtcInput(iso: string): string {
  return new Date(iso).toISOString().slice(0, 16);
}

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const timeOnly = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" });

/** "1 Dec 2026, 18:00 – 2 Dec 2026, 18:00 UTC", or "1 Dec 2026, 18:00 – 20:00 UTC" within one day. */
export function formatWindow(startsAt: string, endsAt: string): string {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  const sameDay = start.toISOString().slice(0, 10) === end.toISOString().slice(0, 10);
  return `${dateTime.format(start)} – ${sameDay ? timeOnly.format(end) : dateTime.format(end)} UTC`;
}

export function formatUtc(iso: string | null | undefined): string {
  return iso ? `${dateTime.format(new Date(iso))} UTC` : "—";
}

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
