import { z } from "zod";
import { checkedBy, toCheckedBody, type FormProblem } from "@/components/forms/checked-by";
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

export const competitionValues = z.object({
  title: z.string(),
  description: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  is_public: z.boolean(),
  /** Absent when the select is disabled (the mode is fixed once the competition started): the PATCH then leaves it out. */
  mode: z.string().optional(),
  /** "" = no limit. */
  team_size_max: z.string(),
  /** A datetime-local value; "" = never frozen. */
  freeze_at: z.string(),
});
export type CompetitionValues = z.infer<typeof competitionValues>;

export const emptyCompetition: CompetitionValues = { title: "", description: "", starts_at: "", ends_at: "", is_public: false, mode: "individual", team_size_max: "", freeze_at: "" };

export function competitionValuesOf(ctf: CtfView): CompetitionValues {
  return {
    title: ctf.title,
    description: ctf.description,
    starts_at: isoToLocalInput(ctf.starts_at),
    ends_at: isoToLocalInput(ctf.ends_at),
    is_public: ctf.is_public,
    mode: ctf.mode,
    team_size_max: ctf.team_size_max === null ? "" : String(ctf.team_size_max),
    freeze_at: ctf.freeze_at ? isoToLocalInput(ctf.freeze_at) : "",
  };
}

/** A time the browser accepted but that cannot be read goes as typed: the schema names the field. A blank limit or freeze is none (null). */
function toCompetitionBody(values: CompetitionValues): CtfBody {
  const time = (value: string) => localInputToIso(value) ?? value;
  return {
    title: values.title,
    description: values.description,
    starts_at: time(values.starts_at),
    ends_at: time(values.ends_at),
    is_public: values.is_public,
    ...(values.mode === undefined ? {} : { mode: values.mode as CtfBody["mode"] }),
    team_size_max: values.team_size_max.trim() === "" ? null : Number(values.team_size_max),
    freeze_at: values.freeze_at.trim() === "" ? null : time(values.freeze_at),
  };
}

/** The server's rule the contract cannot say alone: a freeze comes after the start (a PATCH sends both, so the form checks the pair). */
function freezeAfterStart(body: { starts_at?: Date; freeze_at?: Date | null }): FormProblem[] {
  return body.freeze_at && body.starts_at && body.freeze_at <= body.starts_at ? [{ path: ["freeze_at"], message: "freeze_at must be after starts_at." }] : [];
}

export const newCompetitionSchema = competitionValues.transform(toCheckedBody(createCtfInput, toCompetitionBody, { rules: freezeAfterStart }));
export const editCompetitionSchema = competitionValues.transform(toCheckedBody(updateCtfInput, (values): CtfPatch => toCompetitionBody(values), { rules: freezeAfterStart }));

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
  /** Static (worth `points`) or dynamic (`initial` falling to `minimum` over `decay` solves). */
  scoring_type: z.enum(["static", "dynamic"]),
  initial: z.string(),
  minimum: z.string(),
  decay: z.string(),
  /** Ids of the competition's challenges to solve first. */
  requires: z.array(z.string()),
  /** "" = unlimited. */
  max_attempts: z.string(),
  /** Comma-separated. */
  tags: z.string(),
});
export type ChallengeValues = z.infer<typeof challengeValues>;

/** A new challenge's settings: static, nothing required, unlimited tries, no tags (a dynamic one starts from CTFd's usual 500 → 100 over 20 solves). */
export const emptyChallengeSettings = { scoring_type: "static", initial: "500", minimum: "100", decay: "20", requires: [], max_attempts: "", tags: "" } satisfies Partial<ChallengeValues>;

/** Blank hint rows are left out: the body's `hints.<n>` is the n-th row with a text. */
export function hintRowsKept(hints: ChallengeValues["hints"]): number[] {
  return hints.flatMap((hint, row) => (hint.text.trim() ? [row] : []));
}

/** A number as typed: blank is NaN, which the contract names ("Enter a number"). */
const typedNumber = (value: string) => (value.trim() === "" ? Number.NaN : Number(value));

/** The tags as typed, comma-separated: each trimmed, blanks left out. */
export const tagsOf = (text: string) => text.split(",").map((tag) => tag.trim()).filter(Boolean);

export const newChallengeSchema = challengeValues
  .transform(
    (values): ChallengeBody => ({
      title: values.title,
      category: values.category as ChallengeBody["category"],
      difficulty: (values.difficulty || undefined) as ChallengeBody["difficulty"],
      description: values.description,
      // A dynamic challenge's worth is its initial value (the server stores it as its points).
      points: values.scoring_type === "dynamic" || values.points.trim() === "" ? undefined : Number(values.points),
      flag: values.flag,
      flag_mode: values.flag_mode,
      hints: cleanHints(values.hints),
      scoring:
        values.scoring_type === "dynamic"
          ? { type: "dynamic", initial: typedNumber(values.initial), minimum: typedNumber(values.minimum), decay: typedNumber(values.decay) }
          : { type: "static" },
      requires: values.requires,
      max_attempts: values.max_attempts.trim() === "" ? null : Number(values.max_attempts),
      tags: tagsOf(values.tags),
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
