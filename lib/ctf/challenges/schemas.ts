import { z } from "zod";
import { challengeStatuses, flagModes } from "@/db/schema/statuses";

/** The flag modes, for the dashboard's forms (components/ never import db/). */
export { flagModes };
import { pageSchema } from "@/lib/kernel/paging";
import { DISPLAY_LINE_MESSAGE, isDisplayLine } from "@/lib/kernel/values";
import { FLAG_MAX_LENGTH, regexFlagProblem } from "./flags/pattern";
import { challengeCategories, difficulties, templateCatalog, templateKeys } from "@/lib/ctf/templates/catalog";
const hint = z.object({ text: z.string().trim().min(1).max(1000).meta({ description: "Markdown, shown to players rendered safely (no raw HTML, no images)." }), cost: z.number().int().min(0).max(10_000).default(0) });

const flagMode = z
  .enum(flagModes)
  .meta({
    description:
      "How a submitted flag is checked (additive; default `exact`): `exact` (case-sensitive), `case_insensitive`, or `regex` (`flag` is an RE2 pattern the whole submission must match, checked in linear time; no back-references or look-arounds).",
  });

/** `scoring` (additive): `static` is worth `points`; `dynamic` falls from `initial` to `minimum` over `decay` solves, CTFd's formula. */
export const scoringInput = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("static") }),
    z.object({
      type: z.literal("dynamic"),
      initial: z.number().int().min(1).max(10_000).meta({ description: "The value while nobody (or one solver) has solved it." }),
      minimum: z.number().int().min(0).max(10_000).meta({ description: "The value it never falls below." }),
      decay: z.number().int().min(1).max(100_000).meta({ description: "The number of solves after which it is worth `minimum`." }),
    }),
  ])
  .refine((value) => value.type !== "dynamic" || value.minimum <= value.initial, { message: "minimum must not be above initial.", path: ["minimum"] })
  .meta({
    id: "ChallengeScoring",
    description:
      "Additive. `{type: \"static\"}` (the default): worth `points`. `{type: \"dynamic\", initial, minimum, decay}`: CTFd's dynamic value, ceil(((minimum − initial) / decay²) · s² + initial), never below minimum, s = solves − 1; every solver's score follows the current value.",
  });

const challengeId = z.string().trim().min(1).max(100);

/** The values in their first order, each once. */
const distinct = (values: string[]) => [...new Set(values)];

const challengeFields = z.object({
  title: z.string().trim().min(1).max(200),
  category: z.enum(challengeCategories),
  difficulty: z.enum(difficulties).optional(),
  description: z
    .string()
    .trim()
    .max(10_000)
    .default("")
    .meta({ description: "Markdown, shown to players rendered safely: no raw HTML (it shows as nothing), no images (their alternative text stands in), links open with rel=\"noopener nofollow\"." }),
  points: z.number().int().min(1).max(10_000).default(100),
  flag: z.string().trim().min(1, "Give the flag.").max(FLAG_MAX_LENGTH).meta({ description: "Stored hashed (a `regex` pattern sealed); never returned." }),
  flag_mode: flagMode.default("exact"),
  hints: z.array(hint).max(10).default([]),
  scoring: scoringInput.default({ type: "static" }),
  requires: z
    .array(challengeId)
    // A repeated id is kept once, before the limit is counted.
    .transform(distinct)
    .pipe(z.array(z.string()).max(20, "At most 20 challenges (a repeated one counts once)."))
    .default([])
    .meta({ description: "Additive: ids of this competition's challenges a player (or team) must have solved before this one opens; until then its flag, hints and files answer 409. At most 20 distinct (a repeated id is kept once, before the limit is counted)." }),
  max_attempts: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .default(null)
    .meta({ description: "Additive: wrong flags a player (or team) may submit before the challenge closes for them; null (the default) for unlimited. The per-minute throttle applies as well." }),
  tags: z
    .array(z.string().trim().min(1).max(50).refine(isDisplayLine, DISPLAY_LINE_MESSAGE))
    // A repeated tag is kept once, before the limit is counted.
    .transform(distinct)
    .pipe(z.array(z.string()).max(10, "At most 10 tags (a repeated one counts once)."))
    .default([])
    .meta({ description: "Additive: free labels shown on the challenge's card: at most 10 distinct, each 1–50 characters of visible text on one line (no control, invisible, formatting or text-direction characters); a repeated one is kept once." }),
});

