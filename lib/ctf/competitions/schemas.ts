import { z } from "zod";
import { ctfModes, ctfStatuses, memberStatuses } from "@/db/schema/statuses";
import { isoDateTime } from "@/lib/kernel/fields";
import { pageSchema } from "@/lib/kernel/paging";

// The JSON string (documented as a date-time), handed to the domain as a Date.
export const isoDate = isoDateTime();

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
  mode: z.enum(ctfModes).default("individual").meta({ description: "Additive: `individual` (the default) or `teams` (players create or join a team; its members share solves, hint costs and attempts). Refused (409) once the competition has started." }),
  team_size_max: z.number().int().min(1).max(100).nullable().default(null).meta({ description: "Additive, teams mode: the most members a team may have; null (the default) for no limit." }),
  freeze_at: isoDate.nullable().default(null).meta({ description: "Additive: from this moment the public scoreboard, the public page and the CTFtime feed show the standings as they were then (players still see their own solves and score, dynamic challenges counted at their values as of then, as the page's challenge points are; the organiser's scoreboard and challenge reads stay live). null: never frozen." }),
});
export type CreateCtfInput = z.output<typeof createCtfInput>;

export const updateCtfInput = window({
  title: z.string().trim().min(1).max(200).optional(),
  description: z.string().trim().max(5000).optional(),
  starts_at: isoDate.optional(),
  ends_at: isoDate.optional(),
  is_public: z.boolean().optional(),
  mode: z.enum(ctfModes).optional(),
  team_size_max: z.number().int().min(1).max(100).nullable().optional(),
  freeze_at: isoDate.nullable().optional().meta({ description: "null clears the freeze: every board shows all again." }),
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
    mode: z.enum(ctfModes).meta({ description: "Additive: individual or teams." }),
    team_size_max: z.number().int().nullable().meta({ description: "Additive: the most members a team may have; null for no limit." }),
    freeze_at: z.string().nullable().meta({ description: "Additive: when the public scoreboard freezes; null: never." }),
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
