import { eq, isNull } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CertificationPreview } from "@/components/certifications/certification-preview";
import { certifications, domains, questions } from "@/db/schema";
import { catalogCertificationId } from "@/db/seed";
import { getCertification } from "@/lib/certification/catalog";
import { certificationPreview, SAMPLE_QUESTIONS_PER_DOMAIN } from "@/lib/certification/preview";
import { setPlan } from "@/lib/workspaces";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTrainer, type Trainer } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { contractRoutes, pathWith } from "../helpers/routes";
import { samples } from "../helpers/samples";
import { ownCertification } from "../helpers/samples/common";
import type { SampleWorld } from "../helpers/samples/types";
import { signInAs } from "../helpers/session";

/**
 * Anyone can sign up as a trainer, so the shared catalog's answer key (which option is right,
 * and why) is never shown in the trainer area: not by the certification preview, and not by
 * any route a trainer reads (the API and the dashboard's own), whatever a test drawn from the
 * catalog holds.
 */

vi.mock("@/lib/auth/session", () => import("../helpers/session"));

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

/** Where in a JSON value the answer key of a catalog question shows: an explanation, or a catalog question carrying its right option. */
function leaks(value: unknown, at = "$"): string[] {
  if (typeof value === "string") return catalogExplanations.some((text) => value.includes(text)) ? [`${at}: a catalog explanation`] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => leaks(item, `${at}[${index}]`));
  if (!value || typeof value !== "object") return [];
  const entries = Object.entries(value);
  const found = entries.flatMap(([key, item]) => leaks(item, `${at}.${key}`));
  const record = value as Record<string, unknown>;
  if (typeof record.prompt === "string" && catalogPrompts.has(record.prompt)) {
    for (const key of Object.keys(record)) if (/correct|answer|explanation|right/i.test(key)) found.push(`${at}.${key}: the answer key of a catalog question`);
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
        expect(Object.keys(sample).sort()).toEqual(["id", "options", "prompt"]);
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
    expect(leaks({ questions: [{ prompt, options: ["a", "b"] }], result: { correct: 3 } })).toEqual([]);
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
});
