import { eq, isNull } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CertificationPreview } from "@/components/certifications/certification-preview";
import { certifications, domains, questions } from "@/db/schema";
import { catalogCertificationId } from "@/db/seed";
import { getCertification } from "@/lib/certification/catalog/catalog";
import { certificationPreview, SAMPLE_QUESTIONS_PER_DOMAIN } from "@/lib/certification/catalog/preview";
import { testAnalysis } from "@/lib/certification/insight/analysis";
import { answerSheet } from "@/lib/certification/insight/answer-sheet";
import { createTestInput } from "@/lib/certification/tests/schemas";
import { submitTest } from "@/lib/certification/taking/taking";
import { createTest } from "@/lib/certification/tests/tests";
import { setPlan } from "@/lib/platform/workspaces";
import { answerAll, tokenOf } from "../../helpers/taking";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { contractRoutes, pathWith } from "../../helpers/routes";
import { samples } from "../../helpers/samples";
import { ownCertification } from "../../helpers/samples/common";
import type { SampleWorld } from "../../helpers/samples/types";
import { signInAs } from "../../helpers/session";

/**
 * Anyone can sign up as a trainer, so the shared catalog's answer key (which option is right,
 * and why) is never shown in the trainer area: not by the certification preview, and not by
 * any route a trainer reads (the API and the dashboard's own), whatever a test drawn from the
 * catalog holds.
 */

vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

let database: TestDatabase;
let owner: Trainer;
let catalogId: number;
/** The catalog's prompts, and its explanations (long sentences: one found in an answer is a leak). */
let catalogPrompts: Set<string>;
let catalogExplanations: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  owner = await createTrainer(database.db);
  await setPlan(database.db, owner.workspaceId, "pro");
  catalogId = (await catalogCertificationId(database.db, "aws-clf-c02"))!;
  const rows = await database.db
    .select({ prompt: questions.prompt, explanation: questions.explanation })
    .from(questions)
    .innerJoin(domains, eq(domains.id, questions.domainId))
    .innerJoin(certifications, eq(certifications.id, domains.certificationId))
    .where(isNull(certifications.workspaceId));
  catalogPrompts = new Set(rows.map((row) => row.prompt));
  catalogExplanations = rows.map((row) => row.explanation).filter((text) => text.length >= 40);
  expect(catalogExplanations.length).toBeGreaterThan(50);
});
afterAll(() => database.drop());

/** Fields that state a question's answer key. */
const KEY_FIELDS = /^(correct_option|correct_index|correct_answer|right_option|answer_key_index|explanation)$/;

/**
 * Where in a JSON value the answer key of a catalog question shows: one of its explanations
 * anywhere, or, on a catalog question, a field stating the right option or its explanation,
 * or options marked right or wrong (`correct`, or a distractor `flag`, which singles out the
 * wrong ones). Whether a recipient's own answer was right (the grading) is not the key.
 */
function leaks(value: unknown, at = "$"): string[] {
  if (typeof value === "string") return catalogExplanations.some((text) => value.includes(text)) ? [`${at}: a catalog explanation`] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => leaks(item, `${at}[${index}]`));
  if (!value || typeof value !== "object") return [];
  const found = Object.entries(value).flatMap(([key, item]) => leaks(item, `${at}.${key}`));
  const record = value as Record<string, unknown>;
  if (typeof record.prompt === "string" && catalogPrompts.has(record.prompt)) {
    for (const [key, item] of Object.entries(record)) {
      if (KEY_FIELDS.test(key) && item !== null && item !== "") found.push(`${at}.${key}: the answer key of a catalog question`);
    }
    if (Array.isArray(record.options)) {
      record.options.forEach((option, index) => {
        if (option && typeof option === "object") {
          const marks = option as Record<string, unknown>;
          if (typeof marks.correct === "boolean" || (marks.flag !== undefined && marks.flag !== null)) found.push(`${at}.options[${index}]: a catalog option marked right or wrong`);
        }
      });
    }
  }
  return found;
}

