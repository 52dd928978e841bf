import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { testQuestions, tests } from "@/db/schema";
import { catalogCertificationId } from "@/db/seed";
import { createCertification, getCertification } from "@/lib/certification/catalog/catalog";
import {
  addDomain,
  addQuestion,
  createOwnCertification,
  deleteQuestion,
  getOwnCertification,
  listQuestions as listQuestionsPage,
  renameDomain,
  updateCertification,
  updateQuestion,
} from "@/lib/certification/own/manage";
import { importBank } from "@/lib/certification/own/banks";
import { ownCertificationContracts } from "@/lib/certification/own/contracts";
import { newCertificationInput, patchCertificationInput, questionInput } from "@/lib/certification/own/schemas";
import { createCertificationInput } from "@/lib/certification/catalog/schemas";
import { AppError } from "@/lib/kernel/errors";
import { createTest } from "@/lib/certification/tests/tests";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { createTestInput } from "@/lib/certification/tests/schemas";
import { toAppError, zodFields } from "@/lib/kernel/to-app-error";

let database: TestDatabase;
let trainer: Trainer;
let other: Trainer;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  other = await createTrainer(database.db);
});
afterAll(() => database.drop());

async function ownCertification(name = "Acme Platform Basics") {
  return createCertification(
    database.db,
    trainer.workspaceId,
    createCertificationInput.parse({
      name,
      vendor: "Acme Corp",
      code: "ACME-101",
      domains: [
        { name: "Accounts", questions: [{ prompt: "Where do you reset a password?", options: ["Settings", "Billing"], correct: 0 }] },
        { name: "Billing", questions: [] },
      ],
    }),
  );
}

/** The error a promise rejects with, as the API layer sees it. */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => new Error("resolved"),
    (e: unknown) => e,
  );
  expect(String(error)).not.toMatch(/resolved/);
  return toAppError(error);
}

const question = { prompt: "Which plan has invoices?", options: ["Free", "Pro", "Both"], correct: 1, explanation: "Only Pro." };

/** Every question of an own certification (one page of up to 100 is all these tests make). */
async function listQuestions(db: typeof database.db, workspaceId: string, certificationId: number) {
  return (await listQuestionsPage(db, workspaceId, certificationId, { page: 1, per_page: 100 })).data;
}

/** A CSV bank imported as POST …/import?format=csv would. */
const importCsv = (workspaceId: string, certificationId: number, csv: string, dryRun = false) =>
  importBank(database.db, workspaceId, certificationId, csv, { format: "csv", dry_run: dryRun });

