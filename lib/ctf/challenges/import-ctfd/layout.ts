import { z } from "zod";
import { archiveProblem, type CtfdArchive, type CtfdTable } from "./archive";

/**
 * The rows of CTFd's export the import reads, as CTFd's models write them (CTFd/models,
 * CTFd/plugins/dynamic_challenges; `freeze_export` dumps each table as {"count", "results",
 * "meta"}). Only the columns used are checked; others are ignored. A row that does not fit,
 * or a row naming a challenge `db/challenges.json` lacks, is a 422 naming the table and row:
 * nothing is imported.
 */

const id = z.number().int().min(1).max(2_147_483_647);
const text = z.string().nullish();
const count = z.number().int().nullish();
/** Requirements were a JSON string in exports of CTFd 2.0–2.1 (CTFd's importer parses them the same way). */
const requirements = z.preprocess((value) => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}, z.object({ prerequisites: z.array(z.union([id, z.string().regex(/^\d+$/).transform(Number)])).optional() }).loose().nullish());

const rows = {
  challenges: z.object({ id, name: z.string(), description: text, connection_info: text, max_attempts: count, value: count, category: text, type: text, state: text, requirements, initial: count, minimum: count, decay: count, function: text }).loose(),
  dynamic_challenge: z.object({ id, initial: count, minimum: count, decay: count, function: text }).loose(),
  flags: z.object({ id, challenge_id: id, type: text, content: z.string(), data: text }).loose(),
  hints: z.object({ id, challenge_id: id, type: text, content: z.string(), cost: count, requirements }).loose(),
  tags: z.object({ id, challenge_id: id, value: z.string() }).loose(),
  files: z.object({ id, type: text, location: z.string().min(1), challenge_id: id.nullish() }).loose(),
} satisfies Record<CtfdTable, z.ZodType>;

export type CtfdChallenge = z.output<typeof rows.challenges>;
export type CtfdDynamic = z.output<typeof rows.dynamic_challenge>;
export type CtfdFlag = z.output<typeof rows.flags>;
export type CtfdHint = z.output<typeof rows.hints>;
export type CtfdTag = z.output<typeof rows.tags>;
export type CtfdFile = z.output<typeof rows.files>;

export type CtfdExport = {
  challenges: CtfdChallenge[];
  dynamic: Map<number, CtfdDynamic>;
  flags: Map<number, CtfdFlag[]>;
  hints: Map<number, CtfdHint[]>;
  tags: Map<number, CtfdTag[]>;
  /** Challenge files only (CTFd's page files are not a challenge's). */
  files: Map<number, CtfdFile[]>;
};

function parseRows<T extends CtfdTable>(table: T, results: unknown[] | null): z.output<(typeof rows)[T]>[] {
  return (results ?? []).map((row, index) => {
    const parsed = rows[table].safeParse(row);
    if (parsed.success) return parsed.data as z.output<(typeof rows)[T]>;
    const issue = parsed.error.issues[0];
    const rowId = row && typeof row === "object" && "id" in row ? ` (id ${JSON.stringify((row as { id: unknown }).id).slice(0, 20)})` : "";
    throw archiveProblem(`db/${table}.json, row ${index + 1}${rowId}: ${issue.path.join(".") || "the row"} ${issue.message.replace(/^./, (c) => c.toLowerCase())}`);
  });
}

/** Rows of `table` grouped by their challenge; a row naming an unknown challenge is a 422. */
function byChallenge<R extends { id: number; challenge_id?: number | null }>(table: CtfdTable, list: R[], known: Set<number>): Map<number, R[]> {
  const grouped = new Map<number, R[]>();
  for (const row of list) {
    if (row.challenge_id === null || row.challenge_id === undefined) continue;
    if (!known.has(row.challenge_id)) throw archiveProblem(`db/${table}.json, id ${row.id}: challenge ${row.challenge_id} is not in db/challenges.json.`);
    const group = grouped.get(row.challenge_id) ?? [];
    group.push(row);
    grouped.set(row.challenge_id, group);
  }
  for (const group of grouped.values()) group.sort((a, b) => a.id - b.id);
  return grouped;
}

/** The export's challenges with their flags, hints, tags, files and dynamic values, checked. */
export function readCtfdExport(tables: CtfdArchive["tables"]): CtfdExport {
  const challenges = parseRows("challenges", tables.challenges).sort((a, b) => a.id - b.id);
  const known = new Set<number>();
  for (const challenge of challenges) {
    if (known.has(challenge.id)) throw archiveProblem(`db/challenges.json: challenge id ${challenge.id} appears twice.`);
    known.add(challenge.id);
  }
  const dynamic = new Map(parseRows("dynamic_challenge", tables.dynamic_challenge).map((row) => [row.id, row]));
  for (const row of dynamic.values()) if (!known.has(row.id)) throw archiveProblem(`db/dynamic_challenge.json, id ${row.id}: challenge ${row.id} is not in db/challenges.json.`);
  const files = parseRows("files", tables.files).filter((file) => file.type !== "page");
  return {
    challenges,
    dynamic,
    flags: byChallenge("flags", parseRows("flags", tables.flags), known),
    hints: byChallenge("hints", parseRows("hints", tables.hints), known),
    tags: byChallenge("tags", parseRows("tags", tables.tags), known),
    files: byChallenge("files", files, known),
  };
}
