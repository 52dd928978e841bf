/**
 * Every status a row can be in, as plain lists: the tables (pgEnum / check), the API's
 * response schemas (`z.enum(…)`) and the pages all use these, never a copy. No database
 * import here, so browser code may import them.
 */

export const invitationStatuses = ["pending", "joined"] as const;

export const ctfStatuses = ["draft", "deploying", "deployed", "deploy_failed", "stopped", "archived"] as const;

export const challengeStatuses = ["generating", "generation_failed", "draft", "publishing", "published", "publish_failed", "unpublishing", "unpublished", "unpublish_failed"] as const;

/** How a challenge checks a submitted flag (see lib/ctf/challenges/flags/flags.ts). */
export const flagModes = ["exact", "case_insensitive", "regex"] as const;

export const deploymentStatuses = ["deploying", "live", "deploy_failed", "stopped"] as const;

export const memberStatuses = ["invited", "joined"] as const;

/** How a competition ranks: each player alone, or teams whose members share solves, hint costs and attempts. */
export const ctfModes = ["individual", "teams"] as const;

/** How a challenge is worth points: fixed (`points`), or falling with each solve (CTFd's dynamic formula, lib/ctf/challenges/scoring.ts). */
export const scoringTypes = ["static", "dynamic"] as const;

/** What came of a flag submitted by a player. */
export const attemptResults = ["correct", "incorrect", "already_solved"] as const;

export const emailStatuses = ["queued", "sent", "failed", "dropped"] as const;

export const emailDeliveryStatuses = ["delivered", "delivery_delayed", "bounced", "complained"] as const;

export const stepStatuses = ["pending", "done", "failed"] as const;

export const recipientStatuses = ["sent", "started", "completed"] as const;

/** A question's kind: one right option, or a set of two or more ("Choose 2"), scored all or nothing. */
export const questionTypes = ["single", "multiple"] as const;

/** The languages recipient-facing pages and e-mails are written in (the trainer area stays English). */
export const locales = ["en", "de", "fr", "es"] as const;

/** A test's `language`: `auto` follows the recipient's browser (e-mails: the workspace's default), or one fixed locale. */
export const testLanguages = ["auto", ...locales] as const;

/** How a test's questions are drawn: one frozen set for everyone, or a set of its own per recipient. */
export const drawModes = ["per_test", "per_recipient"] as const;

/** What a recipient sees of the correct answers and explanations (a test's `show_answers`). */
export const showAnswersPolicies = ["after_submit", "after_close", "never"] as const;

/** `not_sent`: the event came while its endpoint was disabled; `POST …/recover` queues it again. */
export const deliveryStatuses = ["pending", "delivered", "dropped", "not_sent"] as const;

export const attemptStates = ["in_flight", "completed", "interrupted"] as const;

/** The service a webhook endpoint belongs to: the events it may receive and their wire format. */
export const webhookServices = ["competition", "certification"] as const;

export const planNames = ["free", "pro"] as const;
