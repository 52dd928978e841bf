import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { apiKeys, type ApiKey } from "@/db/schema";
import { transactionWithRetry } from "@/db/transaction";
import { AppError, notFound } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { planLimits } from "@/lib/platform/workspaces/plans";
import { lockWorkspace } from "@/lib/platform/workspaces/lock";
import type { ApiKeyView, CreateApiKeyInput } from "./schemas";
import { generateApiKeySecret } from "./secret";

export function toApiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Creates a key; the secret is returned here once and never again. The workspace row is
 * locked so that two creations at once cannot pass the active-key limit together.
 */
export async function createApiKey(
  db: Db,
  workspaceId: string,
  { name, scopes }: CreateApiKeyInput,
): Promise<{ key: ApiKeyView; secret: string }> {
  return transactionWithRetry(db, async (tx) => {
    const workspace = await lockWorkspace(tx, workspaceId);
    const [{ active }] = await tx
      .select({ active: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)));
    const limit = planLimits(workspace.plan).apiKeys;
    if (active >= limit) {
      throw new AppError("plan_limit_exceeded", `A workspace can have at most ${limit} active API keys. Revoke one first.`);
    }
    const { secret, prefix, hash } = generateApiKeySecret();
    const [key] = await tx
      .insert(apiKeys)
      .values({ id: newId("key"), workspaceId, name, prefix, hash, scopes: scopes ?? null })
      .returning();
    return { key: toApiKeyView(key), secret };
  });
}

export async function listApiKeys(db: Db, workspaceId: string): Promise<ApiKeyView[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, workspaceId))
    .orderBy(sql`${apiKeys.revokedAt} is not null`, desc(apiKeys.createdAt));
  return rows.map(toApiKeyView);
}

/** Revokes at once: the next request with this key, on any instance, gets 401. */
export async function revokeApiKey(db: Db, workspaceId: string, keyId: string): Promise<ApiKeyView> {
  const [key] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.workspaceId, workspaceId)))
    .returning();
  if (!key) throw notFound("API key");
  return toApiKeyView(key);
}
