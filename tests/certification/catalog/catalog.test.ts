import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCertification } from "@/lib/certification/catalog/catalog";
import { createCertificationInput } from "@/lib/certification/catalog/schemas";
import * as listRoute from "@/app/api/v1/certifications/route";
import * as detailRoute from "@/app/api/v1/certifications/[id]/route";
import * as domainsRoute from "@/app/api/v1/certifications/[id]/domains/route";
import { seedCatalog } from "@/db/seed";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";

let database: TestDatabase;
let trainer: Trainer;
let other: Trainer;
let ownId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  other = await createTrainer(database.db);
  const own = await createCertification(
    database.db,
    trainer.workspaceId,
    createCertificationInput.parse({
      name: "Acme Platform Basics",
      vendor: "Acme Corp",
      code: "ACME-101",
      domains: [
        { name: "Accounts", questions: [{ prompt: "Where do you reset a password?", options: ["Settings", "Billing"], correct: 0 }] },
        { name: "Billing", questions: [] },
      ],
    }),
  );
  ownId = own.id;
});
afterAll(() => database.drop());

const list = (key: string, query: Record<string, string | number> = {}) =>
  call(listRoute.GET, "/api/v1/certifications", { key, query });

describe("GET /api/v1/certifications (happy)", () => {
  it("lists the seeded catalog: at least 3 certifications from at least 2 vendors, plus the caller's own", async () => {
    const result = await list(trainer.secret, { per_page: 100 });
    expect(result.status).toBe(200);
    const catalog = result.body.data.filter((c: { own: boolean }) => !c.own);
    expect(catalog.length).toBeGreaterThanOrEqual(3);
    expect(new Set(catalog.map((c: { vendor: string }) => c.vendor)).size).toBeGreaterThanOrEqual(2);
    expect(result.body.data.find((c: { id: number }) => c.id === ownId)).toMatchObject({ own: true, name: "Acme Platform Basics", domains: 2, questions: 1 });
    expect(result.body.pagination).toEqual({ page: 1, per_page: 100, total: result.body.data.length });
  });

  it("never shows a workspace's own certification to another workspace", async () => {
    const result = await list(other.secret, { per_page: 100 });
    expect(result.body.data.some((c: { id: number }) => c.id === ownId)).toBe(false);
    expect(result.body.data.every((c: { own: boolean }) => !c.own)).toBe(true);
  });

  it("filters by vendor, case-insensitively", async () => {
    const result = await list(trainer.secret, { vendor: "comptia" });
    expect(result.body.data.length).toBeGreaterThanOrEqual(2);
    expect(result.body.data.every((c: { vendor: string }) => c.vendor === "CompTIA")).toBe(true);
  });

  it("searches name, code, vendor and description, every word", async () => {
    const byCode = await list(trainer.secret, { search: "sy0-701" });
    expect(byCode.body.data.map((c: { code: string }) => c.code)).toEqual(["SY0-701"]);
    const twoWords = await list(trainer.secret, { search: "comptia network" });
    expect(twoWords.body.data.map((c: { code: string }) => c.code)).toEqual(["N10-009"]);
    const none = await list(trainer.secret, { search: "%_\\" });
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination.total).toBe(0);
  });

  it("pages with per_page and page", async () => {
    const first = await list(trainer.secret, { per_page: 2, page: 1 });
    const second = await list(trainer.secret, { per_page: 2, page: 2 });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.pagination.total).toBeGreaterThanOrEqual(4);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
    expect(second.body.pagination).toMatchObject({ page: 2, per_page: 2 });
  });

  it("defaults to 25 per page", async () => {
    expect((await list(trainer.secret)).body.pagination.per_page).toBe(25);
  });
});

describe("GET /api/v1/certifications (errors)", () => {
  it("refuses per_page above 100 with 422 naming the field", async () => {
    const result = await list(trainer.secret, { per_page: 101 });
    expect(result.status).toBe(422);
    expect(result.body.error.fields).toEqual([{ field: "per_page", message: expect.stringContaining("100") }]);
  });

  it("lists every bad query field at once", async () => {
    const result = await list(trainer.secret, { per_page: 0, page: "x" });
    expect(result.status).toBe(422);
    expect(result.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["page", "per_page"]);
  });
});

describe("GET /api/v1/certifications/{id}", () => {
  it("returns the certification with its domains and their question counts", async () => {
    const listed = await list(trainer.secret, { search: "CLF-C02" });
    const id = String(listed.body.data[0].id);
    const result = await call(detailRoute.GET, `/api/v1/certifications/${id}`, { key: trainer.secret, params: { id } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: Number(id), vendor: "Amazon Web Services", code: "CLF-C02", own: false });
    expect(result.body.domains.map((d: { name: string }) => d.name)).toEqual([
      "Cloud Concepts",
      "Security and Compliance",
      "Cloud Technology and Services",
      "Billing, Pricing, and Support",
    ]);
    for (const domain of result.body.domains) expect(domain.questions).toBeGreaterThanOrEqual(10);
  });

  it("answers 404 to ids that cannot exist", async () => {
    for (const id of ["abc", "0", "-1", "1.5", "99999999999", "2147483647"]) {
      const result = await call(detailRoute.GET, `/api/v1/certifications/${id}`, { key: trainer.secret, params: { id } });
      expect(result.status, id).toBe(404);
      expect(result.body.error.code).toBe("not_found");
    }
  });
});

describe("GET /api/v1/certifications/{id}/domains", () => {
  it("answers { data: [{ id, name, questions }] }", async () => {
    const id = String(ownId);
    const result = await call(domainsRoute.GET, `/api/v1/certifications/${id}/domains`, { key: trainer.secret, params: { id } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      data: [
        { id: expect.any(Number), name: "Accounts", questions: 1 },
        { id: expect.any(Number), name: "Billing", questions: 0 },
      ],
    });
  });
});

describe("the catalog seed", () => {
  it("gives every seeded domain at least 10 questions with one correct option, or a right set of 2 or more (multiple-response)", async () => {
    const { catalog } = await import("@/db/seed/catalog");
    expect(catalog.length).toBeGreaterThanOrEqual(3);
    for (const certification of catalog) {
      for (const domain of certification.domains) {
        expect(domain.questions.length, `${certification.slug} / ${domain.name}`).toBeGreaterThanOrEqual(10);
        for (const question of domain.questions) {
          if (question.type === "multiple") {
            expect(question.correct.length).toBeGreaterThanOrEqual(2);
            expect(question.correct.length).toBeLessThan(question.options.length);
            expect(question.correct.every((index) => question.options[index])).toBe(true);
            expect(question.prompt).toMatch(/\(Choose two\.\)$/);
          } else expect(question.options[question.correct]).toBeTruthy();
          expect(new Set(question.options).size).toBe(question.options.length);
          expect(question.explanation.length).toBeGreaterThan(10);
        }
      }
    }
  });

  it("has at least one multiple-response question in ten in each certification", async () => {
    const { catalog } = await import("@/db/seed/catalog");
    for (const certification of catalog) {
      const all = certification.domains.flatMap((domain) => domain.questions);
      const multiple = all.filter((question) => question.type === "multiple").length;
      expect(multiple * 10, certification.slug).toBeGreaterThanOrEqual(all.length);
    }
  });

  it("is idempotent: a second run inserts nothing", async () => {
    expect(await seedCatalog(database.db)).toBe(0);
  });
});
