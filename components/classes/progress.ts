import type { ClassProgressView } from "@/lib/classes/schemas";

export type ScoreLevel = "none" | "low" | "medium" | "high";

/** The colour band of an average: red below 50 %, amber below 70 %, green from 70 %, grey without data. */
export function scoreLevel(percent: number | null | undefined): ScoreLevel {
  if (percent === null || percent === undefined) return "none";
  if (percent < 50) return "low";
  if (percent < 70) return "medium";
  return "high";
}

export const levelStyles: Record<ScoreLevel, string> = {
  none: "bg-slate-100 text-slate-500",
  low: "bg-red-100 text-red-900",
  medium: "bg-amber-100 text-amber-900",
  high: "bg-green-100 text-green-900",
};

export const levelLabels: Record<ScoreLevel, string> = {
  none: "No result yet",
  low: "Below 50%",
  medium: "50% to 69.9%",
  high: "70% or more",
};

/**
 * The columns of the student × domain grid: the certification's current domains in order,
 * then any domain found only in results (a test holds the domain names frozen when sent).
 * A name in results wins, since that is the name the students were tested under.
 */
export function gridDomains(
  certificationDomains: { id: number; name: string }[],
  progress: Pick<ClassProgressView, "domains">,
): { id: number; name: string }[] {
  const fromResults = new Map(progress.domains.map((d) => [d.id, d.name]));
  const columns = certificationDomains.map((d) => ({ id: d.id, name: fromResults.get(d.id) ?? d.name }));
  const known = new Set(columns.map((d) => d.id));
  return [...columns, ...progress.domains.filter((d) => !known.has(d.id))];
}
