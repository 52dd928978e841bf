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

export const webhookSamples: Samples = {
  "webhooks.list": {},
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
};
