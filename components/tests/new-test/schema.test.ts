import { afterEach, describe, expect, it, vi } from "vitest";
import type { TestView } from "@/lib/certification/tests/schemas";
import { copyOf, defaultSettings, newTestSchema, type NewTestValues } from "./schema";

/** The test a Copy button starts from: its setup and settings as GET /api/v1/tests/{code} shows them. */
const source: TestView = {
  code: "K7Q2M9XR",
  name: "Week 3 quiz",
  time_limit_minutes: 45,
  opens_at: "2099-03-01T08:00:00.000Z",
  closes_at: "2099-03-08T18:30:00.000Z",
  pass_mark: 72.5,
  shuffle_options: false,
  show_answers: "after_close",
  reminder_after_hours: 24,
  send_result: true,
  draw: "per_recipient",
  record_integrity: false,
  certificate: true,
  language: "de",
  certification_id: 7,
  certification: "CompTIA Security+",
  questions: 5,
  domains: [
    { id: 12, name: "Threats", questions: 3 },
    { id: 11, name: "Operations", questions: 2 },
  ],
  class_id: null,
  started: 1,
  completed: 1,
  created_at: "2099-02-01T08:00:00.000Z",
  recipients: [],
};

const blank: NewTestValues = {
  certification_id: undefined,
  domains: [],
  questionMode: "equal",
  questions: "10",
  perDomain: {},
  recipientMode: "people",
  recipientsText: "",
  class_id: "",
  send_email: true,
  ...defaultSettings,
};

describe("the new-test form's settings", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("a copy creates the same setup: certification, domains with their counts, every setting, named “(copy)”", () => {
    // The window is shown and read in the trainer's zone: the same instants go back.
    vi.stubEnv("TZ", "Europe/Paris");
    expect(copyOf(source)).toMatchObject({ opens_at: "2099-03-01T09:00", closes_at: "2099-03-08T19:30" });
    const parsed = newTestSchema.safeParse({ ...blank, ...copyOf(source), recipientsText: "ada@example.com" });
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data).toEqual({
      certification_id: 7,
      questions_per_domain: [
        { domain_id: 12, questions: 3 },
        { domain_id: 11, questions: 2 },
      ],
      recipients: [{ email: "ada@example.com", name: "" }],
      send_email: true,
      name: "Week 3 quiz (copy)",
      time_limit_minutes: 45,
      opens_at: "2099-03-01T09:00:00+01:00",
      closes_at: "2099-03-08T19:30:00+01:00",
      pass_mark: 72.5,
      shuffle_options: false,
      show_answers: "after_close",
      reminder_after_hours: 24,
      send_result: true,
      record_integrity: false,
      draw: "per_recipient",
      certificate: true,
      language: "de",
    });
    expect(Date.parse(parsed.data!.opens_at!)).toBe(Date.parse(source.opens_at!));
    expect(Date.parse(parsed.data!.closes_at!)).toBe(Date.parse(source.closes_at!));
  });

  it("sends the defaults for blank settings, and the server's rules reach the form's fields", () => {
    const base = { ...blank, certification_id: 7, domains: [12], questions: "2", recipientsText: "ada@example.com" };
    const plain = newTestSchema.safeParse(base);
    expect(plain.success).toBe(true);
    expect(plain.data).toMatchObject({ time_limit_minutes: null, opens_at: null, closes_at: null, pass_mark: null, reminder_after_hours: null, shuffle_options: true, show_answers: "after_submit", send_result: false });
    expect(plain.data).toMatchObject({ record_integrity: true, draw: "per_test", certificate: false });
    expect(plain.data).not.toHaveProperty("name");
    // The rules between fields come on the same submit as the fields wrong in themselves.
    const wrong = newTestSchema.safeParse({ ...base, time_limit_minutes: "0", pass_mark: "abc", show_answers: "after_close", opens_at: "2099-03-02T08:00", closes_at: "2099-03-01T08:00" });
    expect(wrong.success).toBe(false);
    expect(wrong.error!.issues.map((issue) => issue.path.join(".")).sort()).toEqual(["closes_at", "pass_mark", "time_limit_minutes"]);
    const rules = newTestSchema.safeParse({ ...base, show_answers: "after_close", opens_at: "2099-03-02T08:00", closes_at: "2099-03-01T08:00" });
    expect(rules.error!.issues.map((issue) => issue.path.join(".")).sort()).toEqual(["closes_at"]);
    const noClose = newTestSchema.safeParse({ ...base, show_answers: "after_close" });
    expect(noClose.error!.issues.map((issue) => issue.path.join("."))).toEqual(["show_answers"]);
  });
});

/** Each issue as "path: message", in the order the form lists them. */
const issuesOf = (values: NewTestValues) => {
  const parsed = newTestSchema.safeParse(values);
  expect(parsed.success).toBe(false);
  return parsed.error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("the new-test form reports every problem on one submit (issue 26)", () => {
  it("an empty submit lists the certification, the domains and the recipients together", () => {
    expect(issuesOf(blank)).toEqual([
      "certification_id: Choose a certification.",
      "domains: Choose a certification, then tick at least one of its domains.",
      "recipients: Enter at least one e-mail address.",
    ]);
  });

  it("lists settings out of range with what is missing, one message per problem", () => {
    const issues = issuesOf({ ...blank, time_limit_minutes: "0", pass_mark: "150", reminder_after_hours: "-3", questions: "0" });
    expect(issues).toEqual([
      "certification_id: Choose a certification.",
      "domains: Choose a certification, then tick at least one of its domains.",
      "questions: Ask for at least 1 question.",
      "recipients: Enter at least one e-mail address.",
      "time_limit_minutes: At least 1 minute.",
      "pass_mark: At most 100.",
      "reminder_after_hours: At least 1 hour.",
    ]);
  });

  it("a zero gives one message, and the rules between fields come with the fields' own errors", () => {
    const chosen = { ...blank, certification_id: 7, domains: [12, 13], recipientsText: "ada@example.com, ada@example.com" };
    expect(issuesOf({ ...chosen, questions: "0" })).toEqual(["questions: Ask for at least 1 question."]);
    expect(issuesOf({ ...chosen, questionMode: "per-domain", perDomain: { 12: "0", 13: "x" }, certificate: true, time_limit_minutes: "abc" })).toEqual([
      "questions_per_domain.0.questions: Ask for at least 1 question.",
      "questions_per_domain.1.questions: Give a whole number of questions.",
      "time_limit_minutes: Give a whole number of minutes (1–600), or null.",
      "certificate: A certificate is issued on a pass: set a pass_mark, or turn certificates off.",
    ]);
    // Per domain with none ticked: the domains' message stands for the empty list, not a second one.
    expect(issuesOf({ ...chosen, domains: [], questionMode: "per-domain" })).toEqual(["domains: Tick at least one domain."]);
  });
});
