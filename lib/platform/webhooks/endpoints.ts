import { randomBytes } from "node:crypto";
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { webhookEndpoints, type WebhookEndpoint, type WebhookService } from "@/db/schema";
import { transactionWithRetry } from "@/db/transaction";
import type { Page, Paging } from "@/lib/kernel/paging";
import { AppError, notFound } from "@/lib/kernel/errors";
import { certificationEvent, MAX_ENDPOINTS_PER_WORKSPACE } from "@/lib/platform/pipeline/channels/webhook/events";
import { newId } from "@/lib/kernel/ids";
import { seal } from "@/lib/platform/security/sealing";
import { lockWorkspace } from "@/lib/platform/workspaces/lock";
import type { CreateTestResultWebhookInput, CreateWebhookInput, UpdateWebhookInput, WebhookView } from "./schemas";

export function toWebhookView(endpoint: WebhookEndpoint): WebhookView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    created_at: endpoint.createdAt.toISOString(),
    enabled: endpoint.enabled,
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
    disabled_reason: endpoint.disabledReason ?? null,
  };
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64url")}`;
}

type NewEndpoint = { service: WebhookService; url: string; events: string[]; secret: string; source: "api" | "dashboard" };

/** Inserts an endpoint under the workspace lock, so the limit per service holds; the secret is stored sealed. */
async function insertEndpoint(db: Db, workspaceId: string, { secret, ...values }: NewEndpoint): Promise<WebhookEndpoint> {
  return transactionWithRetry(db, async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const [{ total }] = await tx.select({ total: count() }).from(webhookEndpoints).where(ofService(workspaceId, values.service));
    if (total >= MAX_ENDPOINTS_PER_WORKSPACE) {
      const what = values.service === "certification" ? "test-result webhook endpoints" : "webhook endpoints";
      throw new AppError("plan_limit_exceeded", `A workspace can register at most ${MAX_ENDPOINTS_PER_WORKSPACE} ${what}.`);
    }
    const [endpoint] = await tx
      .insert(webhookEndpoints)
      .values({ id: newId("wh"), workspaceId, ...values, secretSealed: seal("webhook_endpoints.secret", secret) })
      .returning();
    return endpoint;
  });
}

/**
 * Registers a competition endpoint (POST /api/v1/webhooks). A supplied secret is kept as
 * given; otherwise one is generated and returned here once.
 */
export async function createWebhook(
  db: Db,
  workspaceId: string,
  parsed: CreateWebhookInput,
  source: "api" | "dashboard",
): Promise<WebhookView & { secret?: string }> {
  const secret = parsed.secret ?? generateWebhookSecret();
  const endpoint = await insertEndpoint(db, workspaceId, { service: "competition", url: parsed.url, events: parsed.events, secret, source });
  return { ...toWebhookView(endpoint), ...(parsed.secret ? {} : { secret }) };
}

/**
 * Registers a test-result endpoint (the trainer area): it receives `test.completed` only,
 * signed with a generated secret returned here once.
 */
export async function createTestResultWebhook(db: Db, workspaceId: string, parsed: CreateTestResultWebhookInput): Promise<WebhookView & { secret: string }> {
  const secret = generateWebhookSecret();
  const endpoint = await insertEndpoint(db, workspaceId, { service: "certification", url: parsed.url, events: [certificationEvent], secret, source: "dashboard" });
  return { ...toWebhookView(endpoint), secret };
}

function ofService(workspaceId: string, service: WebhookService): SQL {
  return and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.service, service))!;
}

/** The workspace's endpoints of one service, newest first. */
export async function listWebhooks(db: Db, workspaceId: string, service: WebhookService, paging: Paging): Promise<Page<WebhookView>> {
  const where = ofService(workspaceId, service);
  return readPage(paging, db.select().from(webhookEndpoints).where(where).orderBy(desc(webhookEndpoints.createdAt)), countRows(db, webhookEndpoints, where), toWebhookView);
}

/** One endpoint of the workspace; given a service, an endpoint of the other one is not found. */
export async function getWebhook(db: Db, workspaceId: string, id: string, service?: WebhookService): Promise<WebhookEndpoint> {
  const [endpoint] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), service ? ofService(workspaceId, service) : eq(webhookEndpoints.workspaceId, workspaceId)));
  if (!endpoint) throw notFound("Webhook");
  return endpoint;
}

/** Deletes an endpoint of one service and its pending deliveries; nothing more is sent to it. */
export async function deleteWebhook(db: Db, workspaceId: string, service: WebhookService, id: string): Promise<WebhookView> {
  const [endpoint] = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), ofService(workspaceId, service)))
    .returning();
  if (!endpoint) throw notFound("Webhook");
  return toWebhookView(endpoint);
}

/**
 * Changes an endpoint of one service (PATCH): what is given changes, what is absent stays.
 * Disabling stops every send (new events and pending retries are recorded `not_sent`);
 * enabling clears why it was disabled and the run of failures that may have disabled it.
 */
export async function updateWebhook(db: Db, workspaceId: string, service: WebhookService, id: string, input: UpdateWebhookInput): Promise<WebhookView> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const current = await lockEndpoint(tx, workspaceId, service, id);
    const toggled =
      input.enabled === undefined || input.enabled === current.enabled
        ? {}
        : input.enabled
          ? { enabled: true, disabledAt: null, disabledReason: null, failingSince: null }
          : { enabled: false, disabledAt: now, disabledReason: "manual" as const };
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ ...(input.url === undefined ? {} : { url: input.url }), ...(input.events === undefined ? {} : { events: input.events }), ...toggled, updatedAt: now })
      .where(eq(webhookEndpoints.id, current.id))
      .returning();
    return toWebhookView(endpoint);
  });
}

/** How long the secret before a rotation keeps signing deliveries beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * Rotates an endpoint's signing secret: the caller's own or a generated one, returned this
 * once. The current secret becomes the previous one and signs too for SECRET_OVERLAP_MS
 * (a second rotation within the overlap replaces it with the then-current one).
 */
export async function rotateWebhookSecret(
  db: Db,
  workspaceId: string,
  service: WebhookService,
  id: string,
  chosen: string | undefined,
): Promise<{ id: string; secret: string; previous_secret_expires_at: string }> {
  const secret = chosen ?? generateWebhookSecret();
  const expiresAt = new Date(Date.now() + SECRET_OVERLAP_MS);
  return db.transaction(async (tx) => {
    const current = await lockEndpoint(tx, workspaceId, service, id);
    await tx
      .update(webhookEndpoints)
      .set({
        secretSealed: seal("webhook_endpoints.secret", secret),
        previousSecretSealed: current.secretSealed,
        previousSecretExpiresAt: expiresAt,
        updatedAt: new Date(),
      })
      .where(eq(webhookEndpoints.id, current.id));
    return { id: current.id, secret, previous_secret_expires_at: expiresAt.toISOString() };
  });
}

/** An endpoint of one service, its row locked for the rest of the transaction (changes and recovery of one endpoint run one at a time). */
export async function lockEndpoint(tx: Db, workspaceId: string, service: WebhookService, id: string): Promise<WebhookEndpoint> {
  const [endpoint] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), ofService(workspaceId, service)))
    .for("update");
  if (!endpoint) throw notFound("Webhook");
  return endpoint;
}
