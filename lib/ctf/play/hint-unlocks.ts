import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { hintUnlocks, members } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import { findCtf } from "@/lib/ctf/competitions/competitions";
import type { HintUnlockRecord } from "./schemas";
import { defaultPlayerName } from "@/lib/ctf/competitions/views";

/** Who unlocked which hint of a workspace's competition, newest first (`GET /api/v1/ctfs/{ctf_id}/hint-unlocks`). */
export async function listHintUnlocks(db: Db, workspaceId: string, ctfId: string, paging: Paging): Promise<Page<HintUnlockRecord>> {
  await findCtf(db, workspaceId, ctfId);
  const where = eq(hintUnlocks.ctfId, ctfId);
  return readPage(
    paging,
    db
      .select({ unlock: hintUnlocks, email: members.email, displayName: members.displayName })
      .from(hintUnlocks)
      .innerJoin(members, eq(members.id, hintUnlocks.memberId))
      .where(where)
      .orderBy(desc(hintUnlocks.unlockedAt), desc(hintUnlocks.id)),
    countRows(db, hintUnlocks, where),
    ({ unlock, email, displayName }) => ({
      member_id: unlock.memberId,
      name: displayName ?? defaultPlayerName(email),
      challenge_id: unlock.challengeId,
      hint: unlock.hint,
      cost: unlock.cost,
      unlocked_at: unlock.unlockedAt.toISOString(),
    }),
  );
}
