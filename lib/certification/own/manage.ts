import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { certifications, domains, questions, type Certification, type Domain, type Question } from "@/db/schema";
import { AppError, invalidFields, notFound, type FieldError } from "@/lib/kernel/errors";
import { createCertification, getCertification } from "@/lib/certification/catalog/catalog";
import { CsvSyntaxError, isBlankRecord, parseCsv } from "./csv";
import {
  csvColumns,
  MAX_CSV_ROWS,
  type CsvColumn,
  type DomainNameInput,
  type ImportCsvInput,
  type ImportResult,
  type NewCertificationInput,
  type QuestionInput,
  type QuestionView,
  type UpdateCertificationInput,
} from "./schemas";
import type { CertificationDetail, DomainView } from "@/lib/certification/catalog/schemas";

/**
 * The editor of a workspace's own certifications. Everything here is scoped to the
 * workspace's own ones: a catalog certification, or another workspace's, is `not_found`.
 * Tests already sent hold frozen copies of their questions, so edits here never change them.
 */

const MAX_DOMAINS = 50;

async function findOwnCertification(db: Db, workspaceId: string, certificationId: number): Promise<Certification> {
  const [row] = await db
    .select()
    .from(certifications)
    .where(and(eq(certifications.id, certificationId), eq(certifications.workspaceId, workspaceId)));
  if (!row) throw notFound("Certification");
  return row;
}

async function findOwnDomain(db: Db, workspaceId: string, domainId: number): Promise<Domain> {
  const [row] = await db
    .select({ domain: domains })
    .from(domains)
    .innerJoin(certifications, eq(certifications.id, domains.certificationId))
    .where(and(eq(domains.id, domainId), eq(certifications.workspaceId, workspaceId)));
  if (!row) throw notFound("Domain");
  return row.domain;
}

async function findOwnQuestion(db: Db, workspaceId: string, questionId: number): Promise<Question> {
  const [row] = await db
    .select({ question: questions })
    .from(questions)
    .innerJoin(domains, eq(domains.id, questions.domainId))
    .innerJoin(certifications, eq(certifications.id, domains.certificationId))
    .where(and(eq(questions.id, questionId), eq(certifications.workspaceId, workspaceId)));
  if (!row) throw notFound("Question");
  return row.question;
}

