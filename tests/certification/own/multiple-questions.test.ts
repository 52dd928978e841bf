import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { domains, questions } from "@/db/schema";
import { catalogCertificationId, seedCatalog } from "@/db/seed";
import { catalog } from "@/db/seed/catalog";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallOptions } from "../../helpers/http";
import { signInAs } from "../../helpers/session";

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

const certificationsRoute = await import("@/app/api/v1/certifications/route");
const questionsRoute = await import("@/app/api/v1/certifications/[id]/questions/route");
const importRoute = await import("@/app/api/v1/certifications/[id]/import/route");
const domainQuestionsRoute = await import("@/app/api/v1/certifications/[id]/domains/[domain_id]/questions/route");
const questionRoute = await import("@/app/api/v1/certifications/[id]/questions/[question_id]/route");

/**
 * Multiple-response questions in the own-certification editor (issue 23): `type` and a `correct`
 * set through the routes and the CSV import (`A;C`), the field errors, and the catalog seed
 * adding its new items to a database seeded before them. PGlite and PostgreSQL.
 */

let database: TestDatabase;
let trainer: Trainer;
let id: string;
let domainId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  signInAs(trainer);
  const created = await as(certificationsRoute.POST, "/api/v1/certifications", {
    method: "POST",
    body: { name: "Networks", vendor: "Acme", domains: ["Protocols"] },
  });
  expect(created.status).toBe(201);
  id = String(created.body.id);
  domainId = String(created.body.domains[0].id);
});
afterAll(() => database.drop());

function as(handler: Parameters<typeof call>[0], path: string, options: CallOptions = {}) {
  return call(handler, path, { ...options, headers: { origin: "http://localhost", host: "localhost", ...options.headers } });
}

const addQuestion = (body: unknown) =>
  as(domainQuestionsRoute.POST, `/api/v1/certifications/${id}/domains/${domainId}/questions`, { method: "POST", params: { id, domain_id: domainId }, body });
const listQuestions = () => as(questionsRoute.GET, `/api/v1/certifications/${id}/questions`, { params: { id }, query: { per_page: 100 } });
const importCsv = (csv: string) => as(importRoute.POST, `/api/v1/certifications/${id}/import`, { method: "POST", params: { id }, query: { format: "csv" }, body: csv });

describe("the editor's routes", () => {
  it("adds a multiple-response question: the set stored ascending, correct_index its first, the view with type and the set", async () => {
    const added = await addQuestion({ prompt: "Which two are transport protocols?", type: "multiple", options: ["IP", "UDP", "ARP", "TCP"], correct: [3, 1], explanation: "TCP, UDP." });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ type: "multiple", correct: [1, 3], options: ["IP", "UDP", "ARP", "TCP"] });
    const [row] = await database.db.select().from(questions).where(eq(questions.id, added.body.id));
    expect(row).toMatchObject({ type: "multiple", correctIndexes: [1, 3], correctIndex: 1 });

    // A single question keeps its integer; type defaults to single.
    const single = await addQuestion({ prompt: "Which is layer 3?", options: ["IP", "TCP"], correct: 0 });
    expect(single.body).toMatchObject({ type: "single", correct: 0 });
    const [singleRow] = await database.db.select().from(questions).where(eq(questions.id, single.body.id));
    expect(singleRow).toMatchObject({ type: "single", correctIndexes: null, correctIndex: 0 });

    // Switching a question's type in place.
    const questionId = String(single.body.id);
    const edited = await as(questionRoute.PATCH, `/api/v1/certifications/${id}/questions/${questionId}`, {
      method: "PATCH",
      params: { id, question_id: questionId },
      body: { prompt: "Which two are layer 3?", type: "multiple", options: ["IP", "TCP", "ICMP"], correct: [2, 0] },
    });
    expect(edited.body).toMatchObject({ type: "multiple", correct: [0, 2] });
    const listed = await listQuestions();
    expect(listed.body.data.map((q: { type: string; correct: unknown }) => [q.type, q.correct])).toEqual([
      ["multiple", [1, 3]],
      ["multiple", [0, 2]],
    ]);
  });

  it("refuses a set of one, a repeat, an option out of range, every option right, and the wrong kind of `correct` (422 on correct)", async () => {
    const base = { prompt: "Q?", options: ["a", "b", "c", "d"] };
    for (const [body, message] of [
      [{ ...base, type: "multiple", correct: [1] }, /at least 2/],
      [{ ...base, type: "multiple", correct: [1, 1] }, /listed twice/],
      [{ ...base, type: "multiple", correct: [1, 4] }, /one of the options/],
      [{ ...base, type: "multiple", correct: [0, 1, 2, 3] }, /must be wrong/],
      [{ ...base, type: "multiple", correct: 1 }, /as a list/],
      [{ ...base, correct: [0, 1] }, /one right option/],
      [{ ...base, type: "several", correct: [0, 1] }, /./],
    ] as const) {
      const refused = await addQuestion(body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      const fields = refused.body.error.fields as { field: string; message: string }[];
      expect(fields.map((f) => f.field), JSON.stringify(body)).toContain("type" in body && body.type === "several" ? "type" : "correct");
      expect(fields.map((f) => f.message).join(" "), JSON.stringify(body)).toMatch(message);
    }
  });
});

