/**
 * Pure helpers of the Competitions pages: states, the actions each allows, hints. Date-time
 * fields are read as every form reads them (components/format/date-input.ts).
 */

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
