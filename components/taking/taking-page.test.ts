import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { describe, expect, it } from "vitest";
import type { TakingView } from "@/lib/certification/taking/taking";
import { messagesOf } from "@/lib/platform/i18n/messages";
import type { Locale } from "@/lib/platform/i18n/locales";
import { QuestionCard } from "./question-card";
import { QuestionNavigator } from "./question-navigator";
import { ReviewPanel } from "./review-panel";
import { StartPanel } from "./start-panel";
import { SubmitPanel } from "./submit-panel";
import { TestResult } from "./test-result";
import { TestRunner } from "./test-runner";

/** The recipient's page as its layout provides it (the locale's `common` and `taking` texts, UTC), as HTML. */
function markup(locale: Locale, node: ReactNode): string {
  const router = { back() {}, forward() {}, refresh() {}, push() {}, replace() {}, prefetch() {} };
  const intl = createElement(NextIntlClientProvider, { locale, messages: messagesOf(locale, ["common", "taking"]), timeZone: "UTC", children: node });
  const queries = createElement(QueryClientProvider, { client: new QueryClient() }, intl);
  return renderToStaticMarkup(createElement(AppRouterContext.Provider, { value: router as never }, queries));
}

/** Its text only, one space between elements (no-break spaces kept): what a reader sees. */
function render(locale: Locale, node: ReactNode): string {
  return markup(locale, node)
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/[ \t\n]+/g, " ");
}

const questions: TakingView["questions"] = [
  { id: 1, domain: "Cloud Concepts", prompt: "Which one?", options: ["One", "Two", "Three"], type: "single", choose: 1 },
  { id: 2, domain: "Security", prompt: "Which two?", options: ["One", "Two", "Three", "Four"], type: "multiple", choose: 2 },
];

const view: TakingView = {
  status: "sent",
  name: "Ada Lovelace",
  email: "ada@example.com",
  certification: "AWS Certified Cloud Practitioner",
  test: { name: "Week 1 cloud check", questions: 2, timeLimitMinutes: 60, extraTimeMinutes: 30, opensAt: null, closesAt: "2026-12-01T18:00:00.000Z", multipleQuestions: 1, passMark: 80 },
  window: "open",
  recordIntegrity: true,
  language: "auto",
  now: "2026-11-27T01:00:00.000Z",
  startedAt: null,
  deadline: null,
  questions,
  answers: { 1: 0 },
  result: null,
  review: null,
  reviewWithheld: null,
};

const result = {
  percent: 66.7,
  correct: 2,
  questions: 3,
  passed: false,
  certificate_url: null,
  domains: [{ id: 1, name: "Security", percent: 50, correct: 1, questions: 2 }],
} as unknown as Parameters<typeof TestResult>[0]["result"];

describe("the recipient's page in English keeps its wording (the e2e suite reads it)", () => {
  it("start page", () => {
    const text = render("en", createElement(StartPanel, { token: "t", view }));
    expect(text).toContain("Time limit 1 hour, counted from Start");
    expect(text).toContain("Your time 60 + 30 minutes extra");
    expect(text).toContain("Closes 1 Dec 2026, 18:00 UTC");
    expect(text).toContain("One question asks you to choose several options (“Choose 2”). Multiple-response questions are scored all or nothing");
    expect(text).toContain(
      "This test records: your address and browser at start and submit, when you switch to another tab or window and for how long, copy attempts, and leaving full screen.",
    );
    expect(text).toContain(" Start ");
    expect(text).toContain("For Ada Lovelace");
  });

  it("the test, its questions, navigator and review", () => {
    const running = render("en", createElement(TestRunner, { token: "t", view: { ...view, status: "started" } }));
    expect(running).toContain("Practice test for Ada Lovelace");
    expect(running).toContain("1 of 2 answered");
    expect(running).toContain("Question 2 of 2"); // resumes at the first unanswered question
    expect(running).toContain("Choose 2. 0 of 2 chosen. It counts only if exactly the right 2 are chosen.");
    expect(running).toContain("Check 2 options: the answer is saved when 2 are checked.");
    expect(running).toContain("← Previous");
    expect(running).toContain("Review →");
    expect(running).toContain("Answer all 2 questions to submit: 1 left.");
    expect(running).toContain("Submit the test");
    const navigator = markup("en", createElement(QuestionNavigator, { questions, answers: { 1: 0 }, current: 0, onJump() {} }));
    expect(navigator).toContain('aria-label="Question 1, answered"');
    expect(navigator).toContain('aria-label="Question 2, not answered"');
    expect(render("en", createElement(ReviewPanel, { questions, answers: {}, onJump() {}, headingRef: null }))).toContain("2 questions still need an answer.");
    const card = render("en", createElement(QuestionCard, { question: questions[0], number: 1, total: 2, chosen: 0, saveState: { kind: "saved" }, onChoose() {}, onRetry() {}, headingRef: null }));
    expect(card).toContain("✓ Saved");
    const confirm = render("en", createElement(SubmitPanel, { total: 4, left: 0, saving: 0, confirming: true, submitting: false, error: null, onStart() {}, onCancel() {}, onConfirm() {} }));
    expect(confirm).toContain("Submit your 4 answers now? You will not be able to change them afterwards.");
    expect(confirm).toContain("Yes, submit my answers");
  });

  it("the result", () => {
    const text = render("en", createElement(TestResult, { certification: "AWS", testName: "Week 1", result, passMark: 80, questions, answers: {}, review: null, reviewWithheld: { until: "2026-12-01T18:00:00.000Z" } }));
    expect(text).toContain("Your result");
    expect(text).toContain("66.7% 2 of 3 questions correct Not passed 66.7% — the pass mark is 80%");
    expect(text).toContain("50% · 1 of 2 correct");
    expect(text).toContain("The correct answers and explanations are shown here from 1 Dec 2026, 18:00 UTC, when the test closes.");
  });
});