/** A `regex` flag must be a pattern RE2 compiles, within its size bound (./flag-pattern): else a field error on `flag`. */
const checkPattern = (value: { flag?: string; flag_mode?: string }, context: z.RefinementCtx) => {
  // A flag over the length bound already has its field error.
  if (value.flag_mode !== "regex" || value.flag === undefined || value.flag.length > FLAG_MAX_LENGTH) return;
  const problem = regexFlagProblem(value.flag);
  if (problem) context.addIssue({ code: "custom", message: problem, path: ["flag"] });
};

export const createChallengeInput = challengeFields.superRefine(checkPattern);

export type CreateChallengeInput = z.output<typeof createChallengeInput>;

/**
 * A change of `flag_mode` without a `flag` re-derives the check from the stored flag (to `regex`, it must be a valid pattern).
 * Every field with a default on creation is unwrapped: left out of a PATCH, it keeps its value (not the default).
 */
export const updateChallengeInput = challengeFields
  .extend({
    description: challengeFields.shape.description.unwrap().optional().meta(challengeFields.shape.description.meta() ?? {}),
    points: challengeFields.shape.points.unwrap().optional(),
    hints: challengeFields.shape.hints.unwrap().optional(),
  })
  .extend({ flag_mode: flagMode.optional(), scoring: scoringInput.optional(), requires: challengeFields.shape.requires.unwrap().optional(), max_attempts: z.number().int().min(1).max(1000).nullable().optional(), tags: challengeFields.shape.tags.unwrap().optional() })
  .partial()
  .superRefine(checkPattern);

export type UpdateChallengeInput = z.output<typeof updateChallengeInput>;

export const generateChallengeInput = z
  .object({
    category: z.enum(challengeCategories),
    difficulty: z.enum(difficulties),
    template: z
      .enum(templateKeys)
      .optional()
      .meta({ description: "Additive: the shipped template to build (one of the category's, see the generated challenges' table); by default one of the category's is drawn at random." }),
  })
  .superRefine((value, context) => {
    const entry = templateCatalog.find((candidate) => candidate.key === value.template);
    if (entry && value.category && entry.category !== value.category) {
      const own = templateCatalog.filter((candidate) => candidate.category === value.category).map((candidate) => candidate.key);
      context.addIssue({ code: "custom", path: ["template"], message: `${entry.title} is a ${entry.category} template; ${value.category} has: ${own.join(", ")}.` });
    }
  });

export type GenerateChallengeInput = z.output<typeof generateChallengeInput>;

export const challengeView = z
  .object({
    id: z.string().meta({ example: "chl_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
    managed_ctf_id: z.string(),
    title: z.string(),
    category: z.string(),
    difficulty: z.string().nullable(),
    description: z.string(),
    points: z.number().int().meta({ description: "What the challenge is worth now: a static challenge's points; a dynamic challenge's current value (it falls with each solve)." }),
    scoring: z
      .discriminatedUnion("type", [z.object({ type: z.literal("static") }), z.object({ type: z.literal("dynamic"), initial: z.number().int(), minimum: z.number().int(), decay: z.number().int() })])
      .meta({ description: "Additive: how the challenge is worth points (see ChallengeScoring)." }),
    requires: z.array(z.string()).meta({ description: "Additive: challenges that must be solved before this one opens." }),
    max_attempts: z.number().int().nullable().meta({ description: "Additive: wrong flags allowed per player or team; null for unlimited." }),
    tags: z.array(z.string()).meta({ description: "Additive: the challenge's labels." }),
    flag_mode: z.enum(flagModes).meta({ description: "How a submitted flag is checked (additive): exact, case_insensitive or regex." }),
    hints: z.array(z.object({ text: z.string(), cost: z.number().int() })),
    template: z
      .string()
      .nullable()
      .meta({ description: "Additive: the shipped template a generated challenge was built from (its flag and solution can be revealed); null for a challenge written by hand." }),
    status: z.enum(challengeStatuses),
    platform_challenge_id: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Challenge" });

export type ChallengeView = z.infer<typeof challengeView>;

export const challengeList = pageSchema(challengeView).meta({ id: "ChallengeList" });
