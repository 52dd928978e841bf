import type { Db } from "@/db";
import { createApiKey } from "@/lib/keys";
import type { ApiScope } from "@/lib/keys/scopes";
import { ensureUserWorkspace } from "@/lib/workspaces";

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
