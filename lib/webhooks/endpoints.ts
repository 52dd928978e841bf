import { randomBytes } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { webhookEndpoints, type WebhookEndpoint } from "@/db/schema";
import { transactionWithRetry } from "@/db/transaction";
import { offsetOf, page, type Page, type Paging } from "@/lib/api/paging";
import { AppError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { lockWorkspace } from "@/lib/workspaces/lock";
import { MAX_ENDPOINTS_PER_WORKSPACE, type CreateWebhookInput, type WebhookView } from "./schemas";

export function toWebhookView(endpoint: WebhookEndpoint): WebhookView {
  return { id: endpoint.id, url: endpoint.url, events: endpoint.events, created_at: endpoint.createdAt.toISOString() };
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64url")}`;
}

/**
 * Registers an endpoint. A supplied secret is kept as given; otherwise one is generated
 * and returned here once. The workspace row is locked so the endpoint limit holds.
 */
export async function createWebhook(
  db: Db,
  workspaceId: string,
  parsed: CreateWebhookInput,
  source: "api" | "dashboard",
): Promise<WebhookView & { secret?: string }> {
  return transactionWithRetry(db, async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const [{ total }] = await tx.select({ total: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId));
    if (total >= MAX_ENDPOINTS_PER_WORKSPACE) {
      throw new AppError("plan_limit_exceeded", `A workspace can register at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints.`);
    }
    const secret = parsed.secret ?? generateWebhookSecret();
    const [endpoint] = await tx
      .insert(webhookEndpoints)
      .values({ id: newId("wh"), workspaceId, url: parsed.url, events: parsed.events, secret, source })
      .returning();
    return { ...toWebhookView(endpoint), ...(parsed.secret ? {} : { secret }) };
  });
}

export async function listWebhooks(db: Db, workspaceId: string, paging: Paging): Promise<Page<WebhookView>> {
  const where = eq(webhookEndpoints.workspaceId, workspaceId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(webhookEndpoints).where(where).orderBy(desc(webhookEndpoints.createdAt)).limit(paging.per_page).offset(offsetOf(paging)),
    db.select({ total: count() }).from(webhookEndpoints).where(where),
  ]);
  return page(rows.map(toWebhookView), paging, total);
}

export async function getWebhook(db: Db, workspaceId: string, id: string): Promise<WebhookEndpoint> {
  const [endpoint] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)));
  if (!endpoint) throw notFound("Webhook");
  return endpoint;
}

/** Deletes an endpoint and its pending deliveries; nothing more is sent to it. */
export async function deleteWebhook(db: Db, workspaceId: string, id: string): Promise<WebhookView> {
  const [endpoint] = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)))
    .returning();
  if (!endpoint) throw notFound("Webhook");
  return toWebhookView(endpoint);
}
