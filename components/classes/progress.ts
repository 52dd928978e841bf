import type { ClassProgressView } from "@/lib/certification/classes/schemas";

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

/** The columns of one certification in the student × domain grid. */
export type DomainGroup = { certification_id: number; certification: string; domains: { id: number; name: string }[] };

/**
 * The columns of the student × domain grid, by certification, never mixing two: the class's
 * certification first, with its current domains in order and then any domain found only in
 * results (a test holds the domain names frozen when sent; a name in results wins, since that
 * is the name the students were tested under); then each other certification a test of the
 * class was sent for (before a class's tests had to use its certification), with its domains
 * from the results.
 */
export function gridDomains(
  klass: { certification_id: number; certification: string },
  certificationDomains: { id: number; name: string }[],
  progress: Pick<ClassProgressView, "domains">,
): DomainGroup[] {
  const own = progress.domains.filter((d) => d.certification_id === klass.certification_id);
  const fromResults = new Map(own.map((d) => [d.id, d.name]));
  const columns = certificationDomains.map((d) => ({ id: d.id, name: fromResults.get(d.id) ?? d.name }));
  const known = new Set(columns.map((d) => d.id));
  const groups: DomainGroup[] = [
    { certification_id: klass.certification_id, certification: klass.certification, domains: [...columns, ...own.filter((d) => !known.has(d.id)).map(({ id, name }) => ({ id, name }))] },
  ];
  for (const d of progress.domains) {
    if (d.certification_id === klass.certification_id) continue;
    let group = groups.find((g) => g.certification_id === d.certification_id);
    if (!group) groups.push((group = { certification_id: d.certification_id, certification: d.certification, domains: [] }));
    group.domains.push({ id: d.id, name: d.name });
  }
  return groups.filter((group) => group.domains.length > 0);
}