function toQuestionView(question: Question): QuestionView {
  return {
    id: question.id,
    domain_id: question.domainId,
    prompt: question.prompt,
    options: question.options,
    correct: question.correctIndex,
    explanation: question.explanation,
  };
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

async function domainsOf(db: Db, certificationId: number): Promise<Domain[]> {
  return db.select().from(domains).where(eq(domains.certificationId, certificationId)).orderBy(asc(domains.position), asc(domains.id));
}

async function touch(db: Db, certificationId: number): Promise<void> {
  await db.update(certifications).set({ updatedAt: new Date() }).where(eq(certifications.id, certificationId));
}

/** One of the workspace's own certifications, with its domains. */
export async function getOwnCertification(db: Db, workspaceId: string, certificationId: number): Promise<CertificationDetail> {
  await findOwnCertification(db, workspaceId, certificationId);
  return getCertification(db, workspaceId, certificationId);
}

/**
 * Creates an own certification from the dashboard's form (fields and domain names), through
 * `createCertification`; two domains with the same name are a field error.
 */
export async function createOwnCertification(db: Db, workspaceId: string, input: NewCertificationInput): Promise<CertificationDetail> {
  const fields: FieldError[] = [];
  input.domains.forEach((domain, index) => {
    if (input.domains.findIndex((other) => sameName(other, domain)) < index) {
      fields.push({ field: `domains.${index}`, message: `"${domain}" appears twice.` });
    }
  });
  if (fields.length) throw invalidFields(fields);
  return createCertification(db, workspaceId, { ...input, domains: input.domains.map((domain) => ({ name: domain, questions: [] })) });
}

/** Name, vendor, code and description of an own certification. */
export async function updateCertification(
  db: Db,
  workspaceId: string,
  certificationId: number,
  input: UpdateCertificationInput,
): Promise<CertificationDetail> {
  const [updated] = await db
    .update(certifications)
    .set({ name: input.name, vendor: input.vendor, code: input.code, description: input.description, updatedAt: new Date() })
    .where(and(eq(certifications.id, certificationId), eq(certifications.workspaceId, workspaceId)))
    .returning({ id: certifications.id });
  if (!updated) throw notFound("Certification");
  return getCertification(db, workspaceId, certificationId);
}

/** Adds a domain at the end; a name the certification already has is a field error. */
export async function addDomain(db: Db, workspaceId: string, certificationId: number, { name }: DomainNameInput): Promise<DomainView> {
  const certification = await findOwnCertification(db, workspaceId, certificationId);
  const existing = await domainsOf(db, certification.id);
  if (existing.some((domain) => sameName(domain.name, name))) {
    throw invalidFields([{ field: "name", message: `This certification already has a domain "${name}".` }]);
  }
  if (existing.length >= MAX_DOMAINS) throw invalidFields([{ field: "name", message: `A certification has at most ${MAX_DOMAINS} domains.` }]);
  const position = existing.reduce((max, domain) => Math.max(max, domain.position + 1), 0);
  const [row] = await db.insert(domains).values({ certificationId: certification.id, name, position }).returning();
  await touch(db, certification.id);
  return { id: row.id, name: row.name, questions: 0 };
}

/** Renames a domain of an own certification. Tests already sent keep the old (frozen) name. */
export async function renameDomain(db: Db, workspaceId: string, domainId: number, { name }: DomainNameInput): Promise<DomainView> {
  const domain = await findOwnDomain(db, workspaceId, domainId);
  const siblings = await domainsOf(db, domain.certificationId);
  if (siblings.some((other) => other.id !== domain.id && sameName(other.name, name))) {
    throw invalidFields([{ field: "name", message: `This certification already has a domain "${name}".` }]);
  }
  await db.update(domains).set({ name }).where(eq(domains.id, domain.id));
  await touch(db, domain.certificationId);
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(questions).where(eq(questions.domainId, domain.id));
  return { id: domain.id, name, questions: count };
}

/** The questions of an own certification, in domain order then creation order. */
export async function listQuestions(db: Db, workspaceId: string, certificationId: number): Promise<QuestionView[]> {
  const certification = await findOwnCertification(db, workspaceId, certificationId);
  const rows = await db
    .select({ question: questions })
    .from(questions)
    .innerJoin(domains, eq(domains.id, questions.domainId))
    .where(eq(domains.certificationId, certification.id))
    .orderBy(asc(domains.position), asc(domains.id), asc(questions.id));
  return rows.map(({ question }) => toQuestionView(question));
}

export async function addQuestion(db: Db, workspaceId: string, domainId: number, input: QuestionInput): Promise<QuestionView> {
  const domain = await findOwnDomain(db, workspaceId, domainId);
  const [row] = await db
    .insert(questions)
    .values({ domainId: domain.id, prompt: input.prompt, options: input.options, correctIndex: input.correct, explanation: input.explanation })
    .returning();
  await touch(db, domain.certificationId);
  return toQuestionView(row);
}

/** Replaces a question's text, options, correct option and explanation (its domain stays). */
export async function updateQuestion(db: Db, workspaceId: string, questionId: number, input: QuestionInput): Promise<QuestionView> {
  const question = await findOwnQuestion(db, workspaceId, questionId);
  const [row] = await db
    .update(questions)
    .set({ prompt: input.prompt, options: input.options, correctIndex: input.correct, explanation: input.explanation })
    .where(eq(questions.id, question.id))
    .returning();
  const domain = await findOwnDomain(db, workspaceId, question.domainId);
  await touch(db, domain.certificationId);
  return toQuestionView(row);
}

export async function deleteQuestion(db: Db, workspaceId: string, questionId: number): Promise<void> {
  const question = await findOwnQuestion(db, workspaceId, questionId);
  const domain = await findOwnDomain(db, workspaceId, question.domainId);
  await db.delete(questions).where(eq(questions.id, question.id));
  await touch(db, domain.certificationId);
}

type CsvRow = { domain: string; prompt: string; options: string[]; correct: number; explanation: string };

/** `correct` of the CSV: a letter A–D or a number 1–4; the index, or undefined. */
function correctIndex(value: string): number | undefined {
  const text = value.trim().toUpperCase();
  if (/^[A-D]$/.test(text)) return text.charCodeAt(0) - 65;
  if (/^[1-4]$/.test(text)) return Number(text) - 1;
  return undefined;
}

/**
 * Reads the CSV of an import: header `domain,question,option_a,option_b,option_c,option_d,correct,explanation`
 * (in this order, any case), then one question per row. Every bad row is
 * reported, as `rows.<n>.<column>` with n counting data rows from 1 (the header is not a row);
 * the whole file is refused when anything is wrong.
 */
export function readQuestionsCsv(csvText: string): CsvRow[] {
  let records;
  try {
    records = parseCsv(csvText);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw invalidFields([{ field: "csv", message: error.message }], "The CSV could not be read.");
    throw error;
  }
  const headerIndex = records.findIndex((record) => !isBlankRecord(record));
  if (headerIndex < 0) throw invalidFields([{ field: "csv", message: "The file is empty." }], "The CSV could not be read.");
  const header = records[headerIndex].fields.map((name) => name.trim().toLowerCase());
  if (header.length !== csvColumns.length || csvColumns.some((column, index) => header[index] !== column)) {
    throw invalidFields(
      [{ field: "csv", message: `The first row must be the header: ${csvColumns.join(",")}` }],
      "The CSV could not be read.",
    );
  }
  const dataRows = records.slice(headerIndex + 1);
  const fields: FieldError[] = [];
  const rows: CsvRow[] = [];
  let n = 0;
  for (const record of dataRows) {
    if (isBlankRecord(record)) continue;
    n += 1;
    if (n > MAX_CSV_ROWS) {
      fields.push({ field: "csv", message: `At most ${MAX_CSV_ROWS} questions per import.` });
      break;
    }
    const rowErrors: FieldError[] = [];
    const error = (column: CsvColumn | null, message: string) =>
      rowErrors.push({ field: column ? `rows.${n}.${column}` : `rows.${n}`, message: `Row ${n} (line ${record.line}): ${message}` });
    if (record.fields.length !== csvColumns.length) {
      error(null, `has ${record.fields.length} column${record.fields.length === 1 ? "" : "s"}; expected ${csvColumns.length}.`);
      fields.push(...rowErrors);
      continue;
    }
    const value = Object.fromEntries(csvColumns.map((column, index) => [column, record.fields[index].trim()])) as Record<CsvColumn, string>;
    if (!value.domain) error("domain", "the domain is empty.");
    else if (value.domain.length > 200) error("domain", "the domain name is longer than 200 characters.");
    if (!value.question) error("question", "the question is empty.");
    else if (value.question.length > 2000) error("question", "the question is longer than 2000 characters.");
    if (!value.option_a) error("option_a", "option A is empty.");
    if (!value.option_b) error("option_b", "option B is empty.");
    if (!value.option_c && value.option_d) error("option_c", "option C is empty but option D is not; fill C first.");
    const letters = ["option_a", "option_b", "option_c", "option_d"] as const;
    for (const column of letters) {
      if (value[column].length > 500) error(column, `option ${column.slice(-1).toUpperCase()} is longer than 500 characters.`);
    }
    const present = letters.filter((column) => value[column]);
    const seen = new Map<string, string>();
    for (const column of present) {
      const key = value[column].toLowerCase();
      if (seen.has(key)) error(column, `option ${column.slice(-1).toUpperCase()} is the same as option ${seen.get(key)}.`);
      else seen.set(key, column.slice(-1).toUpperCase());
    }
    const correct = correctIndex(value.correct);
    if (correct === undefined) error("correct", `correct must be A, B, C or D (or 1 to 4); found "${value.correct}".`);
    else if (!value[letters[correct]]) error("correct", `the correct answer is option ${"ABCD"[correct]}, which is empty.`);
    if (value.explanation.length > 2000) error("explanation", "the explanation is longer than 2000 characters.");
    if (rowErrors.length) {
      fields.push(...rowErrors);
      continue;
    }
    rows.push({
      domain: value.domain,
      prompt: value.question,
      options: present.map((column) => value[column]),
      correct: correct!,
      explanation: value.explanation,
    });
  }
  if (fields.length) throw invalidFields(fields, "Some rows must be corrected; nothing was imported.");
  if (!rows.length) throw invalidFields([{ field: "csv", message: "The file has a header but no questions." }], "The CSV could not be read.");
  return rows;
}

/**
 * Imports questions into an own certification from CSV; domains named in the file that the
 * certification lacks are created (names match case-insensitively). All or nothing.
 */
export async function importQuestionsCsv(db: Db, workspaceId: string, certificationId: number, { csv }: ImportCsvInput): Promise<ImportResult> {
  const certification = await findOwnCertification(db, workspaceId, certificationId);
  const rows = readQuestionsCsv(csv);
  return db.transaction(async (tx) => {
    const existing = await domainsOf(tx, certification.id);
    const byName = new Map(existing.map((domain) => [domain.name.trim().toLowerCase(), domain.id]));
    let position = existing.reduce((max, domain) => Math.max(max, domain.position + 1), 0);
    const created: string[] = [];
    for (const row of rows) {
      const key = row.domain.toLowerCase();
      if (byName.has(key)) continue;
      if (byName.size >= MAX_DOMAINS) {
        throw new AppError("validation_failed", "Some rows must be corrected; nothing was imported.", {
          fields: [{ field: "csv", message: `A certification has at most ${MAX_DOMAINS} domains; the file names more.` }],
        });
      }
      const [domain] = await tx.insert(domains).values({ certificationId: certification.id, name: row.domain, position }).returning({ id: domains.id });
      position += 1;
      byName.set(key, domain.id);
      created.push(row.domain);
    }
    const values = rows.map((row) => ({
      domainId: byName.get(row.domain.toLowerCase())!,
      prompt: row.prompt,
      options: row.options,
      correctIndex: row.correct,
      explanation: row.explanation,
    }));
    for (let start = 0; start < values.length; start += 500) {
      await tx.insert(questions).values(values.slice(start, start + 500));
    }
    await tx.update(certifications).set({ updatedAt: new Date() }).where(eq(certifications.id, certification.id));
    return { imported: rows.length, created_domains: created };
  });
}
