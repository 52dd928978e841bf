import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { workspaces, type Workspace } from "@/db/schema";
import { notFound } from "@/lib/kernel/errors";

/**
 * Locks the workspace row until the transaction ends and returns it (its plan, its name).
 *
 * The one lock order of workspace writes: every write path that checks a plan limit or
 * adds rows under a workspace (tests, recipients, classes, invitations, API keys, webhook
 * endpoints) calls this FIRST in its transaction, before any insert that references the
 * workspace. Writers of one workspace then run one after another, and each reads the
 * counts its limit depends on after the previous one committed, so limits hold exactly.
 *
 * `FOR NO KEY UPDATE`, not `FOR UPDATE`: an insert into a table with a foreign key to
 * `workspaces` takes `FOR KEY SHARE` on the workspace row. `FOR UPDATE` conflicts with
 * that, so (a) a transaction that inserted first and locked second had to upgrade its
 * lock while another held KEY SHARE — the deadlock of issue 8 — and (b) every unrelated
 * insert under the workspace (an event, an e-mail, a competition) would queue behind the
 * lock holder. `NO KEY UPDATE` conflicts with itself (so writers still serialise) and with
 * `FOR UPDATE`/`DELETE`, but not with `KEY SHARE`. It is also the lock an `UPDATE` of a
 * non-key column takes, so a plan change (`setPlan`) waits for a running writer too.
 */
export async function lockWorkspace(tx: Db, workspaceId: string): Promise<Workspace> {
  const [workspace] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId)).for("no key update");
  if (!workspace) throw notFound("Workspace");
  return workspace;
}
