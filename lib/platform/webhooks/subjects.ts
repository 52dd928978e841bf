import { z } from "zod";
import { type EventType, isEventType } from "@/lib/platform/pipeline/channels/webhook/events";
import { sampleEventData } from "./samples";

/** What a delivery was about, for the delivery log: the test and recipient, or the competition object. */
export const deliveryAbout = z
  .object({
    sample: z.boolean().meta({ description: "A sample event sent by the dashboard's \"Send test event\", not a real one." }),
    test: z.string().nullable().meta({ description: "test.completed: the test's code." }),
    recipient_email: z.string().nullable().meta({ description: "test.completed: the recipient's e-mail address; member events: the member's." }),
    object: z
      .object({
        type: z.enum(["ctf", "challenge", "deployment", "member"]),
        id: z.string(),
        title: z.string().nullable(),
      })
      .nullable()
      .meta({ description: "Competition events: the object the event is about (a competition, challenge, deployment or member), its id and title when the event carries one." }),
  })
  .meta({ id: "DeliveryAbout" });
export type DeliveryAbout = z.infer<typeof deliveryAbout>;

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** The object a competition event is about: the most specific id its data carries. */
function objectOf(data: Record<string, unknown>): DeliveryAbout["object"] {
  if (text(data.member_id)) return { type: "member", id: text(data.member_id)!, title: null };
  if (text(data.deployment_id)) return { type: "deployment", id: text(data.deployment_id)!, title: null };
  if (text(data.challenge_id)) return { type: "challenge", id: text(data.challenge_id)!, title: text(data.title) };
  if (text(data.managed_ctf_id)) return { type: "ctf", id: text(data.managed_ctf_id)!, title: text(data.title) };
  return null;
}

/** The identifying values of an event's data: what tells a sample (whose ids are `…_SAMPLE`, never a real id) from a real event. */
function identity(type: EventType, data: Record<string, unknown>): string {
  if (type === "test.completed") {
    const recipient = (data.recipient ?? {}) as Record<string, unknown>;
    return JSON.stringify([data.test, recipient.email, recipient.name]);
  }
  return JSON.stringify([data.managed_ctf_id, data.challenge_id, data.deployment_id, data.member_id]);
}

/** Whether an event is the dashboard's sample (lib/platform/webhooks/samples.ts): same identifying values as the sample of its type. */
export function isSampleEvent(type: string, data: Record<string, unknown>): boolean {
  return isEventType(type) && identity(type, data) === identity(type, sampleEventData(type) as Record<string, unknown>);
}

/** What a delivery of an event of `type` with `data` was about. */
export function aboutEvent(type: string, data: Record<string, unknown>): DeliveryAbout {
  const sample = isSampleEvent(type, data);
  if (type === "test.completed") {
    const recipient = (data.recipient ?? {}) as Record<string, unknown>;
    return { sample, test: text(data.test), recipient_email: text(recipient.email), object: null };
  }
  return { sample, test: null, recipient_email: text(data.email), object: objectOf(data) };
}
