import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges, ctfs } from "@/db/schema";
import { notFound } from "@/lib/kernel/errors";
import { assertOpenFor, assertRunning } from "./play";
import type { Player } from "./players";
import { challengeFileDownload, type FileDownload } from "@/lib/ctf/challenges/files/files";
/**
 * A player's download: only while the competition runs (409 naming the time otherwise, as
 * the other player routes), of a published challenge of their competition (else 404 like
 * a missing one) that is not locked for them (409 naming what opens it).
 */
export async function playerFileDownload(db: Db, player: Player, challengeId: string, fileId: string, now = new Date()): Promise<FileDownload> {
  const [ctf] = await db.select().from(ctfs).where(eq(ctfs.id, player.ctfId));
  if (!ctf) throw notFound("Competition");
  assertRunning(ctf, now);
  const [challenge] = await db
    .select({ id: challenges.id, title: challenges.title, requires: challenges.requires })
    .from(challenges)
    .where(and(eq(challenges.id, challengeId), eq(challenges.ctfId, ctf.id), eq(challenges.status, "published")));
  if (!challenge) throw notFound("Challenge");
  await assertOpenFor(db, player, ctf, challenge);
  return challengeFileDownload(db, challenge.id, fileId);
}
