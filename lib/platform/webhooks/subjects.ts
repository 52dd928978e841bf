import { z } from "zod";
import { type EventType, isEventType } from "@/lib/platform/pipeline/channels/webhook/events";
import { sampleEventData } from "./samples";

/** What a delivery was about, for the delivery log: the test and recipient, or the competition object. */
export const deliveryAbout = z
  .object({
    sample: z.boolean().meta({ description: "A sample event sent by the dashboard's \"Send test event\", not a real one (the delivery's `kind` is `test_event`)." }),
    test: z.string().nullable().meta({ description: "test.completed: the test's code." }),
    recipient_email: z.string().nullable().meta({ description: "test.completed: the recipient's e-mail address; member events: the member's." }),
    recipient_name: z.string().nullable().meta({ description: "test.completed: the recipient's name, null when they gave none." }),
    competition_id: z.string().nullable().meta({ description: "Competition events: the competition (`managed_ctf_id`) the event belongs to, when the event carries it." }),
    challenge_id: z.string().nullable().meta({ description: "Challenge and deployment events: the challenge." }),
    object: z
      .object({
        type: z.enum(["ctf", "challenge", "deployment", "member"]),
        id: z.string(),
        title: z.string().nullable(),
      })
      .nullable()
      .meta({ description: "Competition events: the object the event is about (a competition, challenge, deployment or member), its id and title when the event carries one." }),
    subject: z.string().meta({
      description:
        "The same in one line of words, as the dashboard shows it, e.g. `Test K7Q2M9XR · Ada Lovelace <ada@example.com>` or `Challenge “Buffer” (chl_…) · competition ctf_…`; a sample's says it is one.",
    }),
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

/** A sample's made-up test and recipient must not read as a real result's: its subject says what it is instead. */
export const SAMPLE_SUBJECT = "Sample data from “Send test event”, not a real result";

/** A delivery's subject in words, from the fields above: the test and recipient, or the competition object and what it belongs to. */
function subjectOf(about: Omit<DeliveryAbout, "subject">): string {
  if (about.sample) return SAMPLE_SUBJECT;
  const who = about.recipient_email && about.recipient_name ? `${about.recipient_name} <${about.recipient_email}>` : about.recipient_email;
  if (about.test) return [`Test ${about.test}`, who].filter(Boolean).join(" · ");
  const object = about.object;
  const titled = (noun: string, id: string, title: string | null) => (title ? `${noun} “${title}” (${id})` : `${noun} ${id}`);
  const parts: string[] = [];
  if (object?.type === "ctf") parts.push(titled("Competition", object.id, object.title));
  if (object?.type === "challenge") parts.push(titled("Challenge", object.id, object.title));
  if (object?.type === "deployment") parts.push(`Deployment ${object.id}`);
  if (object?.type === "member") parts.push(`Member ${who ?? object.id}`);
  if (object?.type !== "challenge" && about.challenge_id) parts.push(`challenge ${about.challenge_id}`);
  if (object?.type !== "ctf" && about.competition_id) parts.push(`competition ${about.competition_id}`);
  return parts.join(" · ");
}

/** What a delivery of an event of `type` with `data` was about. */
export function aboutEvent(type: string, data: Record<string, unknown>): DeliveryAbout {
  const sample = isSampleEvent(type, data);
  const recipient = (type === "test.completed" ? (data.recipient ?? {}) : {}) as Record<string, unknown>;
  const about: Omit<DeliveryAbout, "subject"> =
    type === "test.completed"
      ? { sample, test: text(data.test), recipient_email: text(recipient.email), recipient_name: text(recipient.name)?.trim() || null, competition_id: null, challenge_id: null, object: null }
      : { sample, test: null, recipient_email: text(data.email), recipient_name: null, competition_id: text(data.managed_ctf_id), challenge_id: text(data.challenge_id), object: objectOf(data) };
  return { ...about, subject: subjectOf(about) };
}
