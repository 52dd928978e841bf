import { z } from "zod";
import {
  createChallengeInput,
  createCtfInput,
  createDeploymentInput,
  updateCtfInput,
  type CreateChallengeInput,
  type CreateCtfInput,
  type CreateDeploymentInput,
  type CtfView,
  type UpdateCtfInput,
} from "@/lib/ctf/schemas";
import { cleanHints, isoToUtcInput, utcInputToIso } from "./format";

/**
 * The competition forms as the trainer fills them (times as `datetime-local` text meant as
 * UTC, numbers as typed), turned into the bodies of the contracts and checked by their own
 * schemas: the server's rules, errors at the body's paths.
 */

export const competitionValues = z.object({ title: z.string(), description: z.string(), starts_at: z.string(), ends_at: z.string(), is_public: z.boolean() });
export type CompetitionValues = z.infer<typeof competitionValues>;

export const emptyCompetition: CompetitionValues = { title: "", description: "", starts_at: "", ends_at: "", is_public: false };

export function competitionValuesOf(ctf: CtfView): CompetitionValues {
  return { title: ctf.title, description: ctf.description, starts_at: isoToUtcInput(ctf.starts_at), ends_at: isoToUtcInput(ctf.ends_at), is_public: ctf.is_public };
}

/** A time the browser accepted but that cannot be read goes as typed: the schema names the field. */
function toCompetitionBody(values: CompetitionValues): CreateCtfInput {
  return { ...values, starts_at: utcInputToIso(values.starts_at) ?? values.starts_at, ends_at: utcInputToIso(values.ends_at) ?? values.ends_at };
}

export const newCompetitionSchema = competitionValues.transform(toCompetitionBody).pipe(createCtfInput);
export const editCompetitionSchema = competitionValues.transform((values): UpdateCtfInput => toCompetitionBody(values)).pipe(updateCtfInput);

export const challengeValues = z.object({
  title: z.string(),
  category: z.string(),
  /** "" = not set. */
  difficulty: z.string(),
  description: z.string(),
  points: z.string(),
  flag: z.string(),
  hints: z.array(z.object({ text: z.string(), cost: z.string() })),
});
export type ChallengeValues = z.infer<typeof challengeValues>;

/** Blank hint rows are left out: the body's `hints.<n>` is the n-th row with a text. */
export function hintRowsKept(hints: ChallengeValues["hints"]): number[] {
  return hints.flatMap((hint, row) => (hint.text.trim() ? [row] : []));
}

export const newChallengeSchema = challengeValues
  .transform(
    (values): CreateChallengeInput => ({
      title: values.title,
      category: values.category as CreateChallengeInput["category"],
      difficulty: (values.difficulty || undefined) as CreateChallengeInput["difficulty"],
      description: values.description,
      points: values.points.trim() === "" ? undefined : Number(values.points),
      flag: values.flag,
      hints: cleanHints(values.hints),
    }),
  )
  .pipe(createChallengeInput);

export const deploymentSchema = z
  .object({ challenge_id: z.string(), duration_minutes: z.string() })
  .superRefine((values, ctx) => {
    if (!values.challenge_id) ctx.addIssue({ code: "custom", path: ["challenge_id"], message: "Choose a challenge." });
  })
  .transform((values): CreateDeploymentInput => ({ challenge_id: values.challenge_id, duration_minutes: values.duration_minutes.trim() === "" ? Number.NaN : Number(values.duration_minutes) }))
  .pipe(createDeploymentInput);
