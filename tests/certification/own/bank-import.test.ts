import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq, sql } from "drizzle-orm";
import { domains, questions } from "@/db/schema";
import * as certificationsRoute from "@/app/api/v1/certifications/route";
import * as domainQuestionsRoute from "@/app/api/v1/certifications/[id]/domains/[domain_id]/questions/route";
import * as importRoute from "@/app/api/v1/certifications/[id]/import/route";
import * as exportRoute from "@/app/api/v1/certifications/[id]/export/route";
import * as questionsRoute from "@/app/api/v1/certifications/[id]/questions/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { MAX_BANK_FILE_BYTES } from "@/lib/certification/own/contracts";

/**
 * Question banks in and out through the routes (POST …/import, GET …/export): Moodle's
 * documented examples of each format, the body as raw text or multipart, dry runs, files that
 * cannot be read, round trips between two certifications, and the domain limit.
 * PGlite and PostgreSQL.
 */

let database: TestDatabase;
let trainer: Trainer;
let other: Trainer;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  other = await createTrainer(database.db);
});
afterAll(() => database.drop());

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/formats/${name}`, import.meta.url), "utf8");

type Format = "csv" | "gift" | "moodle_xml" | "aiken";
type Report = { format: Format; dry_run: boolean; imported: number; domains: { id: number | null; name: string; created: boolean; questions: number }[]; skipped: { line: number; name: string | null; reason: string }[] };

async function newCertification(domainNames: string[] = []): Promise<{ id: number; domainIds: number[] }> {
  const created = await call(certificationsRoute.POST, "/api/v1/certifications", {
    method: "POST",
    key: trainer.secret,
    body: { name: "Bank target", vendor: "Acme", domains: domainNames },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id, domainIds: created.body.domains.map((d: { id: number }) => d.id) };
}

/**
 * POST …/import with the file as the raw body (any content type; bytes as they are) or as the
 * part `file` of a FormData. Built here rather than with `call`, which sends a string as JSON.
 */
async function importFile(
  id: number,
  file: string | Uint8Array | FormData | undefined,
  query: Record<string, string | number>,
  options: { key?: string; contentType?: string } = {},
) {
  const url = new URL(`http://localhost/api/v1/certifications/${id}/import`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  const headers = new Headers({ "x-api-key": options.key ?? trainer.secret });
  if (!(file instanceof FormData)) headers.set("content-type", options.contentType ?? "text/plain; charset=utf-8");
  const response = await importRoute.POST(new Request(url, { method: "POST", headers, body: file as BodyInit | undefined }), { params: Promise.resolve({ id: String(id) }) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const multipart = (text: string, name = "bank.txt") => {
  const form = new FormData();
  form.append("file", new File([text], name, { type: "text/plain" }));
  return form;
};

async function exportFile(id: number, format: Format) {
  const result = await call(exportRoute.GET, `/api/v1/certifications/${id}/export`, { key: trainer.secret, params: { id: String(id) }, query: { format } });
  expect(result.status, String(result.body)).toBe(200);
  return result;
}

/** The certification's questions as the API lists them, with their domains' names, in order. */
async function bankOf(id: number) {
  const named = new Map(
    (await database.db.select({ id: domains.id, name: domains.name }).from(domains).where(eq(domains.certificationId, id)).orderBy(asc(domains.position))).map((d) => [d.id, d.name]),
  );
  const listed = await call(questionsRoute.GET, `/api/v1/certifications/${id}/questions`, { key: trainer.secret, params: { id: String(id) }, query: { per_page: 100 } });
  expect(listed.status).toBe(200);
  return listed.body.data.map((q: { domain_id: number; prompt: string; options: string[]; type: string; correct: unknown; explanation: string }) => ({
    domain: named.get(q.domain_id),
    prompt: q.prompt,
    options: q.options,
    type: q.type,
    correct: q.correct,
    explanation: q.explanation,
  }));
}

const questionCount = async (id: number) =>
  (
    await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(questions)
      .innerJoin(domains, eq(domains.id, questions.domainId))
      .where(eq(domains.certificationId, id))
  )[0].n;
const domainCount = async (id: number) => (await database.db.select({ n: sql<number>`count(*)::int` }).from(domains).where(eq(domains.certificationId, id)))[0].n;

const perDomain = (report: Report) => report.domains.map((d) => [d.name, d.created, d.questions]);

describe("Moodle's documented examples, imported through the route", () => {
  it("GIFT: the multiple-choice, multiple-answer and true/false questions into their categories; the other types skipped by line, naming the type", async () => {
    const { id } = await newCertification(["Grant's tomb"]);
    const result = await importFile(id, fixture("moodle-docs.gift"), { format: "gift" });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const report: Report = result.body;
    expect(report).toMatchObject({ format: "gift", dry_run: false, imported: 12 });
    // The existing domain is matched, the other category is made.
    expect(perDomain(report)).toEqual([
      ["Grant's tomb", false, 6],
      ["Feedback", true, 6],
    ]);
    expect(report.domains.every((d) => typeof d.id === "number")).toBe(true);
    expect(report.skipped.map((s) => s.line)).toEqual([20, 41, 43, 51, 53, 55, 86, 88]);
    const reasons = report.skipped.map((s) => s.reason);
    for (const [index, type] of ["Missing-word", "Short-answer", "Matching", "Numerical", "Essay", "Descriptions"].entries()) expect(reasons[index]).toContain(type);
    expect(await questionCount(id)).toBe(12);
    const stored = await bankOf(id);
    expect(stored.find((q: { prompt: string }) => q.prompt === "What two people are entombed in Grant's tomb?")).toMatchObject({
      domain: "Grant's tomb",
      type: "multiple",
      correct: [1, 2],
    });
  });

  it("Moodle XML: three questions into the category's domain; the others skipped by line and name", async () => {
    const { id } = await newCertification();
    const result = await importFile(id, fixture("moodle-docs.xml"), { format: "moodle_xml" }, { contentType: "application/xml" });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const report: Report = result.body;
    expect(report.imported).toBe(3);
    expect(perDomain(report)).toEqual([["Moodle/XML/Examples", true, 3]]);
    expect(report.skipped.map((s) => [s.line, s.name])).toEqual([
      [82, "Short"],
      [91, "Numerical"],
      [100, "Matching"],
      [113, "Essay"],
      [119, "Description"],
      [124, "Cloze"],
      [129, "Partial only"],
    ]);
    expect(report.skipped[0].reason).toContain("Short-answer questions");
    expect(report.skipped[5].reason).toContain("Cloze questions");
    expect(await bankOf(id)).toEqual([
      { domain: "Moodle/XML/Examples", prompt: "What is the answer to this question?", options: ["The correct answer", "A distractor", "Another distractor"], type: "single", correct: 0, explanation: "Correct!" },
      { domain: "Moodle/XML/Examples", prompt: "Which are prime numbers & odd?", options: ["3", "5", "2", "4 < 5"], type: "multiple", correct: [0, 1], explanation: "3 and 5 are odd primes; 2 is even." },
      { domain: "Moodle/XML/Examples", prompt: "The sun rises in the East.", options: ["True", "False"], type: "single", correct: 0, explanation: "Correct!" },
    ]);
  });

  it("Aiken: both questions, into \"General\" (made when needed) or into the domain_id given", async () => {
    const { id, domainIds } = await newCertification(["Chosen"]);
    const general = await importFile(id, fixture("moodle-docs-aiken.txt"), { format: "aiken" });
    expect(general.status, JSON.stringify(general.body)).toBe(200);
    expect(general.body).toMatchObject({ imported: 2, skipped: [] });
    expect(perDomain(general.body)).toEqual([["General", true, 2]]);

    const chosen = await importFile(id, fixture("moodle-docs-aiken.txt"), { format: "aiken", domain_id: domainIds[0] });
    expect(perDomain(chosen.body)).toEqual([["Chosen", false, 2]]);
    expect(chosen.body.domains[0].id).toBe(domainIds[0]);

    // A second import into "General" finds the domain the first one made.
    const again = await importFile(id, fixture("moodle-docs-aiken.txt"), { format: "aiken" });
    expect(perDomain(again.body)).toEqual([["General", false, 2]]);
    expect(await domainCount(id)).toBe(2);
    const stored = await bankOf(id);
    expect(stored[0]).toEqual({
      domain: "Chosen",
      prompt: "What is the correct answer to this question?",
      options: ["Is it this one?", "Maybe this answer?", "Possibly this one?", "Must be this one!"],
      type: "single",
      correct: 3,
      explanation: "",
    });
  });

  it("CSV: good rows imported, bad rows skipped with their line and reason (200)", async () => {
    const { id } = await newCertification();
    const csv = [
      "domain,question,option_a,option_b,option_c,option_d,correct,explanation",
      "Routing,Which two are routing protocols?,OSPF,HTTP,BGP,SMTP,A;C,OSPF and BGP route.",
      "Routing,Bad letter?,a,b,,,Z,",
      ",No domain?,yes,no,,,1,",
      "Routing,All right?,a,b,c,,A;B;C,",
    ].join("\r\n");
    const result = await importFile(id, csv, { format: "csv" }, { contentType: "text/csv" });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.imported).toBe(2);
    expect(perDomain(result.body)).toEqual([
      ["Routing", true, 1],
      ["General", true, 1],
    ]);
    expect(result.body.skipped).toEqual([
      { line: 3, name: null, reason: expect.stringContaining('found "Z"') },
      { line: 5, name: null, reason: "At least one option must be wrong." },
    ]);
  });
});

describe("the body, and dry runs", () => {
  it("raw body (any content type) and multipart part `file` give the same report", async () => {
    const gift = fixture("moodle-docs.gift");
    const reports: Report[] = [];
    for (const [file, contentType] of [
      [gift, "text/plain"],
      [gift, "application/octet-stream"],
      [gift, "application/json"],
      [multipart(gift, "bank.gift"), undefined],
    ] as const) {
      const { id } = await newCertification();
      const result = await importFile(id, file, { format: "gift" }, { contentType });
      expect(result.status, `${contentType}: ${JSON.stringify(result.body)}`).toBe(200);
      reports.push(result.body);
    }
    const withoutIds = (report: Report) => ({ ...report, domains: report.domains.map((d) => ({ ...d, id: null })) });
    for (const report of reports.slice(1)) expect(withoutIds(report)).toEqual(withoutIds(reports[0]));
    expect(reports[0].imported).toBe(12);
  });

  it("a multipart body without a part `file` is a 422 on file", async () => {
    const { id } = await newCertification();
    const form = new FormData();
    form.append("bank", new File(["Q {=a ~b}"], "bank.gift"));
    const result = await importFile(id, form, { format: "gift" });
    expect(result.status).toBe(422);
    expect(result.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["file"]);
  });

  it("dry_run=true writes nothing and reports what the real import then does", async () => {
    const { id } = await newCertification(["Feedback"]);
    const dry = await importFile(id, fixture("moodle-docs.gift"), { format: "gift", dry_run: "true" });
    expect(dry.status).toBe(200);
    expect(dry.body.dry_run).toBe(true);
    expect(await questionCount(id)).toBe(0);
    expect(await domainCount(id)).toBe(1);
    // Existing domains first, then those it would make (no id yet).
    expect(dry.body.domains).toEqual([
      { id: expect.any(Number), name: "Feedback", created: false, questions: 6 },
      { id: null, name: "Grant's tomb", created: true, questions: 6 },
    ]);

    const real = await importFile(id, fixture("moodle-docs.gift"), { format: "gift", dry_run: "false" });
    expect(real.body.dry_run).toBe(false);
    expect(real.body.imported).toBe(dry.body.imported);
    expect(real.body.skipped).toEqual(dry.body.skipped);
    expect(perDomain(real.body)).toEqual(perDomain(dry.body));
    expect(await questionCount(id)).toBe(dry.body.imported);
  });
});

describe("files that cannot be imported", () => {
  const malformed: [Format, string, number][] = [
    ["csv", 'domain,question,option_a,option_b,correct,explanation\nD,"never closed,a,b,A,\n', 2],
    ["csv", "\n\nname,question,a,b,correct,explanation\nD,Q,a,b,A,\n", 3],
    ["gift", "// a comment\n\nQ1 {=a ~b}\n\nQ2 {\n=a\n~b\n", 7],
    ["gift", "Q1 {=a ~b}\n\nQ2 {\n=a\n~b: c\n}", 5],
    ["moodle_xml", '<?xml version="1.0"?>\n<quiz>\n<question type="multichoice">\n<name><text>x</text></name>\n</quiz>\n', 5],
    ["moodle_xml", '<?xml version="1.0"?>\n\n<questions><question/></questions>', 3],
    ["aiken", "\n\nDear trainer,\nhere are my questions.\n", 3],
  ];

  it("a malformed file of each format: 422 on file naming the line, nothing written", async () => {
    const { id } = await newCertification(["Existing"]);
    for (const [format, text, line] of malformed) {
      const result = await importFile(id, text, { format });
      expect(result.status, `${format}: ${JSON.stringify(result.body)}`).toBe(422);
      const fields = result.body.error.fields as { field: string; message: string }[];
      expect(fields.map((f) => f.field)).toEqual(["file"]);
      expect(fields[0].message, format).toMatch(new RegExp(`\\b[Ll]ine ${line}\\b`));
      expect(result.body.error.message).toMatch(/nothing was imported/);
    }
    expect(await questionCount(id)).toBe(0);
    expect(await domainCount(id)).toBe(1);
  });

  it("bytes that are not UTF-8, an empty body, a blank file: 422 on file", async () => {
    const { id } = await newCertification();
    const latin1 = new Uint8Array([...new TextEncoder().encode("Caf"), 0xe9, ...new TextEncoder().encode(" {=a ~b}\n")]);
    for (const body of [latin1, undefined, "", "  \n\n "]) {
      const result = await importFile(id, body, { format: "gift" });
      expect(result.status, String(body)).toBe(422);
      expect(result.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["file"]);
    }
    const notUtf8 = await importFile(id, latin1, { format: "gift" });
    expect(notUtf8.body.error.fields[0].message).toMatch(/UTF-8/);
    expect(await questionCount(id)).toBe(0);
  });

  it("a file over 4 MB: 413, nothing written", async () => {
    const { id } = await newCertification();
    const big = `Q {=a ~b}\n// ${"x".repeat(MAX_BANK_FILE_BYTES)}\n`;
    const raw = await importFile(id, big, { format: "gift" });
    expect(raw.status).toBe(413);
    expect(raw.body.error.message).toMatch(/4194304 bytes/);
    const part = await importFile(id, multipart(big), { format: "gift" });
    expect(part.status).toBe(413);
    expect(part.body.error.message).toMatch(/4 MB/);
    expect(await questionCount(id)).toBe(0);
  });

  it("an unknown or missing format: 422 on format; another certification's domain_id: 422 on domain_id; another workspace or the catalog: 404", async () => {
    const { id } = await newCertification();
    const elsewhere = await newCertification(["Elsewhere"]);
    for (const query of [{ format: "docx" }, {}] as Record<string, string>[]) {
      const result = await importFile(id, "Q {=a ~b}", query);
      expect(result.status).toBe(422);
      expect(result.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["format"]);
    }
    const foreign = await importFile(id, "Q {=a ~b}", { format: "gift", domain_id: elsewhere.domainIds[0] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["domain_id"]);

    expect((await importFile(id, "Q {=a ~b}", { format: "gift" }, { key: other.secret })).status).toBe(404);
    const { certificationId: catalogId } = await catalogCertification(database.db);
    expect((await importFile(catalogId, "Q {=a ~b}", { format: "gift" })).status).toBe(404);
    expect((await call(exportRoute.GET, `/api/v1/certifications/${catalogId}/export`, { key: trainer.secret, params: { id: String(catalogId) }, query: { format: "gift" } })).status).toBe(404);
    expect(await questionCount(id)).toBe(0);
    expect(await questionCount(elsewhere.id)).toBe(0);
  });
});

describe("round trips through the routes", () => {
  const bank = [
    { domain: "Networking", prompt: "Which port does HTTPS use?", options: ["80", "443", "22"], type: "single", correct: 1, explanation: "443 is TLS." },
    { domain: "Networking", prompt: "Which two are routing protocols?", options: ["OSPF", "HTTP", "BGP", "SMTP"], type: "multiple", correct: [0, 2], explanation: "OSPF and BGP route." },
    { domain: "Security & <Ops>", prompt: "What is 2FA: a {second} factor?", options: ["Yes, \"really\"", "No; never", "=maybe"], type: "single", correct: 0, explanation: "" },
    { domain: "Security & <Ops>", prompt: "Pick three\nof four", options: ["a", "b", "c", "d"], type: "multiple", correct: [0, 1, 3], explanation: "Line one.\nLine two." },
    { domain: "Cloud/Edge", prompt: "Ünïcode 字 works?", options: ["True", "False"], type: "single", correct: 0, explanation: "Yes 🙂" },
  ];
  let sourceId: number;

  beforeAll(async () => {
    const { id, domainIds } = await newCertification(["Networking", "Security & <Ops>", "Cloud/Edge"]);
    sourceId = id;
    const byName = new Map(["Networking", "Security & <Ops>", "Cloud/Edge"].map((name, index) => [name, domainIds[index]]));
    for (const { domain, ...question } of bank) {
      const domainId = byName.get(domain)!;
      const added = await call(domainQuestionsRoute.POST, `/api/v1/certifications/${id}/domains/${domainId}/questions`, {
        method: "POST",
        key: trainer.secret,
        params: { id: String(id), domain_id: String(domainId) },
        body: question,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
    expect(await bankOf(id)).toEqual(bank);
  });

  const attachments: [Format, RegExp, RegExp][] = [
    ["csv", /^text\/csv/, /\.csv"?$/],
    ["gift", /^text\/plain/, /\.gift\.txt"?$/],
    ["moodle_xml", /^application\/xml/, /\.xml"?$/],
  ];
  for (const [format, contentType, fileName] of attachments) {
    it(`${format}: exported as an attachment and imported into a fresh certification, the same questions`, async () => {
      const exported = await exportFile(sourceId, format);
      expect(exported.headers.get("content-type")).toMatch(contentType);
      expect(exported.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(exported.headers.get("content-disposition")).toMatch(fileName);
      expect(exported.headers.get("x-questions-left-out")).toBe("0");

      const { id } = await newCertification();
      const imported = await importFile(id, exported.body as string, { format }, { contentType: exported.headers.get("content-type")! });
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body.skipped).toEqual([]);
      expect(perDomain(imported.body)).toEqual([
        ["Networking", true, 2],
        ["Security & <Ops>", true, 2],
        ["Cloud/Edge", true, 1],
      ]);
      expect(await bankOf(id)).toEqual(bank);
    });
  }

  it("aiken: the single questions only (X-Questions-Left-Out counts the others), into the chosen domain, without explanations", async () => {
    const exported = await exportFile(sourceId, "aiken");
    expect(exported.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(exported.headers.get("x-questions-left-out")).toBe("2");

    const { id, domainIds } = await newCertification(["Imported"]);
    const imported = await importFile(id, exported.body as string, { format: "aiken", domain_id: domainIds[0] });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 3, skipped: [] });
    const singles = bank.filter((q) => q.type === "single").map((q) => ({ ...q, domain: "Imported", explanation: "", prompt: q.prompt.replace(/\n/g, " ") }));
    expect(await bankOf(id)).toEqual(singles);
  });
});

describe("concurrent imports", () => {
  it("ten imports of one new category at once make its domain once and write every question", async () => {
    const { id } = await newCertification();
    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => importFile(id, `$CATEGORY: $course$/top/Networks\n\nQuestion ${n}? {=right ~wrong}\n`, { format: "gift" })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.body.domains[0].created)).toHaveLength(1);
    expect(await domainCount(id)).toBe(1);
    expect(await questionCount(id)).toBe(10);
  });
});

describe("the limits of one import", () => {
  it("more than 2000 questions: the first 2000 are imported, the rest skipped with the reason", async () => {
    const { id } = await newCertification();
    const gift = Array.from({ length: 2002 }, (_, n) => `Question ${n + 1}? {=right ~wrong}`).join("\n\n");
    const result = await importFile(id, gift, { format: "gift" });
    expect(result.status, JSON.stringify(result.body).slice(0, 500)).toBe(200);
    expect(result.body.imported).toBe(2000);
    // One entry for everything past the limit, at the first item not read.
    expect(result.body.skipped).toEqual([{ line: 4001, name: null, reason: expect.stringMatching(/^At most 2000 questions per import: this item and the 1 after it were not read/) }]);
    expect(await questionCount(id)).toBe(2000);
  });

  it("a file of more than 50 new categories: the items past the 50th domain are skipped with the reason", async () => {
    const { id } = await newCertification(["Existing"]);
    // 52 categories, one question each, the first being the existing domain: 50 domains in all, 2 skipped.
    const names = ["Existing", ...Array.from({ length: 51 }, (_, n) => `Topic ${n + 1}`)];
    const gift = names.map((name, n) => `$CATEGORY: $course$/top/${name}\n\nQuestion ${n + 1}? {=right ~wrong}\n`).join("\n");
    const result = await importFile(id, gift, { format: "gift" });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.imported).toBe(50);
    expect(result.body.domains).toHaveLength(50);
    expect(result.body.skipped).toHaveLength(2);
    const lines = gift.split("\n");
    for (const skipped of result.body.skipped as Report["skipped"]) {
      expect(skipped.reason).toMatch(/at most 50/);
      expect(lines[skipped.line - 1]).toMatch(/^Question (51|52)\?/);
    }
    expect(await domainCount(id)).toBe(50);
    expect(await questionCount(id)).toBe(50);
  });
});
