import { describe, expect, it } from "vitest";
import type { TakingView } from "@/lib/certification/taking/taking";
import { startShellKey, startViewOf } from "./start-view";

const view: TakingView = {
  status: "sent",
  name: "Ada Lovelace",
  email: "ada@example.com",
  certification: "AWS Certified Cloud Practitioner",
  test: { name: "Week 1", questions: 20, timeLimitMinutes: 60, extraTimeMinutes: 0, opensAt: null, closesAt: "2026-12-01T18:00:00.000Z", multipleQuestions: 2, passMark: 70 },
  window: "open",
  recordIntegrity: false,
  language: "auto",
  now: "2026-11-27T01:00:00.000Z",
  startedAt: null,
  deadline: null,
  questions: [],
  answers: {},
  result: null,
  review: null,
  reviewWithheld: null,
};

describe("the start page's shell key", () => {
  const key = (v: TakingView, locale = "en", tokenLength = 32) => startShellKey(v, locale, tokenLength);

  it("is the same for recipients who differ only in name, e-mail, token and the clock", () => {
    expect(key({ ...view, name: "Bob", email: "bob@example.com", now: "2026-11-27T02:00:00.000Z" })).toBe(key(view));
  });

  it("changes with anything else the page shows", () => {
    const others = [
      key(view, "de"),
      key(view, "en", 43),
      key({ ...view, name: "" }),
      key({ ...view, window: "closed" }),
      key({ ...view, recordIntegrity: true }),
      key({ ...view, certification: "Other" }),
      key({ ...view, test: { ...view.test, extraTimeMinutes: 15 } }),
      key({ ...view, test: { ...view.test, multipleQuestions: 3 } }),
      key({ ...view, test: { ...view.test, closesAt: "2026-12-02T18:00:00.000Z" } }),
      key({ ...view, test: { ...view.test, name: "Week 2" } }),
    ];
    expect(new Set([key(view), ...others]).size).toBe(others.length + 1);
  });

  it("gives the start panel no more of the recipient than the name", () => {
    expect(Object.keys(startViewOf(view)).sort()).toEqual(["certification", "name", "recordIntegrity", "test", "window"]);
    expect(startViewOf(view, "@@m@@").name).toBe("@@m@@");
  });
});