describe("the CSV import", () => {
  it("imports `A;C` as a multiple-response question and a letter as a single one", async () => {
    const csv = [
      "domain,question,option_a,option_b,option_c,option_d,correct,explanation",
      "Routing,Which two are routing protocols? (Choose two.),OSPF,HTTP,BGP,SMTP,A;C,OSPF and BGP route.",
      "Routing,Which port does HTTPS use?,80,443,25,,B,",
    ].join("\r\n");
    const imported = await importCsv(csv);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toEqual({ format: "csv", dry_run: false, imported: 2, domains: [{ id: expect.any(Number), name: "Routing", created: true, questions: 2 }], skipped: [] });
    const listed = await listQuestions();
    const byPrompt = new Map(listed.body.data.map((q: { prompt: string }) => [q.prompt, q]));
    expect(byPrompt.get("Which two are routing protocols? (Choose two.)")).toMatchObject({ type: "multiple", correct: [0, 2] });
    expect(byPrompt.get("Which port does HTTPS use?")).toMatchObject({ type: "single", correct: 1 });
  });

  it("skips a row whose set is wrong, naming its line and why, and imports the others", async () => {
    const before = await listQuestions();
    const csv = "domain,question,option_a,option_b,option_c,option_d,correct,explanation\nRouting,Good?,a,b,,,A,\nRouting,Bad?,a,b,c,,A;B;C,\nRouting,Repeat?,a,b,c,,A;A,\n";
    const result = await importCsv(csv);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.imported).toBe(1);
    expect(result.body.skipped).toEqual([
      { line: 3, name: null, reason: "At least one option must be wrong." },
      { line: 4, name: null, reason: expect.stringMatching(/twice/) },
    ]);
    const after = await listQuestions();
    expect(after.body.data).toHaveLength(before.body.data.length + 1);
    expect(after.body.data.map((q: { prompt: string }) => q.prompt)).not.toContain("Bad?");
  });

  it("refuses a file that cannot be read as CSV (wrong header), naming the line, and writes nothing", async () => {
    const before = await listQuestions();
    const refused = await importCsv("domain,question,a,b,c,d,correct,explanation\nRouting,Q?,a,b,,,A;B,\n");
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual([{ field: "file", message: expect.stringMatching(/[Ll]ine 1/) }]);
    expect((await listQuestions()).body.data).toHaveLength(before.body.data.length);
  });
});

describe("the catalog seed on a database seeded before the multiple-response items", () => {
  it("adds the missing catalog questions to the existing domains, once, and rewrites none", async () => {
    const slug = "microsoft-az-900";
    const certificationId = (await catalogCertificationId(database.db, slug))!;
    const entry = catalog.find((c) => c.slug === slug)!;
    const expected = entry.domains.reduce((sum, d) => sum + d.questions.length, 0);
    const rowsOfCert = async () => {
      const all = await database.db.select().from(questions);
      const domainIds = new Set((await database.db.select().from(domains).where(eq(domains.certificationId, certificationId))).map((d) => d.id));
      return all.filter((q) => domainIds.has(q.domainId));
    };
    const seeded = await rowsOfCert();
    expect(seeded).toHaveLength(expected);
    expect(seeded.filter((q) => q.type === "multiple").length * 10).toBeGreaterThanOrEqual(expected);

    // As a database from before issue 23: its multiple-response items are not there yet.
    const multiple = seeded.filter((q) => q.type === "multiple");
    for (const q of multiple) await database.db.delete(questions).where(eq(questions.id, q.id));
    const kept = new Map((await rowsOfCert()).map((q) => [q.id, q]));

    expect(await seedCatalog(database.db)).toBe(0); // no certification inserted…
    const after = await rowsOfCert();
    expect(after).toHaveLength(expected); // …but the items are back,
    for (const q of after) if (kept.has(q.id)) expect(q).toEqual(kept.get(q.id)); // the others untouched,
    const added = after.filter((q) => !kept.has(q.id));
    expect(added.map((q) => q.prompt).sort()).toEqual(multiple.map((q) => q.prompt).sort());
    expect(added.every((q) => q.type === "multiple" && q.correctIndexes!.length === 2 && q.correctIndex === q.correctIndexes![0])).toBe(true);

    await seedCatalog(database.db); // and only once.
    expect(await rowsOfCert()).toHaveLength(expected);
  });
});