describe("the recipient's page in German, French and Spanish", () => {
  it("start page", () => {
    const de = render("de", createElement(StartPanel, { token: "t", view }));
    expect(de).toContain("Zeitlimit 1 Stunde, ab „Starten“ gezählt");
    expect(de).toContain("Endet am 01.12.2026, 18:00 UTC");
    expect(de).toContain(" Starten ");
    const fr = render("fr", createElement(StartPanel, { token: "t", view }));
    expect(fr).toContain("Votre temps 60 + 30 minutes supplémentaires");
    expect(fr).toContain("Clôture 1 déc. 2026, 18:00 UTC");
    expect(fr).toContain(" Commencer ");
    const es = render("es", createElement(StartPanel, { token: "t", view }));
    expect(es).toContain(" Empezar ");
    expect(es).not.toMatch(/Time limit|Start\b|Questions/);
  });

  it("the test and the result, questions as written", () => {
    const running = render("fr", createElement(TestRunner, { token: "t", view: { ...view, status: "started" } }));
    expect(running).toContain("Test d’entraînement pour Ada Lovelace");
    expect(running).toContain("Question 2 sur 2");
    expect(running).toContain("Which two?");
    expect(running).toContain("Remettre le test");
    const timed = { ...view, status: "started" as const, deadline: "2026-11-27T01:30:00.000Z" };
    expect(render("en", createElement(TestRunner, { token: "t", view: timed }))).toContain("Time left: 30:00");
    expect(markup("es", createElement(TestRunner, { token: "t", view: timed }))).toContain('role="timer" aria-label="Tiempo restante"');
    const de = render("de", createElement(TestResult, { certification: "AWS", testName: "Week 1", result, passMark: 80, questions, answers: {}, review: null, reviewWithheld: { until: null } }));
    expect(de).toContain("66,7\u00a0% 2 von 3 Fragen richtig Nicht bestanden 66,7\u00a0% – die Bestehensgrenze liegt bei 80\u00a0%");
    expect(de).toContain("Bei diesem Test werden die richtigen Antworten nicht angezeigt.");
    const es = markup("es", createElement(QuestionNavigator, { questions, answers: {}, current: null, onJump() {} }));
    expect(es).toContain('aria-label="Pregunta 1, sin responder"');
  });
});

describe("the review before submitting", () => {
  const three: TakingView["questions"] = [
    ...questions,
    { id: 3, domain: "Security", prompt: "A question long enough to be cut on a phone, ".repeat(6) + "and its end.", options: ["Yes", "No"], type: "single", choose: 1 },
  ];

  it("lists every question's text with the option(s) chosen, or Not answered, each a button back to it", () => {
    const html = markup("en", createElement(ReviewPanel, { questions: three, answers: { 1: 2, 2: [1, 3] }, onJump() {}, headingRef: null }));
    const items = html
      .split('data-testid="review-item"')
      .slice(1)
      .map((item) => item.split("</li>")[0].replace(/^[^>]*>/, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " "));
    expect(items).toHaveLength(3);
    expect(items[0]).toContain("Question 1 Which one? Your answer: Three");
    expect(items[1]).toContain("Question 2 Which two? Your answers: Two Four");
    expect(items[2]).toContain("Question 3 A question long enough");
    expect(items[2]).toContain("and its end."); // the whole text is there (only cut on screen)
    expect(items[2]).toContain("Not answered");
    expect(html).toContain('data-answered="false"');
    expect(render("en", createElement(ReviewPanel, { questions: three, answers: { 1: 2, 2: [1, 3] }, onJump() {}, headingRef: null }))).toContain(
      "1 question still needs an answer. Select a question to go back to it.",
    );
  });

  it("says how far a multiple-response answer is, and is in the page's language", () => {
    expect(render("en", createElement(ReviewPanel, { questions, answers: { 2: [0] }, onJump() {}, headingRef: null }))).toContain("Not answered: 1 of 2 chosen");
    const es = render("es", createElement(ReviewPanel, { questions, answers: { 1: 0, 2: [0, 2] }, onJump() {}, headingRef: null }));
    expect(es).toContain("Pregunta 1 Which one? Tu respuesta: One");
    expect(es).toContain("Tus respuestas: One Three");
    expect(render("de", createElement(ReviewPanel, { questions, answers: {}, onJump() {}, headingRef: null }))).toContain("Nicht beantwortet");
  });

  it("the result without a pass mark says no outcome and no mark", () => {
    const text = render("en", createElement(TestResult, { certification: "AWS", testName: "Week 1", result: { ...result, passed: null }, passMark: null, questions, answers: {}, review: null }));
    expect(text).toContain("66.7% 2 of 3 questions correct");
    expect(text).not.toMatch(/passed|pass mark/i);
  });
});