describe("own certifications: fields, domains and questions", () => {
  it("creates from the dashboard form with domain names, refusing a name given twice", async () => {
    const created = await createOwnCertification(
      database.db,
      trainer.workspaceId,
      newCertificationInput.parse({ name: "Internal onboarding", vendor: "Acme", domains: ["Basics", "Tools"] }),
    );
    expect(created).toMatchObject({ name: "Internal onboarding", vendor: "Acme", code: "", own: true, questions: 0 });
    expect(created.domains.map((d) => d.name)).toEqual(["Basics", "Tools"]);

    const error = await failure(createOwnCertification(database.db, trainer.workspaceId, newCertificationInput.parse({ name: "X", vendor: "Y", domains: ["A", "B", " a "] })));
    expect(error.code).toBe("validation_failed");
    expect(error.fields).toEqual([{ field: "domains.2", message: expect.stringContaining("twice") }]);
  });

  it("updates name, vendor, code and description: those sent change, the others stay", async () => {
    const own = await ownCertification();
    const updated = await updateCertification(
      database.db,
      trainer.workspaceId,
      own.id,
      patchCertificationInput.parse({ name: " Acme Platform Advanced ", vendor: "Acme Inc", code: "ACME-201", description: "For admins." }),
    );
    expect(updated).toMatchObject({ id: own.id, name: "Acme Platform Advanced", vendor: "Acme Inc", code: "ACME-201", description: "For admins.", own: true });
    expect(updated.domains).toHaveLength(2);

    const partial = await updateCertification(database.db, trainer.workspaceId, own.id, patchCertificationInput.parse({ code: "" }));
    expect(partial).toMatchObject({ name: "Acme Platform Advanced", vendor: "Acme Inc", code: "", description: "For admins." });
    const empty = patchCertificationInput.safeParse({});
    expect(empty.success).toBe(false);
    expect(empty.error!.issues[0].message).toMatch(/at least one/);
  });

  it("adds and renames domains, refusing a name the certification already has", async () => {
    const own = await ownCertification();
    const added = await addDomain(database.db, trainer.workspaceId, own.id, { name: "Security" });
    expect(added).toEqual({ id: expect.any(Number), name: "Security", questions: 0 });
    const detail = await getOwnCertification(database.db, trainer.workspaceId, own.id);
    expect(detail.domains.map((d) => d.name)).toEqual(["Accounts", "Billing", "Security"]);

    const duplicate = await failure(addDomain(database.db, trainer.workspaceId, own.id, { name: "billing" }));
    expect(duplicate.fields?.[0].field).toBe("name");

    const accounts = detail.domains[0];
    expect(await renameDomain(database.db, trainer.workspaceId, own.id, accounts.id, { name: "Users and accounts" })).toEqual({
      id: accounts.id,
      name: "Users and accounts",
      questions: 1,
    });
    // Renaming to its own name (another case) is fine; to a sibling's is not.
    await renameDomain(database.db, trainer.workspaceId, own.id, accounts.id, { name: "USERS and accounts" });
    const clash = await failure(renameDomain(database.db, trainer.workspaceId, own.id, accounts.id, { name: "Security" }));
    expect(clash.code).toBe("validation_failed");
    // A domain through another certification's path is not found.
    const sibling = await ownCertification("Sibling");
    expect((await failure(renameDomain(database.db, trainer.workspaceId, sibling.id, accounts.id, { name: "Moved" }))).code).toBe("not_found");
  });

  it("adds, lists, updates and deletes questions", async () => {
    const own = await ownCertification();
    const billing = own.domains[1];
    const added = await addQuestion(database.db, trainer.workspaceId, own.id, billing.id, question);
    expect(added).toEqual({ id: expect.any(Number), domain_id: billing.id, type: "single", ...question });

    const listed = await listQuestions(database.db, trainer.workspaceId, own.id);
    expect(listed.map((q) => q.prompt)).toEqual(["Where do you reset a password?", "Which plan has invoices?"]);

    const updated = await updateQuestion(database.db, trainer.workspaceId, own.id, added.id, questionInput.parse({ prompt: "Which plan?", options: ["A", "B"], correct: 0 }));
    expect(updated).toEqual({ id: added.id, domain_id: billing.id, prompt: "Which plan?", options: ["A", "B"], type: "single", correct: 0, explanation: "" });
    // A partial change keeps the other fields.
    const partial = await updateQuestion(database.db, trainer.workspaceId, own.id, added.id, { explanation: "A is free." });
    expect(partial).toEqual({ ...updated, explanation: "A is free." });

    await deleteQuestion(database.db, trainer.workspaceId, own.id, added.id);
    expect((await listQuestions(database.db, trainer.workspaceId, own.id)).map((q) => q.id)).not.toContain(added.id);
    expect((await getCertification(database.db, trainer.workspaceId, own.id)).questions).toBe(1);
  });

  it("refuses a question without 2 to 8 distinct options and a correct index among them: at the edge (POST) and merged (PATCH)", async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ prompt: "", options: ["a", "b"], correct: 0 }, ["prompt"]],
      [{ prompt: "Q", options: ["a"], correct: 0 }, ["options"]],
      [{ prompt: "Q", options: ["1", "2", "3", "4", "5", "6", "7", "8", "9"], correct: 0 }, ["options"]],
      [{ prompt: "Q", options: ["a", "b"], correct: 2 }, ["correct"]],
      [{ prompt: "Q", options: ["a", " A "], correct: 0 }, ["options.1"]],
      [{ prompt: "Q", options: ["a", ""], correct: -1 }, ["correct", "options.1"]],
    ];
    // The body of POST …/questions: handle() answers 422 with these fields before addQuestion runs.
    for (const [input, fields] of cases) {
      const parsed = ownCertificationContracts.addQuestion.body.safeParse(input);
      expect(parsed.success, JSON.stringify(input)).toBe(false);
      expect(zodFields(parsed.error!).map((f) => f.field).sort(), JSON.stringify(input)).toEqual(fields);
    }
    // PATCH merges the fields sent into the stored question and checks the whole: the same fields, nothing changed.
    const own = await ownCertification();
    const [stored] = await listQuestions(database.db, trainer.workspaceId, own.id);
    for (const [input, fields] of cases) {
      const patch = ownCertificationContracts.updateQuestion.body.parse(input);
      const error = await failure(updateQuestion(database.db, trainer.workspaceId, own.id, stored.id, patch));
      expect(error.code, JSON.stringify(input)).toBe("validation_failed");
      expect(error.fields?.map((f) => f.field).sort(), JSON.stringify(input)).toEqual(fields);
    }
    expect((await listQuestions(database.db, trainer.workspaceId, own.id))[0]).toEqual(stored);
  });

  it("never changes a test already sent: it holds frozen copies", async () => {
    const own = await ownCertification();
    const accounts = own.domains[0];
    const [original] = await listQuestions(database.db, trainer.workspaceId, own.id);
    const test = await createTest(database.db, trainer.workspaceId, createTestInput.parse({
      certification_id: own.id,
      domains: [accounts.id],
      questions: 1,
      recipients: [{ email: "frozen@example.com", name: "F" }],
      send_email: false,
    }));
    await updateQuestion(database.db, trainer.workspaceId, own.id, original.id, { prompt: "Changed?", options: ["x", "y"], correct: 1, explanation: "" });
    await renameDomain(database.db, trainer.workspaceId, own.id, accounts.id, { name: "Renamed" });
    await deleteQuestion(database.db, trainer.workspaceId, own.id, original.id);
    const frozen = await database.db
      .select({ prompt: testQuestions.prompt, options: testQuestions.options, correctIndex: testQuestions.correctIndex })
      .from(testQuestions)
      .innerJoin(tests, eq(tests.id, testQuestions.testId))
      .where(eq(tests.code, test.code));
    expect(frozen).toHaveLength(1);
    expect(frozen[0]).toMatchObject({ prompt: "Where do you reset a password?", options: ["Settings", "Billing"], correctIndex: 0 });
  });
});

