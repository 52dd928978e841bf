import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { domains } from "@/db/schema";
import { catalogCertificationId } from "@/db/seed";
import { createApiKey } from "@/lib/platform/keys";
import type { ApiScope } from "@/lib/kernel/scopes";
import { ensureUserWorkspace } from "@/lib/platform/workspaces";

let counter = 0;

/** A trainer with a workspace and one key (full access unless scopes are given). */
export async function createTrainer(db: Db, options: { email?: string; scopes?: ApiScope[] } = {}) {
  counter += 1;
  const email = options.email ?? `trainer${counter}-${Date.now()}@example.test`;
  const { userId, workspace } = await ensureUserWorkspace(db, email);
  const { key, secret } = await createApiKey(db, workspace.id, { name: "test key", scopes: options.scopes ?? null });
  return { userId, email, workspace, workspaceId: workspace.id, key, secret };
}
export type Trainer = Awaited<ReturnType<typeof createTrainer>>;

/** A catalog certification (by its seed slug) and its domains' ids in their order: what a test of it is made from. */
export async function catalogCertification(db: Db, slug = "comptia-security-plus-sy0-701"): Promise<{ certificationId: number; domainIds: number[] }> {
  const certificationId = await catalogCertificationId(db, slug);
  if (!certificationId) throw new Error(`the catalog seed has no ${slug}`);
  const rows = await db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, certificationId)).orderBy(asc(domains.position));
  return { certificationId, domainIds: rows.map((row) => row.id) };
}
