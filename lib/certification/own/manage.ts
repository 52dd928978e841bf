import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { certifications, domains, questions, type Certification, type Domain, type Question } from "@/db/schema";
import { AppError, invalidFields, notFound, type FieldError } from "@/lib/kernel/errors";
import { createCertification, getCertification } from "@/lib/certification/catalog/catalog";
import { readQuestionsCsv } from "./questions-csv";
import { answerKeyOf, correctOf } from "@/lib/certification/catalog/question-type";
import {
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
    type: question.type,
    correct: correctOf(question),
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
    .values({ domainId: domain.id, prompt: input.prompt, options: input.options, ...answerKeyOf(input.type ?? "single", input.correct), explanation: input.explanation })
    .returning();
  await touch(db, domain.certificationId);
  return toQuestionView(row);
}

/** Replaces a question's text, options, type, right option(s) and explanation (its domain stays). */
export async function updateQuestion(db: Db, workspaceId: string, questionId: number, input: QuestionInput): Promise<QuestionView> {
  const question = await findOwnQuestion(db, workspaceId, questionId);
  const [row] = await db
    .update(questions)
    .set({ prompt: input.prompt, options: input.options, ...answerKeyOf(input.type ?? "single", input.correct), explanation: input.explanation })
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
      ...answerKeyOf(row.type, row.correct),
      explanation: row.explanation,
    }));
    for (let start = 0; start < values.length; start += 500) {
      await tx.insert(questions).values(values.slice(start, start + 500));
    }
    await tx.update(certifications).set({ updatedAt: new Date() }).where(eq(certifications.id, certification.id));
    return { imported: rows.length, created_domains: created };
  });
}
