import type { Test } from "@/db/schema";

/**
 * The settings a recipient needs to know before starting, in words, for the e-mails and the
 * start page alike. Times are written in UTC ("1 Dec 2026, 18:00 UTC"), as every date the app
 * shows (components/format/date.ts): a server's render and a reader's mail client agree.
 */

const utc = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export function utcDateTime(when: Date): string {
  return `${utc.format(when)} UTC`;
}

export function minutesText(minutes: number): string {
  if (minutes % 60 === 0) return minutes === 60 ? "1 hour" : `${minutes / 60} hours`;
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** "Time limit: 30 minutes from when you press Start", "Opens 1 Dec 2026, 18:00 UTC", "Closes …"; none without settings. */
export function settingsLines(test: Pick<Test, "timeLimitMinutes" | "opensAt" | "closesAt">): string[] {
  const lines: string[] = [];
  if (test.timeLimitMinutes !== null) lines.push(`Time limit: ${minutesText(test.timeLimitMinutes)} from when you press Start.`);
  if (test.opensAt) lines.push(`Opens ${utcDateTime(test.opensAt)}.`);
  if (test.closesAt) lines.push(`Closes ${utcDateTime(test.closesAt)}: an attempt still in progress then is submitted as it stands.`);
  return lines;
}
