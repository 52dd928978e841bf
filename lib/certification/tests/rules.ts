import type { FieldError } from "@/lib/kernel/errors";
import { splitEvenly } from "./draw";

/**
 * What the rules read of a new test: the parsed body of POST /tests (`NewTest`, ./schemas.ts),
 * written out here because that body's schema runs these rules too (no import back to it).
 */
export type NewTestRulesInput = {
  recipients?: { email: string }[];
  class_id?: number;
  domains?: number[];
  questions?: number;
  questions_per_domain?: { domain_id: number; questions: number }[];
  opens_at: Date | null;
  closes_at: Date | null;
  show_answers: string;
  reminder_after_hours: number | null;
  certificate: boolean;
  pass_mark: number | null;
};

/** How many questions are drawn from each domain, in the order given, and the field that asked. */
export type DrawPlan = { domainId: number; count: number; field: string }[];

/** The duplicates among a list of recipients (the first one of each address is kept). */
export function duplicateEmails(list: { email: string }[], field = "recipients"): FieldError[] {
  const seen = new Map<string, number>();
  const errors: FieldError[] = [];
  list.forEach((recipient, index) => {
    const first = seen.get(recipient.email);
    if (first !== undefined) errors.push({ field: `${field}.${index}.email`, message: `${recipient.email} appears twice (also at ${field}.${first}).` });
    else seen.set(recipient.email, index);
  });
  return errors;
}

/**
 * The rules of a new test that need no database, written once: `createTest` reports them
 * together with the checks against the catalog (all wrong fields at once), the body's schema
 * with the fields that are wrong in themselves (`createTestInput`), and the dashboard's form runs
 * the same function in the browser before it sends anything. `unreadable` names the top-level
 * fields whose value failed its own schema: a rule that reads one of them is left out (its
 * field's own error already stands, and its value is not what the rule expects).
 */
export function creationRules(test: NewTestRulesInput, unreadable: ReadonlySet<string> = new Set()): { fields: FieldError[]; plan: DrawPlan } {
  const known = readable(unreadable);
  const fields: FieldError[] = [];
  if (known("recipients", "class_id") && Boolean(test.recipients) === Boolean(test.class_id)) {
    fields.push({ field: "recipients", message: "Give either recipients or class_id (exactly one of them)." });
  }
  if (known("questions", "questions_per_domain") && (test.questions === undefined) === (test.questions_per_domain === undefined)) {
    fields.push({ field: "questions", message: "Give either questions (a total) or questions_per_domain (exactly one of them)." });
  }
  if (known("questions", "domains") && test.questions !== undefined && !test.domains) {
    fields.push({ field: "domains", message: "Choose the domains the questions are split over." });
  }
  if (known("recipients") && test.recipients) fields.push(...duplicateEmails(test.recipients));
  if (!known("questions", "questions_per_domain", "domains")) return { fields: [...fields, ...settingsRules(test, new Date(), unreadable)], plan: [] };

  const plan: DrawPlan = [];
  if (test.questions_per_domain) {
    test.questions_per_domain.forEach((entry, index) => plan.push({ domainId: entry.domain_id, count: entry.questions, field: `questions_per_domain.${index}` }));
    if (test.domains) {
      const listed = new Set(test.questions_per_domain.map((entry) => entry.domain_id));
      if (test.domains.length !== listed.size || test.domains.some((id) => !listed.has(id))) {
        fields.push({ field: "domains", message: "domains must list the same domains as questions_per_domain (or be left out)." });
      }
    }
  } else if (test.domains && test.questions !== undefined) {
    const split = splitEvenly(test.questions, test.domains);
    test.domains.forEach((id, index) => plan.push({ domainId: id, count: split.get(id) ?? 0, field: `domains.${index}` }));
    if (test.questions < test.domains.length) {
      fields.push({ field: "questions", message: `At least one question per domain: ask for ${test.domains.length} or more.` });
    }
  }
  const seen = new Set<number>();
  for (const entry of plan) {
    if (seen.has(entry.domainId)) fields.push({ field: entry.field, message: `Domain ${entry.domainId} is listed twice.` });
    seen.add(entry.domainId);
  }
  fields.push(...settingsRules(test, new Date(), unreadable));
  return { fields, plan };
}

/** Whether none of the named fields failed its own schema: a rule reads only fields that did not. */
const readable =
  (unreadable: ReadonlySet<string>) =>
  (...names: (keyof NewTestRulesInput)[]): boolean =>
    names.every((name) => !unreadable.has(name));

type Settings = Pick<NewTestRulesInput, "opens_at" | "closes_at" | "show_answers" | "reminder_after_hours" | "certificate" | "pass_mark">;

/** The rules between settings (each field alone is checked by its schema). `now` is the creation time; `unreadable` as for `creationRules`. */
export function settingsRules(test: Settings, now = new Date(), unreadable: ReadonlySet<string> = new Set()): FieldError[] {
  const known = readable(unreadable);
  const fields: FieldError[] = [];
  const { opens_at: opensAt, closes_at: closesAt } = test;
  if (closesAt && known("closes_at", "opens_at")) {
    if (opensAt && closesAt <= opensAt) fields.push({ field: "closes_at", message: "Must be after opens_at." });
    else if (closesAt <= now) fields.push({ field: "closes_at", message: "Must be in the future: nobody could start a test that is already closed." });
    else if (known("reminder_after_hours") && test.reminder_after_hours && now.getTime() + test.reminder_after_hours * HOUR_MS >= closesAt.getTime()) {
      fields.push({ field: "reminder_after_hours", message: "The reminder would come after closes_at, and none is sent then: choose fewer hours." });
    }
  }
  if (known("show_answers", "closes_at") && test.show_answers === "after_close" && !closesAt) {
    fields.push({ field: "show_answers", message: "after_close needs closes_at: set when the test closes, or choose after_submit or never." });
  }
  if (known("certificate", "pass_mark") && test.certificate && (test.pass_mark === null || test.pass_mark === undefined)) {
    fields.push({ field: "certificate", message: "A certificate is issued on a pass: set a pass_mark, or turn certificates off." });
  }
  return fields;
}

const HOUR_MS = 3_600_000;
