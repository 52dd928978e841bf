import { z } from "zod";
import { challengeStatuses, ctfStatuses, deploymentStatuses, flagModes, memberStatuses } from "@/db/schema/statuses";
import { pageSchema, pagingQuery } from "@/lib/kernel/paging";
import { FLAG_MAX_LENGTH, regexFlagProblem } from "@/lib/ctf/challenges/flags/pattern";
import { challengeCategories, difficulties, templateCatalog, templateKeys } from "@/lib/ctf/templates/catalog";

// The JSON string (documented as a date-time), handed to the domain as a Date.
const isoDate = z.iso.datetime({ offset: true, message: "Must be an ISO 8601 date-time, e.g. 2026-12-01T18:00:00Z." }).transform((value) => new Date(value));

const window = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape).refine((value) => !("starts_at" in value && "ends_at" in value) || !value.starts_at || !value.ends_at || !(value.starts_at instanceof Date) || !(value.ends_at instanceof Date) || value.ends_at > value.starts_at, {
    message: "ends_at must be after starts_at.",
    path: ["ends_at"],
  });

export const createCtfInput = window({
  title: z.string().trim().min(1, "Give the competition a title.").max(200),
  description: z.string().trim().max(5000).default(""),
  starts_at: isoDate,
  ends_at: isoDate,
  is_public: z.boolean().default(false),
});
export type CreateCtfInput = z.output<typeof createCtfInput>;

export const updateCtfInput = window({
  title: z.string().trim().min(1).max(200).optional(),
  description: z.string().trim().max(5000).optional(),
  starts_at: isoDate.optional(),
  ends_at: isoDate.optional(),
  is_public: z.boolean().optional(),
});
export type UpdateCtfInput = z.output<typeof updateCtfInput>;

export const ctfView = z
  .object({
    id: z.string().meta({ example: "ctf_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
    title: z.string(),
    description: z.string(),
    starts_at: z.string(),
    ends_at: z.string(),
    is_public: z.boolean(),
    status: z.enum(ctfStatuses),
    url: z.string().nullable().meta({ description: "Where the deployed competition is reachable." }),
    host: z.string().meta({ description: "builtin or ctfd." }),
    last_error: z.string().nullable(),
    challenges: z.number().int(),
    members: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    deployed_at: z.string().nullable(),
    archived_at: z.string().nullable(),
  })
  .meta({ id: "ManagedCtf" });
export type CtfView = z.infer<typeof ctfView>;
export const ctfList = pageSchema(ctfView).meta({ id: "ManagedCtfList" });

const hint = z.object({ text: z.string().trim().min(1).max(1000), cost: z.number().int().min(0).max(10_000).default(0) });

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
  description: z.string().trim().max(10_000).default(""),
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

export const createDeploymentInput = z
  .object({
    challenge_id: z.string().min(1),
    duration_minutes: z.number().int().min(1).max(60 * 24 * 30).optional().meta({ description: "Window length from now; or give ends_at." }),
    ends_at: isoDate.optional(),
  })
  .refine((value) => (value.duration_minutes === undefined) !== (value.ends_at === undefined), {
    message: "Give either duration_minutes or ends_at.",
    path: ["duration_minutes"],
  })
  // Runs only on a parsed date: with "tomorrow" the field error above is the answer, not a crash here.
  .refine((value) => !(value.ends_at instanceof Date) || value.ends_at.getTime() > Date.now(), { message: "ends_at must be in the future.", path: ["ends_at"] });
export type CreateDeploymentInput = z.output<typeof createDeploymentInput>;

export const deploymentView = z
  .object({
    id: z.string().meta({ example: "dep_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
    challenge_id: z.string(),
    status: z.enum(deploymentStatuses),
    url: z.string().nullable(),
    starts_at: z.string(),
    ends_at: z.string(),
    stop_reason: z.string().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    live_at: z.string().nullable(),
    stopped_at: z.string().nullable(),
  })
  .meta({ id: "Deployment" });
export type DeploymentView = z.infer<typeof deploymentView>;
export const deploymentList = pageSchema(deploymentView).meta({ id: "DeploymentList" });
/** `GET /deployments?ctf_id=`: the competition's deployments, each with its challenge's title (additive). */
export const ctfDeploymentList = pageSchema(deploymentView.extend({ challenge_title: z.string() })).meta({ id: "CtfDeploymentList" });
export const listDeploymentsQuery = pagingQuery.extend({
  ctf_id: z.string().min(1).max(64).optional().meta({ description: "Not in the specification (additive): only the deployments of this competition's challenges, each with `challenge_title`." }),
});

export const inviteMemberInput = z.object({ email: z.string().trim().pipe(z.email("Must be an e-mail address.")).transform((v) => v.toLowerCase()) });
export type InviteMemberInput = z.output<typeof inviteMemberInput>;

export const memberView = z
  .object({
    id: z.string().meta({ example: "mem_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
    managed_ctf_id: z.string(),
    email: z.string(),
    status: z.enum(memberStatuses),
    self_enrolled: z.boolean(),
    invitations: z.number().int(),
    score: z.number().int(),
    invited_at: z.string(),
    joined_at: z.string().nullable(),
  })
  .meta({ id: "Member" });
export type MemberView = z.infer<typeof memberView>;
export const memberList = pageSchema(memberView).meta({ id: "MemberList" });
