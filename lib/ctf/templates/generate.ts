import { caesarsDiary } from "./crypto/caesars-diary";
import { cookieJar } from "./web/cookie-jar";
import { cronJob } from "./offsec/cron-job";
import { formatFiasco } from "./binary/format-fiasco";
import { holidaySnap } from "./osint/holiday-snap";
import { keygen } from "./reversing/keygen";
import { layers } from "./forensics/layers";
import { oldHandle } from "./osint/old-handle";
import { overflow101 } from "./binary/overflow-101";
import { packed } from "./reversing/packed";
import { packetWhispers } from "./forensics/packet-whispers";
import { redirectRoulette } from "./web/redirect-roulette";
import { reusedPad } from "./crypto/reused-pad";
import { randomRng, type Rng } from "./kit/rng";
import { searchParty } from "./web/search-party";
import { tinyExponent } from "./crypto/tiny-exponent";
import type { ArtifactFile, Template, TargetState } from "./kit/types";
import { weakService } from "./offsec/weak-service";
import { pointsFor, templateCatalog, templatesOf, type ChallengeCategory, type Difficulty, type TemplateKey } from "./catalog";

export { challengeCategories, difficulties, pointsFor, templateCatalog, templateKeys, type ChallengeCategory, type Difficulty, type TemplateKey } from "./catalog";

/**
 * The shipped templates, each a solvable challenge: what the player works on (a file, a web
 * target served by the built-in host, or both), generated together with a fresh flag, and
 * the solution steps the organiser may reveal. One module per template under ./generated/.
 */
const templates: Record<TemplateKey, Template> = {
  "cookie-jar": cookieJar,
  "search-party": searchParty,
  "redirect-roulette": redirectRoulette,
  "caesars-diary": caesarsDiary,
  "reused-pad": reusedPad,
  "tiny-exponent": tinyExponent,
  "packet-whispers": packetWhispers,
  layers,
  "holiday-snap": holidaySnap,
  "old-handle": oldHandle,
  "weak-service": weakService,
  "cron-job": cronJob,
  "overflow-101": overflow101,
  "format-fiasco": formatFiasco,
  keygen,
  packed,
};

export function templateFor(key: string): Template | undefined {
  return Object.hasOwn(templates, key) ? templates[key as TemplateKey] : undefined;
}

export type GeneratedChallenge = {
  template: TemplateKey;
  title: string;
  category: ChallengeCategory;
  difficulty: Difficulty;
  description: string;
  points: number;
  flag: string;
  hints: { text: string; cost: number }[];
  solution: string[];
  file: ArtifactFile | null;
  target: TargetState | null;
};

/** How many of a template's hints each difficulty gives (easy all; insane none). */
const hintCounts: Record<Difficulty, (available: number) => number> = {
  easy: (available) => available,
  medium: (available) => Math.min(1, available),
  hard: (available) => Math.min(1, available),
  insane: () => 0,
};

/**
 * Builds a challenge from a template of the category (the given one, or one drawn), scaled to
 * the difficulty, with a fresh flag `CTF{…}` built into its artifact. Deterministic for a
 * given `rng` (tests inject a seeded one). The title is the template's, whatever the
 * difficulty: the difficulty is its own field, shown beside it.
 */
export function generateChallenge(category: ChallengeCategory, difficulty: Difficulty, options: { rng?: Rng; template?: TemplateKey } = {}): GeneratedChallenge {
  const rng = options.rng ?? randomRng();
  const entry = options.template ? templateCatalog.find((candidate) => candidate.key === options.template) : rng.pick(templatesOf(category));
  if (!entry || entry.category !== category) throw new RangeError(`template ${options.template} is not a ${category} template`);
  const flag = `CTF{${rng.hex(12)}}`;
  const built = templates[entry.key].build({ flag, difficulty, rng });
  const points = pointsFor[difficulty];
  return {
    template: entry.key,
    title: entry.title,
    category,
    difficulty,
    description: `${built.description}${difficulty === "insane" ? " No hints, no mercy." : ""}`,
    points,
    flag,
    hints: built.hints.slice(0, hintCounts[difficulty](built.hints.length)).map((text, index) => ({ text, cost: Math.round(points * 0.1 * (index + 1)) })),
    solution: built.solution,
    file: built.file ?? null,
    target: built.target ?? null,
  };
}
