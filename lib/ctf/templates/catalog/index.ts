/**
 * The categories, difficulties and shipped templates of generated challenges, as plain data:
 * the schemas and the dashboard's forms read it in the browser too. The generators themselves
 * (what each template builds and serves) are server code: ../generate.ts and the category folders beside this one.
 */

export const challengeCategories = ["web", "crypto", "forensics", "osint", "offsec", "binary exploitation", "reverse engineering"] as const;
export type ChallengeCategory = (typeof challengeCategories)[number];
export const difficulties = ["easy", "medium", "hard", "insane"] as const;
export type Difficulty = (typeof difficulties)[number];

export const pointsFor: Record<Difficulty, number> = { easy: 100, medium: 250, hard: 500, insane: 1000 };

/** How a player works on a template's challenge: a file to download, a web target served by the built-in host, or both. */
export type ArtifactKind = "file" | "target" | "file+target";

/** Every shipped template: its key (the generate request's optional `template`), title, category and what the player gets. */
export const templateCatalog = [
  { key: "cookie-jar", title: "Cookie Jar", category: "web", artifact: "target" },
  { key: "search-party", title: "Search Party", category: "web", artifact: "target" },
  { key: "redirect-roulette", title: "Redirect Roulette", category: "web", artifact: "target" },
  { key: "caesars-diary", title: "Caesar's Diary", category: "crypto", artifact: "file" },
  { key: "reused-pad", title: "Reused Pad", category: "crypto", artifact: "file" },
  { key: "tiny-exponent", title: "Tiny Exponent", category: "crypto", artifact: "file" },
  { key: "packet-whispers", title: "Packet Whispers", category: "forensics", artifact: "file" },
  { key: "layers", title: "Layers", category: "forensics", artifact: "file" },
  { key: "holiday-snap", title: "Holiday Snap", category: "osint", artifact: "file+target" },
  { key: "old-handle", title: "Old Handle", category: "osint", artifact: "target" },
  { key: "weak-service", title: "Weak Service", category: "offsec", artifact: "target" },
  { key: "cron-job", title: "Cron Job", category: "offsec", artifact: "target" },
  { key: "overflow-101", title: "Overflow 101", category: "binary exploitation", artifact: "file+target" },
  { key: "format-fiasco", title: "Format Fiasco", category: "binary exploitation", artifact: "file+target" },
  { key: "keygen", title: "Keygen", category: "reverse engineering", artifact: "file" },
  { key: "packed", title: "Packed", category: "reverse engineering", artifact: "file" },
] as const satisfies readonly { key: string; title: string; category: ChallengeCategory; artifact: ArtifactKind }[];

export type TemplateKey = (typeof templateCatalog)[number]["key"];
export const templateKeys = templateCatalog.map((template) => template.key) as [TemplateKey, ...TemplateKey[]];

export function templatesOf(category: ChallengeCategory) {
  return templateCatalog.filter((template) => template.category === category);
}