describe("own certifications: scoping", () => {
  it("answers not_found to another workspace for every operation", async () => {
    const own = await ownCertification();
    const domainId = own.domains[0].id;
    const [existing] = await listQuestions(database.db, trainer.workspaceId, own.id);
    const ws = other.workspaceId;
    // Thunks, run one at a time: an eagerly started promise would reject before it is awaited.
    const attempts: [string, () => Promise<unknown>][] = [
      ["getOwnCertification", () => getOwnCertification(database.db, ws, own.id)],
      ["updateCertification", () => updateCertification(database.db, ws, own.id, { name: "Mine now", vendor: "Evil", code: "", description: "" })],
      ["addDomain", () => addDomain(database.db, ws, own.id, { name: "Extra" })],
      ["renameDomain", () => renameDomain(database.db, ws, own.id, domainId, { name: "Hijacked" })],
      ["listQuestions", () => listQuestions(database.db, ws, own.id)],
      ["addQuestion", () => addQuestion(database.db, ws, own.id, domainId, question)],
      ["updateQuestion", () => updateQuestion(database.db, ws, own.id, existing.id, question)],
      ["deleteQuestion", () => deleteQuestion(database.db, ws, own.id, existing.id)],
      ["importBank", () => importCsv(ws, own.id, "domain,question,option_a,option_b,option_c,option_d,correct,explanation\nA,Q,x,y,,,A,\n")],
    ];
    for (const [name, attempt] of attempts) expect((await failure(attempt())).code, name).toBe("not_found");
    // Nothing changed.
    const after = await getOwnCertification(database.db, trainer.workspaceId, own.id);
    expect(after).toMatchObject({ name: own.name, vendor: own.vendor, questions: 1 });
    expect(after.domains.map((d) => d.name)).toEqual(["Accounts", "Billing"]);
  });

  it("answers not_found for a catalog certification, even though the workspace can read it", async () => {
    const catalogId = (await catalogCertificationId(database.db, "aws-clf-c02"))!;
    const catalog = await getCertification(database.db, trainer.workspaceId, catalogId);
    expect(catalog.own).toBe(false);
    const domainId = catalog.domains[0].id;
    const ws = trainer.workspaceId;
    expect((await failure(updateCertification(database.db, ws, catalogId, { name: "Mine", vendor: "Me", code: "", description: "" }))).code).toBe("not_found");
    expect((await failure(addDomain(database.db, ws, catalogId, { name: "Extra" }))).code).toBe("not_found");
    expect((await failure(renameDomain(database.db, ws, catalogId, domainId, { name: "Renamed" }))).code).toBe("not_found");
    expect((await failure(addQuestion(database.db, ws, catalogId, domainId, question))).code).toBe("not_found");
    expect((await failure(listQuestions(database.db, ws, catalogId))).code).toBe("not_found");
    expect((await failure(updateQuestion(database.db, ws, catalogId, 1, question))).code).toBe("not_found");
    expect((await failure(deleteQuestion(database.db, ws, catalogId, 1))).code).toBe("not_found");
    expect((await failure(importCsv(ws, catalogId, "domain,question,option_a,option_b,correct,explanation\nA,Q,x,y,A,\n"))).code).toBe("not_found");
  });
});

const header = "domain,question,option_a,option_b,option_c,option_d,correct,explanation";