describe("the certification preview", () => {
  it("shows the catalog certification's domains and counts, and a few questions of each without their answers", async () => {
    const preview = await certificationPreview(database.db, owner.workspaceId, catalogId);
    const detail = await getCertification(database.db, owner.workspaceId, catalogId);
    expect(preview.domains.map(({ id, name, questions: count }) => ({ id, name, questions: count }))).toEqual(detail.domains);
    expect(preview.questions).toBe(detail.questions);
    for (const domain of preview.domains) {
      expect(domain.samples.length).toBe(Math.min(SAMPLE_QUESTIONS_PER_DOMAIN, domain.questions));
      for (const sample of domain.samples) {
        expect(Object.keys(sample).sort()).toEqual(["choose", "id", "options", "prompt", "type"]);
        expect(catalogPrompts.has(sample.prompt)).toBe(true);
      }
      // The first questions of the domain: the same preview on every visit.
      const firstIds = (await database.db.select({ id: questions.id }).from(questions).where(eq(questions.domainId, domain.id)).orderBy(questions.id).limit(SAMPLE_QUESTIONS_PER_DOMAIN)).map((q) => q.id);
      expect(domain.samples.map((s) => s.id)).toEqual(firstIds);
    }
    expect(leaks(preview)).toEqual([]);
  });

  it("renders the page without an answer: no explanation, no marked option", async () => {
    const preview = await certificationPreview(database.db, owner.workspaceId, catalogId);
    const html = renderToStaticMarkup(createElement(CertificationPreview, { certification: preview }));
    expect(html).toContain(preview.domains[0].samples[0].prompt.replace(/'/g, "&#x27;"));
    for (const text of catalogExplanations) expect(html).not.toContain(text.slice(0, 60).replace(/'/g, "&#x27;"));
    expect(html).not.toMatch(/correct|right answer|✓/i);
  });

  it("previews the workspace's own certification too, never another workspace's", async () => {
    const own = await ownCertification(database.db, owner);
    const preview = await certificationPreview(database.db, owner.workspaceId, own.id);
    expect(preview.own).toBe(true);
    expect(preview.domains[0].samples.map((s) => s.prompt)).toEqual(["2 + 2?", "3 + 3?"]);
    expect(preview.domains[0].samples[0]).not.toHaveProperty("correct");
    const stranger = await createTrainer(database.db);
    await expect(certificationPreview(database.db, stranger.workspaceId, own.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(certificationPreview(database.db, owner.workspaceId, 2147483647)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("no route a trainer reads shows the catalog's answer key", () => {
  it("checks its own detector: an explanation or a catalog question with its right option is found", () => {
    const [prompt] = catalogPrompts;
    expect(leaks({ data: [{ note: `so: ${catalogExplanations[0]}` }] })).toHaveLength(1);
    expect(leaks({ questions: [{ prompt, options: ["a", "b"], correct_option: 1 }] })).toHaveLength(1);
    expect(leaks({ questions: [{ prompt, options: [{ index: 0, correct: true }, { index: 1, correct: false }] }] })).toHaveLength(2);
    expect(leaks({ questions: [{ prompt, options: [{ index: 0, correct: null, flag: "never_chosen" }] }] })).toHaveLength(1);
    // The grading of a recipient's answers, counts and nulls are not the key.
    expect(leaks({ questions: [{ prompt, options: ["a", "b"], chosen: 1, correct: false, correct_option: null, explanation: null, answered: 3 }], result: { correct: 3 } })).toEqual([]);
  });

  it("answers every GET of the API and of the dashboard (tests drawn from the catalog included) without it", async () => {
    const stranger = await createTrainer(database.db);
    const world: SampleWorld = { db: database.db, owner, stranger };
    const reads = (await contractRoutes()).filter((route) => route.method === "GET" && (route.contract.caller === "workspace" || route.contract.caller === "session"));
    expect(reads.map((route) => route.contract.id)).toEqual(expect.arrayContaining(["tests.get", "tests.export", "certifications.get", "classes.progress"]));
    const found: string[] = [];
    for (const route of reads) {
      const sample = samples[route.contract.id] ?? {};
      const params = (await sample.params?.(world, owner)) ?? {};
      const query = await sample.query?.(world, owner);
      signInAs(owner);
      const result = await call(route.handler, pathWith(route.path, params), {
        params,
        query,
        headers: { origin: "http://localhost", host: "localhost" },
      });
      signInAs(undefined);
      expect(result.status, `${route.contract.id}: ${JSON.stringify(result.body)?.slice(0, 200)}`).toBeLessThan(300);
      found.push(...leaks(result.body).map((leak) => `${route.contract.id} ${leak}`));
    }
    expect(found).toEqual([]);
  });

  it("keeps the answer sheet and the analysis of a catalog test to the grading: no right option, explanation or distractor flag", async () => {
    const domainIds = (await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, catalogId))).map((d) => d.id);
    const test = await createTest(
      database.db,
      owner.workspaceId,
      createTestInput.parse({
        certification_id: catalogId,
        domains: domainIds.slice(0, 2),
        questions: 4,
        recipients: [{ email: "right@example.com" }, { email: "wrong@example.com" }],
        send_email: false,
      }),
    );
    // One answers everything right, the other everything wrong.
    await answerAll(database.db, tokenOf(test.recipients[0].link));
    await submitTest(database.db, tokenOf(test.recipients[0].link));
    await answerAll(database.db, tokenOf(test.recipients[1].link), 0);
    await submitTest(database.db, tokenOf(test.recipients[1].link));

    const sheet = await answerSheet(database.db, owner.workspaceId, test.code, test.recipients[0].id);
    expect(sheet.answer_key).toBe(false);
    expect(sheet.correct).toBe(4);
    for (const item of sheet.answers) expect(item).toMatchObject({ correct: true, correct_option: null, explanation: null, chosen: item.type === "multiple" ? expect.any(Array) : expect.any(Number) });
    const analysis = await testAnalysis(database.db, owner.workspaceId, test.code);
    expect(analysis.answer_key).toBe(false);
    expect(analysis.completed).toBe(2);
    for (const question of analysis.questions) {
      expect(question.percent_correct).toBe(50);
      expect(question.options.map((option) => [option.correct, option.flag])).toEqual(question.options.map(() => [null, null]));
      // Each of the 2 recipients picked one option, or `choose` options on a multiple-response question.
      expect(question.options.reduce((sum, option) => sum + option.chosen, 0)).toBe(2 * question.choose);
    }
    expect([...leaks(sheet), ...leaks(analysis)]).toEqual([]);
  });

  it("shows the workspace's own certification's answer key in the same views", async () => {
    const own = await ownCertification(database.db, owner);
    const test = await createTest(
      database.db,
      owner.workspaceId,
      createTestInput.parse({ certification_id: own.id, questions_per_domain: [{ domain_id: own.domainId, questions: 2 }], recipients: [{ email: "own@example.com" }], send_email: false }),
    );
    await answerAll(database.db, tokenOf(test.recipients[0].link), 1);
    await submitTest(database.db, tokenOf(test.recipients[0].link));
    const sheet = await answerSheet(database.db, owner.workspaceId, test.code, test.recipients[0].id);
    expect(sheet.answer_key).toBe(true);
    expect(sheet.answers.map((item) => item.correct_option).sort()).toEqual([0, 1]);
    const analysis = await testAnalysis(database.db, owner.workspaceId, test.code);
    expect(analysis.answer_key).toBe(true);
    for (const question of analysis.questions) expect(question.options.filter((option) => option.correct === true)).toHaveLength(1);
  });
});
