import { z } from "zod";
import { locales, planNames } from "@/db/schema/statuses";

export const MAX_WORKSPACE_NAME = 100;

export const planLimitsView = z.object({
  seats: z.number().int().meta({ description: "Recipients one test may have." }),
  classes: z.number().int(),
  students: z.number().int().meta({ description: "Students across all classes, each address once, invited or joined." }),
  apiKeys: z.number().int().meta({ description: "Active API keys." }),
});

export const MAX_ISSUER_TEXT = 120;

/**
 * One line as recipients read it in e-mail subjects, previews and certificates: no line break
 * (it would start a header or a new line) or other control character, and no text-direction
 * control (U+202E and kin), which could make a sender's name read as something else.
 */
const ONE_LINE = /^[^\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]*$/u;
const ONE_LINE_MESSAGE = "No line breaks or control characters (nor text-direction controls).";

/** One line printed on certificates: no line breaks or control characters; empty allowed (the default applies). */
const issuerLine = (description: string) =>
  z
    .string()
    .trim()
    .max(MAX_ISSUER_TEXT, `At most ${MAX_ISSUER_TEXT} characters.`)
    .regex(ONE_LINE, ONE_LINE_MESSAGE)
    .meta({ description });

/** PATCH /api/app/workspace: the workspace's name, as every e-mail it sends names it, and the issuer of its certificates. Each field is optional: what is absent stays. */
export const updateWorkspaceInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the workspace a name.")
    .max(MAX_WORKSPACE_NAME, `At most ${MAX_WORKSPACE_NAME} characters.`)
    // It is printed in e-mail subjects and previews, where a line break would start a header or a new line.
    .regex(ONE_LINE, ONE_LINE_MESSAGE)
    .optional()
    .meta({ description: "Shown to recipients and students in every e-mail the workspace sends (\"<name> sent you a practice test\")." }),
  organisation_name: issuerLine(
    "Additive: the issuer printed on certificates issued from now on (a test's `certificate`), and the Open Badges issuer's name. Empty: the workspace's name. Certificates already issued keep theirs.",
  ).optional(),
  certificate_signer: issuerLine("Additive: who signs certificates issued from now on, one line (e.g. \"Ada Lovelace, Head of Training\"). Empty: no signature line.").optional(),
  default_language: z
    .enum(locales, { error: "One of en, de, fr, es." })
    .optional()
    .meta({ description: "Additive: the language of recipients' e-mails for tests whose language is auto, and of class invitations (en, de, fr, es; default en)." }),
});
export type UpdateWorkspaceInput = z.output<typeof updateWorkspaceInput>;
/** The settings page's forms: the name alone, and the certificates' issuer (both fields sent). */
export const workspaceNameForm = updateWorkspaceInput.pick({ name: true }).required();
export const certificateIssuerForm = updateWorkspaceInput.pick({ organisation_name: true, certificate_signer: true }).required();
export const defaultLanguageForm = updateWorkspaceInput.pick({ default_language: true }).required();

export const workspaceSettingsView = z
  .object({
    id: z.string(),
    name: z.string(),
    sender: z.string().meta({
      description:
        "Additive: who recipients read as the sender in e-mails and on pages: `name` once chosen; while the workspace has its default name " +
        "(\"<address before @>'s workspace\"), the certificates' issuer if set, else the trainer's name, else their e-mail address.",
    }),
    organisation_name: z.string().meta({ description: "Additive: the issuer printed on certificates; empty: the workspace's name." }),
    certificate_signer: z.string().meta({ description: "Additive: who signs certificates; empty: none printed." }),
    default_language: z.enum(locales).meta({ description: "Additive: the language of e-mails to recipients of tests in auto language, and of class invitations." }),
    plan: z.enum(planNames),
    limits: planLimitsView,
    usage: z.object({
      classes: z.number().int(),
      students: z.number().int().meta({ description: "Counted as the limit is: each address once across all classes, invited or joined." }),
      largest_test: z.number().int().meta({ description: "Recipients of the workspace's largest test (seats are counted per test)." }),
      api_keys: z.number().int().meta({ description: "Active API keys." }),
    }),
    plans: z
      .array(z.object({ name: z.enum(planNames), limits: planLimitsView, current: z.boolean() }))
      .meta({ description: "Every plan, from the smallest, with its limits: what a higher plan allows." }),
  })
  .meta({ id: "WorkspaceSettings" });
export type WorkspaceSettingsView = z.infer<typeof workspaceSettingsView>;

/** A person's or an organisation's name as recipients read it: trimmed, no line breaks or control characters (it is printed in e-mail previews). */
const senderText = (description: string) =>
  z
    .string({ error: "Must be text (a string)." })
    .trim()
    .max(MAX_WORKSPACE_NAME, `At most ${MAX_WORKSPACE_NAME} characters.`)
    .regex(ONE_LINE, ONE_LINE_MESSAGE)
    .optional()
    .meta({ description });

/**
 * POST /api/app/welcome: the first sign-in's welcome step, both fields optional; an empty body
 * is "Skip". Answered either way, the step is not shown again.
 */
export const welcomeInput = z.strictObject(
  {
    your_name: senderText("The trainer's own name: recipients read it as the sender while the workspace has no name of its own. Empty or absent: none given."),
    organisation_name: senderText("Names the workspace (the `name` of PATCH /api/app/workspace): what every e-mail it sends carries from now on. Empty or absent: the name stays."),
  },
  // Both fields are optional, so a misspelt one would otherwise answer (skip) the step for good with nothing stored.
  { error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown field ${issue.keys.join(", ")}: this body takes your_name and organisation_name.` : undefined) },
);
export type WelcomeInput = z.output<typeof welcomeInput>;

export const welcomeView = z
  .object({
    show: z.boolean().meta({ description: "Whether the welcome step is still to be answered (first sign-in; false once saved or skipped)." }),
    sender: z.string().meta({ description: "Who recipients read as the sender: the workspace's chosen name, else the certificates' issuer, else the trainer's name, else their e-mail address." }),
  })
  .meta({ id: "Welcome" });
export type WelcomeView = z.infer<typeof welcomeView>;
