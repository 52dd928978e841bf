import { z } from "zod";
import type { webhookServices } from "@/db/schema/statuses";

/** The service an event belongs to: the endpoints it goes to and the wire format it is delivered in. */
export type EventService = (typeof webhookServices)[number];

const domainResult = z.object({
  id: z.number().int(),
  name: z.string(),
  percent: z.number(),
  correct: z.number().int(),
  questions: z.number().int(),
});

const ctfRef = { managed_ctf_id: z.string(), title: z.string() };

/**
 * Every event the platform emits, with the service it belongs to and the schema of its data.
 * Certification events go to test-result endpoints, competition events to competition
 * endpoints; `available_events` (the competition API's list) is derived from this table, and
 * publishing an event validates its data against it.
 */
export const eventCatalog = {
  "test.completed": {
    service: "certification",
    description: "A recipient completed a test.",
    data: z.object({
      test: z.string(),
      score: z.number(),
      correct: z.number().int(),
      questions: z.number().int(),
      recipient: z.object({ email: z.string(), name: z.string() }),
      domains: z.array(domainResult),
      /**
       * Not in the specification (additive): score ≥ the test's pass_mark, null without a pass
       * mark. Every completion sends it; optional only for events recorded before it existed.
       */
      passed: z.boolean().nullable().optional(),
      /**
       * Not in the specification (additive): the certificate's public verification page
       * (/certificates/{id}) when the test issues certificates and the result passed; null
       * otherwise. Optional only for events recorded before it existed.
       */
      certificate_url: z.string().nullable().optional(),
    }),
  },
  "ctf.deployed": {
    service: "competition",
    description: "A managed competition instance finished deploying and is reachable.",
    data: z.object({ ...ctfRef, url: z.string(), is_public: z.boolean() }),
  },
  "ctf.archived": {
    service: "competition",
    description: "The final snapshot of a managed competition was archived.",
    data: z.object({ ...ctfRef, archived_at: z.string(), challenges: z.number().int(), members: z.number().int() }),
  },
  "ctf.deleted": {
    service: "competition",
    description: "A managed competition and its infrastructure were deleted.",
    data: z.object({ ...ctfRef, deleted_at: z.string() }),
  },
  "challenge.published": {
    service: "competition",
    description: "A challenge was published to the hosting competition platform.",
    data: z.object({
      managed_ctf_id: z.string(),
      challenge_id: z.string(),
      title: z.string(),
      category: z.string(),
      platform_challenge_id: z.number().int(),
    }),
  },
  "challenge.unpublished": {
    service: "competition",
    description: "A challenge was removed from the hosting competition platform.",
    data: z.object({
      managed_ctf_id: z.string(),
      challenge_id: z.string(),
      title: z.string(),
      category: z.string(),
      platform_challenge_id: z.number().int(),
    }),
  },
  "deployment.deployed": {
    service: "competition",
    description: "A standalone single-challenge deployment went live.",
    data: z.object({ deployment_id: z.string(), challenge_id: z.string(), url: z.string(), starts_at: z.string(), ends_at: z.string() }),
  },
  "deployment.stopped": {
    service: "competition",
    description: "A single-challenge deployment was stopped because its window elapsed.",
    data: z.object({ deployment_id: z.string(), challenge_id: z.string(), stopped_at: z.string(), reason: z.string() }),
  },
  "member.invited": {
    service: "competition",
    description: "A competitor was invited to a competition (also on re-invitation or self-enrolment).",
    data: z.object({ managed_ctf_id: z.string(), member_id: z.string(), email: z.string(), invited_at: z.string(), reinvited: z.boolean(), self_enrolled: z.boolean() }),
  },
  "member.joined": {
    service: "competition",
    description: "An invited competitor accepted and joined.",
    data: z.object({ managed_ctf_id: z.string(), member_id: z.string(), email: z.string(), joined_at: z.string() }),
  },
} as const satisfies Record<string, { service: EventService; description: string; data: z.ZodType }>;

export type EventType = keyof typeof eventCatalog;
export type EventData<T extends EventType> = z.input<(typeof eventCatalog)[T]["data"]>;

type EventOf<S extends EventService> = { [T in EventType]: (typeof eventCatalog)[T]["service"] extends S ? T : never }[EventType];
export type CompetitionEventType = EventOf<"competition">;

/** The nine competition events: `available_events` of GET /api/v1/webhooks, all a competition endpoint can receive. */
export const competitionEvents = (Object.keys(eventCatalog) as EventType[]).filter(
  (type): type is CompetitionEventType => eventCatalog[type].service === "competition",
);

/** The one event of the certification service: all a test-result endpoint receives. */
export const certificationEvent = "test.completed" satisfies EventOf<"certification">;

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(eventCatalog, value);
}

export function isCompetitionEvent(value: string): value is CompetitionEventType {
  return isEventType(value) && eventCatalog[value].service === "competition";
}

export function serviceOf(type: string): EventService {
  return isEventType(type) ? eventCatalog[type].service : "competition";
}

/** Endpoints of one service a workspace may register (competition and test-result endpoints count apart). */
export const MAX_ENDPOINTS_PER_WORKSPACE = 20;
