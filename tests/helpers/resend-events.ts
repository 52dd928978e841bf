import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { emailMessages } from "@/db/schema";
import { call } from "./http";

/** A signing secret as Resend shows it: `whsec_` + base64 of random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * Signs a body the way Svix (and so Resend) does: HMAC-SHA256 with the base64-decoded
 * secret over `${id}.${timestamp}.${body}`, sent as `v1,<base64>`. Written out here on
 * purpose, independent of the SDK the app verifies with.
 */
export function svixSign(secret: string, body: string, options: { id?: string; timestamp?: number } = {}): Record<string, string> {
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return { "svix-id": id, "svix-timestamp": String(timestamp), "svix-signature": `v1,${signature}` };
}

/** A Resend e-mail event, as its webhook body. */
export function resendEvent(type: string, emailId: string, extra: { createdAt?: Date; bounce?: { message: string; type: string; subType: string } } = {}): string {
  const createdAt = (extra.createdAt ?? new Date()).toISOString();
  return JSON.stringify({
    type,
    created_at: createdAt,
    data: {
      created_at: createdAt,
      email_id: emailId,
      from: "Certify <no-reply@certify.example>",
      to: ["someone@example.com"],
      subject: "Your practice test",
      ...(extra.bounce ? { bounce: extra.bounce } : {}),
    },
  });
}

type Handler = (req: Request, context: any) => Promise<Response>;

/** POSTs a raw body with the given headers to the real route handler. */
export function postWebhook(handler: Handler, body: string, headers: Record<string, string>) {
  return call(handler, "/api/webhooks/resend", { method: "POST", body, headers });
}

/**
 * What the e-mail sender records when the provider accepts a message (status sent, the
 * provider's id): here for the messages of one recipient or invitation, so the webhook
 * tests do not depend on the sending path. One test goes through the real sender too.
 */
export async function acceptByProvider(db: Db, owner: { recipientId: number } | { invitationId: number }): Promise<string> {
  const providerId = randomUUID();
  const where = "recipientId" in owner ? eq(emailMessages.recipientId, owner.recipientId) : eq(emailMessages.invitationId, owner.invitationId);
  const rows = await db.update(emailMessages).set({ status: "sent", providerId, sentAt: new Date(), attempts: 1 }).where(where).returning();
  if (rows.length !== 1) throw new Error(`expected one message, found ${rows.length}`);
  return providerId;
}

/** Every message's delivery columns: a refused or ignored webhook must leave them as they were. */
export async function deliverySnapshot(db: Db): Promise<string> {
  const rows = await db
    .select({
      id: emailMessages.id,
      status: emailMessages.status,
      deliveryStatus: emailMessages.deliveryStatus,
      deliveryDetail: emailMessages.deliveryDetail,
      deliveryUpdatedAt: emailMessages.deliveryUpdatedAt,
    })
    .from(emailMessages)
    .orderBy(emailMessages.id);
  return JSON.stringify(rows);
}