describe("importBank (CSV)", () => {
  it("imports every row, matching domains in any case, creating unknown ones and reading quoted fields", async () => {
    const own = await ownCertification();
    const csv = [
      "\uFEFFDomain,Question,Option_A,Option_B,Option_C,Option_D,Correct,Explanation",
      'accounts,"Which is true, in short?",Yes,No,,,a,"It is ""yes""."',
      'Security,"Two-factor:\nwhich factor is a phone?",Knowledge,Possession,Inherence,,B,',
      "",
      "Security,Pick 4,w,x,y,z,4,Last one.",
      "Networking,Port of HTTPS?,80,443,22,21,2,443 is TLS.\r\n",
    ].join("\n");
    const result = await importCsv(trainer.workspaceId, own.id, csv);
    expect(result).toMatchObject({ format: "csv", dry_run: false, imported: 4, skipped: [] });
    expect(result.domains.map((d) => [d.name, d.created, d.questions])).toEqual([
      ["Accounts", false, 1],
      ["Security", true, 2],
      ["Networking", true, 1],
    ]);

    const detail = await getOwnCertification(database.db, trainer.workspaceId, own.id);
    expect(detail.domains.map((d) => [d.name, d.questions])).toEqual([
      ["Accounts", 2],
      ["Billing", 0],
      ["Security", 2],
      ["Networking", 1],
    ]);
    const listed = await listQuestions(database.db, trainer.workspaceId, own.id);
    expect(listed.slice(1).map(({ prompt, options, correct, explanation }) => ({ prompt, options, correct, explanation }))).toEqual([
      { prompt: "Which is true, in short?", options: ["Yes", "No"], correct: 0, explanation: 'It is "yes".' },
      { prompt: "Two-factor:\nwhich factor is a phone?", options: ["Knowledge", "Possession", "Inherence"], correct: 1, explanation: "" },
      { prompt: "Pick 4", options: ["w", "x", "y", "z"], correct: 3, explanation: "Last one." },
      { prompt: "Port of HTTPS?", options: ["80", "443", "22", "21"], correct: 1, explanation: "443 is TLS." },
    ]);
  });

  it("skips every bad row with its line and the reason, and imports the good ones (a row without a domain goes to General)", async () => {
    const own = await ownCertification();
    const csv = [
      header, // line 1
      "Accounts,Good row,a,b,,,A,", // line 2
      ",Missing domain,a,b,,,A,", // line 3: imported into General
      "Accounts,Bad correct,a,b,,,E,", // line 4
      "Accounts,Correct points at an empty option,a,b,,,C,", // line 5
      "Accounts,D without C,a,b,,d,A,", // line 6
      "Accounts,Too few columns,a,b", // line 7
      "New domain,,a,a,,,1,", // line 8: empty question, duplicate option
      "Accounts,Good again,a,b,c,,3,", // line 9
    ].join("\n");
    const dry = await importCsv(trainer.workspaceId, own.id, csv, true);
    const result = await importCsv(trainer.workspaceId, own.id, csv);
    expect(dry).toEqual({ ...result, dry_run: true, domains: result.domains.map((d) => ({ ...d, id: d.created ? null : d.id })) });
    expect(result.imported).toBe(3);
    expect(result.domains.map((d) => [d.name, d.created, d.questions])).toEqual([
      ["Accounts", false, 2],
      ["General", true, 1],
    ]);
    expect(result.skipped.map((s) => s.line)).toEqual([4, 5, 6, 7, 8]);
    const reasons = result.skipped.map((s) => s.reason);
    expect(reasons[0]).toMatch(/option E, which is empty/);
    expect(reasons[1]).toMatch(/option C, which is empty/);
    expect(reasons[2]).toMatch(/Option C is empty but a later option is not/);
    expect(reasons[3]).toMatch(/columns/);
    expect(reasons[4]).toMatch(/Write the question|Two options are the same/);

    const detail = await getOwnCertification(database.db, trainer.workspaceId, own.id);
    expect(detail.questions).toBe(4);
    expect(detail.domains.map((d) => d.name)).toEqual(["Accounts", "Billing", "General"]);
  });

  it("refuses a missing or wrong header, a file without rows, and broken quoting: 422 on file, nothing written", async () => {
    const own = await ownCertification();
    const cases = [
      "Accounts,Q,a,b,,,A,",
      "domain,question,a,b,c,d,correct,explanation\nAccounts,Q,a,b,,,A,",
      `${header}\n\n`,
      `${header}\nAccounts,"unclosed,a,b,,,A,`,
      "   ",
    ];
    for (const csv of cases) {
      const error = await failure(importCsv(trainer.workspaceId, own.id, csv));
      expect(error.code, csv).toBe("validation_failed");
      expect(error.fields?.map((f) => f.field), csv).toEqual(["file"]);
      expect(error.message, csv).toMatch(/nothing was imported/);
    }
    expect((await getOwnCertification(database.db, trainer.workspaceId, own.id)).questions).toBe(1);
  });
});
