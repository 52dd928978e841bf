import { eq } from "drizzle-orm";
import { webhookDeliveries } from "@/db/schema";
import { createTestResultWebhook, createWebhook } from "@/lib/platform/webhooks/endpoints";
import type { Db } from "@/db";
import type { Trainer } from "../fixtures";
import type { Samples } from "./types";
import { sendTestEvent } from "@/lib/platform/webhooks/deliveries";

const ownWebhook = async (db: Db, trainer: Trainer) => ({
  id: (await createWebhook(db, trainer.workspaceId, { url: "https://example.com/hook", events: [] }, "api")).id,
});

const ownTestResultWebhook = async (db: Db, trainer: Trainer) => ({
  id: (await createTestResultWebhook(db, trainer.workspaceId, { url: "https://example.com/results" })).id,
});

/** An endpoint with one delivery (a sample event), for the redeliver routes. */
const withDelivery = async (db: Db, trainer: Trainer, own: (db: Db, trainer: Trainer) => Promise<{ id: string }>) => {
  const { id } = await own(db, trainer);
  const { delivery_id } = await sendTestEvent(db, trainer.workspaceId, id);
  return { id, delivery_id };
};

const anHourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

export const webhookSamples: Samples = {
  "webhooks.list": {},
  "webhooks.health": {},
  "webhooks.create": { body: () => ({ url: "https://example.com/hook", events: [] }) },
  "webhooks.delete": { params: ({ db }, trainer) => ownWebhook(db, trainer) },
  "webhooks.deliveries": { params: ({ db }, trainer) => ownWebhook(db, trainer) },
  "webhooks.test": { params: ({ db }, trainer) => ownWebhook(db, trainer) },
  "deliveries.redeliver": {
    params: async ({ db }, trainer) => {
      const { id } = await ownWebhook(db, trainer);
      await sendTestEvent(db, trainer.workspaceId, id);
      const [delivery] = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
      return { id: delivery.id };
    },
  },
  "testResultWebhooks.list": {},
  "testResultWebhooks.create": { body: () => ({ url: "https://example.com/results" }) },
  "testResultWebhooks.delete": { params: ({ db }, trainer) => ownTestResultWebhook(db, trainer) },
  "testResultWebhooks.deliveries": { params: ({ db }, trainer) => ownTestResultWebhook(db, trainer) },
  "webhooks.update": { params: ({ db }, trainer) => ownWebhook(db, trainer), body: () => ({ url: "https://example.com/hook-2", events: ["ctf.deployed"], enabled: false }) },
  "webhooks.rotateSecret": { params: ({ db }, trainer) => ownWebhook(db, trainer), body: () => ({}) },
  "webhooks.recover": { params: ({ db }, trainer) => ownWebhook(db, trainer), body: () => ({ since: anHourAgo() }) },
  "webhooks.redeliver": { params: ({ db }, trainer) => withDelivery(db, trainer, ownWebhook) },
  "testResultWebhooksApi.list": {},
  "testResultWebhooksApi.create": { body: () => ({ url: "https://example.com/results" }) },
  "testResultWebhooksApi.delete": { params: ({ db }, trainer) => ownTestResultWebhook(db, trainer) },
  "testResultWebhooksApi.deliveries": { params: ({ db }, trainer) => ownTestResultWebhook(db, trainer) },
  "testResultWebhooksApi.update": { params: ({ db }, trainer) => ownTestResultWebhook(db, trainer), body: () => ({ url: "https://example.com/results-2", enabled: false }) },
  "testResultWebhooksApi.rotateSecret": { params: ({ db }, trainer) => ownTestResultWebhook(db, trainer), body: () => ({}) },
  "testResultWebhooksApi.recover": { params: ({ db }, trainer) => ownTestResultWebhook(db, trainer), body: () => ({ since: anHourAgo() }) },
  "testResultWebhooksApi.redeliver": { params: ({ db }, trainer) => withDelivery(db, trainer, ownTestResultWebhook) },
};
