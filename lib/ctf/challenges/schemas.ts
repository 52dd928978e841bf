import { z } from "zod";
import { challengeStatuses, flagModes } from "@/db/schema/statuses";

/** The flag modes, for the dashboard's forms (components/ never import db/). */
export { flagModes };
import { pageSchema } from "@/lib/kernel/paging";
import { FLAG_MAX_LENGTH, regexFlagProblem } from "./flags/pattern";
import { challengeCategories, difficulties, templateCatalog, templateKeys } from "@/lib/ctf/templates/catalog";
const hint = z.object({ text: z.string().trim().min(1).max(1000).meta({ description: "Markdown, shown to players rendered safely (no raw HTML, no images)." }), cost: z.number().int().min(0).max(10_000).default(0) });

const flagMode = z
  .enum(flagModes)
  .meta({
    description:
      "How a submitted flag is checked (additive; default `exact`): `exact` (case-sensitive), `case_insensitive`, or `regex` (`flag` is an RE2 pattern the whole submission must match, checked in linear time; no back-references or look-arounds).",
  });

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

/** A change of `flag_mode` without a `flag` re-derives the check from the stored flag (to `regex`, it must be a valid pattern). */
export const updateChallengeInput = challengeFields.extend({ flag_mode: flagMode.optional() }).partial().superRefine(checkPattern);

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
    points: z.number().int(),
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
