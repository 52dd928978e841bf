import type { ChallengeScoring, FlagMode } from "@/db/schema";
import { FLAG_MAX_LENGTH, regexFlagProblem } from "@/lib/ctf/challenges/flags/pattern";
import { fileNameProblem, MAX_FILES_PER_CHALLENGE } from "@/lib/ctf/challenges/files/rules";
import type { ChallengeCategory } from "@/lib/ctf/templates/catalog";
import { isStorableText } from "@/lib/kernel/values";
import { mapCategory } from "./categories";
import type { CtfdChallenge, CtfdExport, CtfdFlag } from "./layout";

/**
 * One CTFd challenge as ours, and what it lost on the way. Our bounds are those of the
 * challenge form (lib/ctf/challenges/schemas.ts); a value outside them is brought inside and
 * noted, never refused: the import takes what it can (a challenge without a usable flag is the
 * one thing skipped).
 */

export const LIMITS = { title: 200, description: 10_000, points: 10_000, hints: 10, hintText: 1000, hintCost: 10_000, tags: 10, tag: 50, requires: 20, maxAttempts: 1000, decay: 100_000 };

export type PlannedFile = { location: string; name: string };

export type PlannedChallenge = {
  ctfdId: number;
  title: string;
  category: ChallengeCategory;
  description: string;
  points: number;
  scoring: ChallengeScoring;
  flag: string;
  flagMode: FlagMode;
  hints: { text: string; cost: number }[];
  tags: string[];
  maxAttempts: number | null;
  /** CTFd ids of the challenges that must be solved first (mapped to ours once every challenge has an id). */
  prerequisites: number[];
  files: PlannedFile[];
};

export type Mapped = { planned: PlannedChallenge | null; skipReason: string | null; notes: string[] };

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Text as PostgreSQL can store it: NUL characters removed, an unpaired UTF-16 surrogate
 * replaced by U+FFFD; each change noted as "`what` contained …". The dry run and the import
 * both go through here, so they answer alike.
 */
function storable(text: string, what: string, notes: string[]): string {
  if (isStorableText(text)) return text;
  let clean = text;
  if (clean.includes("\u0000")) {
    clean = clean.replaceAll("\u0000", "");
    notes.push(`${what} contained NUL characters, which cannot be stored: removed.`);
  }
  if (!clean.isWellFormed()) {
    clean = clean.toWellFormed();
    notes.push(`${what} contained an unpaired UTF-16 surrogate, which cannot be stored: replaced with U+FFFD.`);
  }
  return clean;
}

