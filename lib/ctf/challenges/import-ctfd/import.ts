import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { challengeFiles, challenges, ctfs } from "@/db/schema";
import { config } from "@/lib/kernel/config/config";
import { conflict } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { fileStorage } from "@/lib/platform/storage";
import { findCtf } from "@/lib/ctf/competitions/competitions";
import { removeStoredBytes } from "@/lib/ctf/competitions/stored-files";
import { storedFlag } from "@/lib/ctf/challenges/flags/flags";
import { normaliseContentType } from "@/lib/ctf/challenges/files/rules";
import { requiresChain } from "@/lib/ctf/challenges/prerequisites";
import { archiveProblem, readCtfdArchive } from "./archive";
import { readCtfdExport } from "./layout";
import { MAX_IMPORTED_CHALLENGES } from "./limits";
import { LIMITS, mapChallenge, reportedTitle, type PlannedChallenge } from "./mapping";
import type { CtfdImportReport, ImportCtfdQuery } from "./schemas";

type Planned = PlannedChallenge & { id: string; requires: string[] };
type StoredFile = { id: string; challengeId: string; name: string; size: number; contentType: string; sha256: string; storageKey: string };

const notesOf = (ctfdId: number | null, title: string | null, notes: string[]) => notes.map((note) => ({ ctfd_id: ctfdId, title, note }));

/** Maps every challenge, gives the imported ones their ids, and turns CTFd's prerequisites into ours. */
function plan(exported: ReturnType<typeof readCtfdExport>): { planned: Planned[]; report: Omit<CtfdImportReport, "dry_run" | "imported"> } {
  const report: Omit<CtfdImportReport, "dry_run" | "imported"> = { skipped: [], notes: [] };
  const planned: Planned[] = [];
  for (const challenge of exported.challenges) {
    const mapped = mapChallenge(challenge, exported);
    const title = mapped.planned?.title ?? reportedTitle(challenge.name);
    if (!mapped.planned) report.skipped.push({ ctfd_id: challenge.id, title, reason: mapped.skipReason ?? "Not importable." });
    else planned.push({ ...mapped.planned, id: newId("chl"), requires: [] });
    report.notes.push(...notesOf(challenge.id, title, mapped.notes));
  }
  const ours = new Map(planned.map((challenge) => [challenge.ctfdId, challenge.id]));
  const ctfdIdOf = new Map(planned.map((challenge) => [challenge.id, challenge.ctfdId]));
  // The requirements kept so far, as the API's circle check walks them (lib/ctf/challenges/prerequisites.ts).
  const graph = new Map<string, string[]>(planned.map((challenge) => [challenge.id, challenge.requires]));
  for (const challenge of planned) {
    for (const prerequisite of challenge.prerequisites) {
      const id = ours.get(prerequisite);
      const chain = id === undefined || id === challenge.id ? null : requiresChain(graph, id, challenge.id);
      const lost =
        id === undefined
          ? `its prerequisite, CTFd challenge ${prerequisite}, is not imported`
          : id === challenge.id
            ? "it requires itself"
            : chain
              ? `CTFd challenge ${prerequisite} already requires this one (${chain.map((link) => ctfdIdOf.get(link)).join(" requires ")}), so requiring it back would lock both for good`
              : challenge.requires.length === LIMITS.requires
                ? `at most ${LIMITS.requires} prerequisites are kept`
                : null;
      if (lost) report.notes.push(...notesOf(challenge.ctfdId, challenge.title, [`A requirement is not carried over: ${lost}.`]));
      else challenge.requires.push(id!);
    }
  }
  return { planned, report };
}

/** Puts the imported files' bytes in the store (before their rows, as an upload does); the keys, to remove on failure. */
async function storeFiles(db: Db, workspaceId: string, planned: Planned[], uploads: Map<string, Uint8Array>, keys: string[]): Promise<StoredFile[]> {
  const storage = fileStorage(db);
  const stored: StoredFile[] = [];
  for (const challenge of planned) {
    for (const file of challenge.files) {
      const bytes = uploads.get(file.location)!;
      const id = newId("fil");
      const storageKey = `challenge-files/${workspaceId}/${id}`;
      const contentType = normaliseContentType("application/octet-stream");
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      keys.push(storageKey);
      await storage.put(storageKey, bytes, { contentType, sha256 });
      stored.push({ id, challengeId: challenge.id, name: file.name, size: bytes.byteLength, contentType, sha256, storageKey });
    }
  }
  return stored;
}

/**
 * Imports a CTFd export (its admin backup zip) into competition `ctfId` as draft challenges.
 * Everything is read and checked first (a malformed archive is a 422 naming the entry, an
 * oversized one a 413); then the files' bytes are stored, then every row is written in one
 * transaction. If that fails the stored bytes are removed: nothing is imported. A dry run
 * stops before storing.
 */
export async function importCtfdArchive(db: Db, workspaceId: string, ctfId: string, bytes: Uint8Array, query: ImportCtfdQuery): Promise<CtfdImportReport> {
  const ctf = await findCtf(db, workspaceId, ctfId);
  if (ctf.status === "archived") throw conflict("The competition is archived: challenges can no longer be added.");
  const archive = await readCtfdArchive(bytes);
  const exported = readCtfdExport(archive.tables);
  if (exported.challenges.length > MAX_IMPORTED_CHALLENGES) throw archiveProblem(`db/challenges.json holds ${exported.challenges.length} challenges, more than the ${MAX_IMPORTED_CHALLENGES} one import takes.`);
  // Every file the export names must be in it (a missing one is a malformed archive), imported or not.
  const uploads = await archive.uploads([...new Set([...exported.files.values()].flat().map((file) => file.location))], config().files.maxBytes);
  const { planned, report } = plan(exported);
  const imported = (id: (challenge: Planned) => string | null) =>
    planned.map((challenge) => ({ challenge_id: id(challenge), title: challenge.title, ctfd_id: challenge.ctfdId, category: challenge.category, files: challenge.files.length, hints: challenge.hints.length }));
  if (query.dry_run || planned.length === 0) return { dry_run: query.dry_run, imported: imported(() => null), ...report };

  const keys: string[] = [];
  try {
    const files = await storeFiles(db, workspaceId, planned, uploads, keys);
    await db.transaction(async (tx) => {
      const [current] = await tx.select({ status: ctfs.status }).from(ctfs).where(eq(ctfs.id, ctfId)).for("update");
      if (!current || current.status === "archived") throw conflict("The competition is archived: challenges can no longer be added.");
      for (let start = 0; start < planned.length; start += 100) {
        await tx.insert(challenges).values(
          planned.slice(start, start + 100).map((challenge) => ({
            id: challenge.id,
            ctfId,
            workspaceId,
            title: challenge.title,
            category: challenge.category,
            description: challenge.description,
            points: challenge.points,
            scoring: challenge.scoring,
            requires: challenge.requires,
            maxAttempts: challenge.maxAttempts,
            tags: challenge.tags,
            hints: challenge.hints,
            ...storedFlag(challenge.flag, challenge.flagMode),
          })),
        );
      }
      for (let start = 0; start < files.length; start += 100) {
        await tx.insert(challengeFiles).values(files.slice(start, start + 100).map((file) => ({ ...file, workspaceId })));
      }
    });
  } catch (error) {
    await removeStoredBytes(db, keys);
    throw error;
  }
  return { dry_run: false, imported: imported((challenge) => challenge.id), ...report };
}
