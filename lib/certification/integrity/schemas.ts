import { z } from "zod";

/**
 * The integrity record of an attempt (a test's `record_integrity`): what the recipient's page
 * posts, and what the trainer reads. Definitions: docs/decisions.md ("Integrity record").
 */

/** At most this many events in one post (the page sends a handful at a time). */
export const MAX_EVENTS_PER_POST = 50;
/** One hidden span counts for at most a day (a laptop closed over a weekend is one long absence, not more). */
export const MAX_HIDDEN_SPAN_MS = 24 * 60 * 60 * 1000;

const integrityEvent = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ type: z.literal("opened").meta({ description: "The page was opened: the request's browser joins the browsers that opened the link." }) }),
    z.strictObject({
      type: z.literal("hidden").meta({ description: "The page was hidden (another tab or window) and came back, or was closed while hidden." }),
      ms: z
        .number({ error: "Give the hidden span in whole milliseconds." })
        .min(0, "At least 0.")
        // Number.isInteger, not .int(): .int() also refuses whole numbers past 2^53, which the cap below takes (found from outside: 1e300 was refused).
        .refine(Number.isInteger, "Give the hidden span in whole milliseconds.")
        .transform((ms) => Math.min(ms, MAX_HIDDEN_SPAN_MS))
        .meta({ description: `How long the page was hidden, in whole milliseconds; a span over ${MAX_HIDDEN_SPAN_MS} (24 h) counts as 24 h, however long.` }),
    }),
    z.strictObject({ type: z.literal("copy").meta({ description: "A copy (or cut) in the page; nothing is prevented, only counted." }) }),
    z.strictObject({ type: z.literal("fullscreen_exit").meta({ description: "The page left full screen after having been in it." }) }),
  ],
  { error: "One of opened, hidden, copy, fullscreen_exit." },
);
export type IntegrityEvent = z.output<typeof integrityEvent>;

/** POST /api/t/{token}/events: a batch of what the page saw. */
export const integrityEventsInput = z.strictObject({
  events: z
    .array(integrityEvent, { error: "Give a list of events." })
    .min(1, "Give at least one event.")
    .max(MAX_EVENTS_PER_POST, `At most ${MAX_EVENTS_PER_POST} events per post.`)
    .meta({ description: `What the page saw since its last post (1–${MAX_EVENTS_PER_POST}).` }),
});
export type IntegrityEventsInput = z.output<typeof integrityEventsInput>;

const seenAt = z
  .object({
    address: z.string().nullable().meta({ description: "The client's address (an IPv6 address as its /64 prefix); null when none could be read." }),
    browser: z.string().nullable().meta({ description: "The User-Agent header (at most 300 characters); null when none was sent." }),
  })
  .nullable();

/** On the answer sheet: what was seen of the attempt. Never a verdict. */
export const integrityView = z
  .object({
    start: seenAt.meta({ description: "Where Start was pressed from; null when not recorded." }),
    submit: seenAt.meta({ description: "Where the test was submitted from; null before submission, or when the server submitted it at the deadline." }),
    browsers: z.number().int().meta({ description: "Distinct browsers (by User-Agent) that opened the link, Start and submit included (at most 20 are told apart)." }),
    address_changed: z.boolean().meta({ description: "Start and submit came from different addresses (false while either is unknown)." }),
    hidden: z.object({
      count: z.number().int().meta({ description: "How often the page was hidden (another tab or window) during the attempt." }),
      seconds: z.number().int().meta({ description: "How long it was hidden in all, in whole seconds (each span counted up to 24 h)." }),
    }),
    copy_attempts: z.number().int().meta({ description: "Copy or cut events in the page during the attempt (nothing is prevented)." }),
    fullscreen_exits: z.number().int().meta({ description: "Times the page left full screen after having been in it." }),
    flagged: z.boolean().meta({
      description: "Something was seen: more than one browser, the address changed between start and submit, or the page was hidden, copied from or left full screen.",
    }),
  })
  .meta({ id: "Integrity" });
export type IntegrityView = z.infer<typeof integrityView>;

/** The answer sheet's field: the record, or null when nothing was recorded. */
export const integrityField = integrityView.nullable().meta({
  description:
    "Not in the specification (additive). What was seen of the attempt (the test's `record_integrity`): signals to read beside the result, never a verdict. " +
    "null when nothing was recorded (record_integrity false, or the link never opened with it on).",
});
