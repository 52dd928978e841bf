import { z } from "zod";
import { checkedBy, toCheckedBody } from "@/components/forms/checked-by";
import { createCtfInput, type CtfView, updateCtfInput } from "@/lib/ctf/competitions/schemas";
import { isoToLocalInput, localInputToIso } from "@/components/format/date-input";
import { cleanHints } from "./format";
import { createChallengeInput, flagModes, generateChallengeInput } from "@/lib/ctf/challenges/schemas";
import { createDeploymentInput } from "@/lib/ctf/deployments/schemas";

/**
 * The competition forms as the trainer fills them (times as `datetime-local` text in the
 * browser's zone, numbers as typed), turned into the bodies of the contracts and checked by their own
 * schemas: the server's rules, errors at the body's paths.
 */

/** The bodies as a client sends them (dates as ISO strings): what the forms produce and callApi takes. */
export type CtfBody = z.input<typeof createCtfInput>;
export type CtfPatch = z.input<typeof updateCtfInput>;
export type ChallengeBody = z.input<typeof createChallengeInput>;
export type DeploymentBody = z.input<typeof createDeploymentInput>;
export type GenerateBody = z.input<typeof generateChallengeInput>;

export const competitionValues = z.object({ title: z.string(), description: z.string(), starts_at: z.string(), ends_at: z.string(), is_public: z.boolean() });
export type CompetitionValues = z.infer<typeof competitionValues>;

export const emptyCompetition: CompetitionValues = { title: "", description: "", starts_at: "", ends_at: "", is_public: false };

export function competitionValuesOf(ctf: CtfView): CompetitionValues {
  return { title: ctf.title, description: ctf.description, starts_at: isoToLocalInput(ctf.starts_at), ends_at: isoToLocalInput(ctf.ends_at), is_public: ctf.is_public };
}

/** A time the browser accepted but that cannot be read goes as typed: the schema names the field. */
function toCompetitionBody(values: CompetitionValues): CtfBody {
  return { ...values, starts_at: localInputToIso(values.starts_at) ?? values.starts_at, ends_at: localInputToIso(values.ends_at) ?? values.ends_at };
}

export const newCompetitionSchema = competitionValues.transform(toCompetitionBody).superRefine(checkedBy(createCtfInput));
export const editCompetitionSchema = competitionValues.transform((values): CtfPatch => toCompetitionBody(values)).superRefine(checkedBy(updateCtfInput));

export const challengeValues = z.object({
  title: z.string(),
  category: z.string(),
  /** "" = not set. */
  difficulty: z.string(),
  description: z.string(),
  points: z.string(),
  flag: z.string(),
  flag_mode: z.enum(flagModes),
  hints: z.array(z.object({ text: z.string(), cost: z.string() })),
});
export type ChallengeValues = z.infer<typeof challengeValues>;

/** Blank hint rows are left out: the body's `hints.<n>` is the n-th row with a text. */
export function hintRowsKept(hints: ChallengeValues["hints"]): number[] {
  return hints.flatMap((hint, row) => (hint.text.trim() ? [row] : []));
}

export const newChallengeSchema = challengeValues
  .transform(
    (values): ChallengeBody => ({
      title: values.title,
      category: values.category as ChallengeBody["category"],
      difficulty: (values.difficulty || undefined) as ChallengeBody["difficulty"],
      description: values.description,
      points: values.points.trim() === "" ? undefined : Number(values.points),
      flag: values.flag,
      flag_mode: values.flag_mode,
      hints: cleanHints(values.hints),
    }),
  )
  .superRefine(checkedBy(createChallengeInput));

export const deploymentSchema = z.object({ challenge_id: z.string(), duration_minutes: z.string() }).transform(
  // The form's own check and the contract's in one pass (toCheckedBody): every field's error on the first submit.
  toCheckedBody(
    createDeploymentInput,
    (values): DeploymentBody => ({ challenge_id: values.challenge_id, duration_minutes: values.duration_minutes.trim() === "" ? Number.NaN : Number(values.duration_minutes) }),
    { own: (values) => (values.challenge_id ? [] : [{ path: ["challenge_id"], message: "Choose a challenge." }]) },
  ),
);

/** The generate form: a template is optional ("" = one of the category's, drawn at random). */
export const generateSchema = z
  .object({ category: z.string(), difficulty: z.string(), template: z.string() })
  .transform(
    (values): GenerateBody => ({
      category: values.category as GenerateBody["category"],
      difficulty: values.difficulty as GenerateBody["difficulty"],
      ...(values.template ? { template: values.template as GenerateBody["template"] } : {}),
    }),
  )
  .superRefine(checkedBy(generateChallengeInput));