/** The first `max` UTF-16 units of `text`, one fewer rather than half of a surrogate pair. */
function cut(text: string, max: number): string {
  const head = text.slice(0, max);
  return head.length === max && /[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head;
}

/** A skipped challenge's title in the report (its name, storable and bounded, without notes). */
export function reportedTitle(name: string): string {
  return cut(name.replaceAll("\u0000", "").toWellFormed().trim(), LIMITS.title);
}

/** The first usable flag; the others (and unusable ones) are noted. */
function chooseFlag(flags: CtfdFlag[], notes: string[]): { flag: string; flagMode: FlagMode } | null {
  let chosen: { flag: string; flagMode: FlagMode } | null = null;
  let chosenId = 0;
  for (const row of flags) {
    const type = row.type ?? "static";
    const caseInsensitive = (row.data ?? "").trim() === "case_insensitive";
    let candidate: { flag: string; flagMode: FlagMode } | null = null;
    if ((type === "static" || type === "regex") && !isStorableText(row.content)) {
      notes.push(`Flag ${row.id} contains a NUL character or an unpaired surrogate, which no player can submit: not carried over.`);
    } else if (type === "static") {
      const flag = row.content.trim();
      if (!flag) notes.push(`Flag ${row.id} is empty: not carried over.`);
      else if (flag.length > FLAG_MAX_LENGTH) notes.push(`Flag ${row.id} is longer than ${FLAG_MAX_LENGTH} characters: not carried over.`);
      else candidate = { flag, flagMode: caseInsensitive ? "case_insensitive" : "exact" };
    } else if (type === "regex") {
      const flag = `${caseInsensitive ? "(?i)" : ""}${row.content.trim()}`;
      const problem = flag.length > FLAG_MAX_LENGTH ? `longer than ${FLAG_MAX_LENGTH} characters` : regexFlagProblem(flag);
      if (problem) notes.push(`Regex flag ${row.id} cannot be checked here (${problem}): not carried over.`);
      else candidate = { flag, flagMode: "regex" };
    } else {
      notes.push(`Flag ${row.id} is of CTFd type "${type}", which is not known here: not carried over.`);
    }
    if (!candidate) continue;
    if (!chosen) [chosen, chosenId] = [candidate, row.id];
    else notes.push(`Flag ${row.id} not carried over: a challenge has one flag here (the first usable one, flag ${chosenId}, is kept).`);
  }
  return chosen;
}

/** Dynamic values (`dynamic_challenge`, or the challenge's own columns in newer CTFd); a linear decay is noted and imported static. */
function scoringOf(challenge: CtfdChallenge, exported: CtfdExport, notes: string[]): { scoring: ChallengeScoring; points: number } {
  const value = challenge.value ?? 100;
  const points = clamp(value, 1, LIMITS.points);
  if (points !== value) notes.push(`Its value ${value} is outside 1–${LIMITS.points}: imported as ${points}.`);
  const type = challenge.type ?? "standard";
  if (type === "standard") return { scoring: { type: "static" }, points };
  if (type !== "dynamic") {
    notes.push(`Its CTFd type "${type}" is not known here: imported as a static challenge worth ${points}.`);
    return { scoring: { type: "static" }, points };
  }
  const row = exported.dynamic.get(challenge.id) ?? challenge;
  if (row.initial == null && row.minimum == null && row.decay == null) {
    notes.push(`It is dynamic on CTFd, but the export holds none of its dynamic values (initial, minimum, decay): imported as a static challenge worth ${points}.`);
    return { scoring: { type: "static" }, points };
  }
  const initial = clamp(row.initial ?? value, 1, LIMITS.points);
  const minimum = clamp(row.minimum ?? 0, 0, initial);
  const decay = clamp(row.decay || 1, 1, LIMITS.decay);
  if (row.function === "linear") {
    notes.push(`Its linear decay is not carried over (only CTFd's logarithmic one is): imported as a static challenge worth its initial ${initial}.`);
    return { scoring: { type: "static" }, points: initial };
  }
  if (row.function && row.function !== "logarithmic") notes.push(`Its decay function "${cut(row.function, 40)}" is not known here: imported with CTFd's logarithmic one.`);
  if (row.initial !== initial || row.minimum !== minimum || row.decay !== decay) {
    const shown = (value: number | null | undefined) => (value == null ? "none" : String(value));
    notes.push(`Its dynamic values were brought within ours (CTFd: initial ${shown(row.initial)}, minimum ${shown(row.minimum)}, decay ${shown(row.decay)}): initial ${initial}, minimum ${minimum}, decay ${decay}.`);
  }
  return { scoring: { type: "dynamic", initial, minimum, decay }, points: initial };
}

function hintsOf(challenge: CtfdChallenge, exported: CtfdExport, notes: string[]): PlannedChallenge["hints"] {
  const hints: PlannedChallenge["hints"] = [];
  for (const row of exported.hints.get(challenge.id) ?? []) {
    const text = storable(row.content, `Hint ${row.id}`, notes).trim();
    if (!text || text.length > LIMITS.hintText) {
      notes.push(`Hint ${row.id} is ${text ? `longer than ${LIMITS.hintText} characters` : "empty"}: not carried over.`);
      continue;
    }
    if (hints.length === LIMITS.hints) {
      notes.push(`Hint ${row.id} not carried over: a challenge has at most ${LIMITS.hints} hints.`);
      continue;
    }
    if (row.requirements?.prerequisites?.length) notes.push(`Hint ${row.id}'s unlock order (other hints first) is not carried over.`);
    const cost = row.cost ?? 0;
    if (cost !== clamp(cost, 0, LIMITS.hintCost)) notes.push(`Hint ${row.id}'s cost ${cost} is outside 0–${LIMITS.hintCost}: imported as ${clamp(cost, 0, LIMITS.hintCost)}.`);
    hints.push({ text, cost: clamp(cost, 0, LIMITS.hintCost) });
  }
  return hints;
}

function tagsOf(challenge: CtfdChallenge, exported: CtfdExport, notes: string[]): string[] {
  const tags: string[] = [];
  for (const row of exported.tags.get(challenge.id) ?? []) {
    const tag = storable(row.value, `Tag ${row.id}`, notes).trim();
    if (!tag) notes.push(`Tag ${row.id} is empty: not carried over.`);
    if (!tag || tags.includes(tag)) continue;
    if (tag.length > LIMITS.tag || tags.length === LIMITS.tags) {
      notes.push(`Tag "${tag.slice(0, 60)}" not carried over (at most ${LIMITS.tags} tags of ${LIMITS.tag} characters).`);
      continue;
    }
    tags.push(tag);
  }
  return tags;
}

function filesOf(challenge: CtfdChallenge, exported: CtfdExport, notes: string[]): PlannedFile[] {
  const files: PlannedFile[] = [];
  for (const row of exported.files.get(challenge.id) ?? []) {
    const name = row.location.split("/").pop() ?? "";
    const problem = fileNameProblem(name);
    if (problem) notes.push(`File ${row.location.slice(0, 200)} not carried over: ${problem}`);
    else if (files.length === MAX_FILES_PER_CHALLENGE) notes.push(`File ${name} not carried over: a challenge carries at most ${MAX_FILES_PER_CHALLENGE} files.`);
    else files.push({ location: row.location, name });
  }
  return files;
}

/** CTFd's `max_attempts` (0: unlimited) as ours (null: unlimited). */
function attemptsOf(cap: number, notes: string[]): number | null {
  if (cap < 0) notes.push(`Its max_attempts ${cap} is not a number of tries: imported without a cap (unlimited, as CTFd's 0).`);
  if (cap <= 0) return null;
  if (cap <= LIMITS.maxAttempts) return cap;
  notes.push(`Its ${cap} attempts allowed are above ${LIMITS.maxAttempts}: imported as ${LIMITS.maxAttempts}.`);
  return LIMITS.maxAttempts;
}

function describe(challenge: CtfdChallenge, notes: string[]): string {
  const connection = challenge.connection_info?.trim();
  const joined = [challenge.description?.trim() ?? "", connection ? `Connection: ${connection}` : ""].filter(Boolean).join("\n\n");
  const full = storable(joined, "Its description", notes);
  if (full.length <= LIMITS.description) return full;
  notes.push(`Its description is longer than ${LIMITS.description} characters: cut there.`);
  return cut(full, LIMITS.description);
}

/** One CTFd challenge mapped to ours, with its notes; without a usable flag it is skipped. */
export function mapChallenge(challenge: CtfdChallenge, exported: CtfdExport): Mapped {
  const notes: string[] = [];
  const flag = chooseFlag(exported.flags.get(challenge.id) ?? [], notes);
  if (!flag) return { planned: null, skipReason: "It has no flag that can be carried over (static or regex): a challenge here needs one.", notes };
  const name = storable(challenge.name, "Its name", notes).trim();
  let title = cut(name, LIMITS.title);
  if (name.length > LIMITS.title) notes.push(`Its name is longer than ${LIMITS.title} characters: cut there.`);
  if (!title) {
    title = `CTFd challenge ${challenge.id}`;
    notes.push(`It has no name: imported as "${title}".`);
  }
  const mapped = mapCategory(challenge.category);
  if (!mapped.exact) notes.push(`Its category "${(challenge.category ?? "").slice(0, 80)}" is not one of ours: put in ${mapped.category}.`);
  const maxAttempts = attemptsOf(challenge.max_attempts ?? 0, notes);
  const planned: PlannedChallenge = {
    ctfdId: challenge.id,
    title,
    category: mapped.category,
    description: describe(challenge, notes),
    ...scoringOf(challenge, exported, notes),
    ...flag,
    hints: hintsOf(challenge, exported, notes),
    tags: tagsOf(challenge, exported, notes),
    maxAttempts,
    prerequisites: [...new Set(challenge.requirements?.prerequisites ?? [])],
    files: filesOf(challenge, exported, notes),
  };
  return { planned, skipReason: null, notes };
}
