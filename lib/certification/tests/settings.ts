import type { RecipientResult, Test } from "@/db/schema";
import type { NewTest, ResultView, TestSettingsView } from "./schemas";

/**
 * What a test's settings mean, written once: the API's view of them, the deadline an attempt
 * gets at Start, whether a result passes, and when the correct answers may be shown. Pure
 * functions of a test row (and the time), shared by the routes, the pages and the steps.
 */

type Settings = Pick<
  Test,
  "name" | "certificationName" | "timeLimitMinutes" | "opensAt" | "closesAt" | "passMark" | "shuffleOptions" | "showAnswers" | "reminderAfterHours" | "sendResult" | "draw" | "recordIntegrity" | "certificate" | "language"
>;

/** The test's name; tests made before names existed are "{certification} test". */
export function testName(test: Pick<Test, "name" | "certificationName">): string {
  return test.name ?? defaultTestName(test.certificationName);
}

export function defaultTestName(certification: string): string {
  return `${certification} test`;
}

/** The columns a new test stores for its settings (the parsed body, defaults applied). */
export function settingsColumns(parsed: NewTest, certificationName: string) {
  return {
    name: parsed.name ?? defaultTestName(certificationName),
    timeLimitMinutes: parsed.time_limit_minutes,
    opensAt: parsed.opens_at,
    closesAt: parsed.closes_at,
    passMark: parsed.pass_mark,
    shuffleOptions: parsed.shuffle_options,
    showAnswers: parsed.show_answers,
    reminderAfterHours: parsed.reminder_after_hours,
    sendResult: parsed.send_result,
    draw: parsed.draw,
    recordIntegrity: parsed.record_integrity,
    certificate: parsed.certificate,
    language: parsed.language,
  };
}

export function settingsView(test: Settings): TestSettingsView {
  return {
    name: testName(test),
    time_limit_minutes: test.timeLimitMinutes,
    opens_at: test.opensAt?.toISOString() ?? null,
    closes_at: test.closesAt?.toISOString() ?? null,
    pass_mark: test.passMark,
    shuffle_options: test.shuffleOptions,
    show_answers: test.showAnswers,
    reminder_after_hours: test.reminderAfterHours,
    send_result: test.sendResult,
    draw: test.draw,
    record_integrity: test.recordIntegrity,
    certificate: test.certificate,
    language: test.language,
  };
}

/** A stored result as the API and the pages show it: `passed` null without a pass mark (older results have none), `certificate_url` null without a certificate. */
export function resultViewOf({ certificateUrl, ...result }: RecipientResult): ResultView {
  return { ...result, passed: result.passed ?? null, certificate_url: certificateUrl ?? null };
}

/** Whether a result passes: its (rounded, as shown) percent against the pass mark; null without one. */
export function passedFor(percent: number, passMark: number | null): boolean | null {
  return passMark === null ? null : percent >= passMark;
}

/**
 * When an attempt started at `startedAt` ends: the time limit or closes_at, whichever comes
 * first, then the recipient's extra time on top (closes_at does not cut it short; docs/decisions.md,
 * "Extra time"); null: never (no limit and no closes_at, whatever the extra time).
 */
export function deadlineFor(test: Pick<Test, "timeLimitMinutes" | "closesAt">, startedAt: Date, extraTimeMinutes: number): Date | null {
  const byLimit = test.timeLimitMinutes === null ? null : new Date(startedAt.getTime() + test.timeLimitMinutes * 60_000);
  const base = byLimit && test.closesAt ? (byLimit < test.closesAt ? byLimit : test.closesAt) : (byLimit ?? test.closesAt);
  return base === null ? null : new Date(base.getTime() + extraTimeMinutes * 60_000);
}

/** Where the test's window stands: before opens_at, open, or from closes_at on. */
export type WindowState = "not_open" | "open" | "closed";

export function windowState(test: Pick<Test, "opensAt" | "closesAt">, now: Date): WindowState {
  if (test.opensAt && now < test.opensAt) return "not_open";
  if (test.closesAt && now >= test.closesAt) return "closed";
  return "open";
}

/** Whether a recipient who completed may see the correct answers and explanations now (show_answers). */
export function answersVisible(test: Pick<Test, "showAnswers" | "closesAt">, now: Date): boolean {
  if (test.showAnswers === "after_submit") return true;
  if (test.showAnswers === "after_close") return test.closesAt !== null && now >= test.closesAt;
  return false;
}
