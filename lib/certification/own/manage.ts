import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { certifications, classes, domains, questions, tests, type Certification, type Domain, type Question } from "@/db/schema";
import { invalidFields, notFound } from "@/lib/kernel/errors";
import { countRows, readPage } from "@/lib/kernel/paged";
import type { Page } from "@/lib/kernel/paging";
import { createCertification, getCertification } from "@/lib/certification/catalog/catalog";
import { answerKeyOf, correctOf } from "@/lib/certification/catalog/question-type";
import type { CertificationDetail, DomainView } from "@/lib/certification/catalog/schemas";
import {
  questionRules,
  type DomainNameInput,
  type ListQuestionsQuery,
  type NewCertificationInput,
  type PatchCertificationInput,
  type PatchQuestionInput,
  type QuestionInput,
  type QuestionView,
} from "./schemas";

/**
 * The editor of a workspace's own certifications (/api/v1/certifications, the dashboard calls
 * the same routes). Everything here is scoped to the workspace's own, undeleted ones: a catalog
 * certification, another workspace's, or a domain or question of another certification than
 * the path's is `not_found`. Tests already sent hold frozen copies of their questions, so edits
 * here never change them.
 */

export const MAX_DOMAINS = 50;

/** The own certification, locked for the transaction when `lock` (writes that check names or counts first). */
export async function findOwnCertification(db: Db, workspaceId: string, certificationId: number, lock = false): Promise<Certification> {
  const query = db
    .select()
    .from(certifications)
    .where(and(eq(certifications.id, certificationId), eq(certifications.workspaceId, workspaceId), isNull(certifications.deletedAt)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Certification");
  return row;
}

async function findOwnDomain(db: Db, workspaceId: string, certificationId: number, domainId: number): Promise<Domain> {
  await findOwnCertification(db, workspaceId, certificationId);
  const [row] = await db.select().from(domains).where(and(eq(domains.id, domainId), eq(domains.certificationId, certificationId)));
  if (!row) throw notFound("Domain");
  return row;
}

async function findOwnQuestion(db: Db, workspaceId: string, certificationId: number, questionId: number): Promise<Question> {
  await findOwnCertification(db, workspaceId, certificationId);
  const [row] = await db
    .select({ question: questions })
    .from(questions)
    .innerJoin(domains, eq(domains.id, questions.domainId))
    .where(and(eq(questions.id, questionId), eq(domains.certificationId, certificationId)));
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

/** One of the workspace's own certifications, with its domains (the dashboard's editor page). */
export async function getOwnCertification(db: Db, workspaceId: string, certificationId: number): Promise<CertificationDetail> {
  await findOwnCertification(db, workspaceId, certificationId);
  return getCertification(db, workspaceId, certificationId);
}

export const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export async function domainsOf(db: Db, certificationId: number): Promise<Domain[]> {
  return db.select().from(domains).where(eq(domains.certificationId, certificationId)).orderBy(asc(domains.position), asc(domains.id));
}

export async function touch(db: Db, certificationId: number): Promise<void> {
  await db.update(certifications).set({ updatedAt: new Date() }).where(eq(certifications.id, certificationId));
}

/** Creates an own certification with the names of its first domains (none is fine here; the dashboard asks for one); a name given twice is a field error. */
export async function createOwnCertification(db: Db, workspaceId: string, input: NewCertificationInput): Promise<CertificationDetail> {
  const fields = input.domains.flatMap((domain, index) =>
    input.domains.findIndex((other) => sameName(other, domain)) < index ? [{ field: `domains.${index}`, message: `"${domain}" appears twice.` }] : [],
  );
  if (fields.length) throw invalidFields(fields);
  return createCertification(db, workspaceId, { ...input, domains: input.domains.map((domain) => ({ name: domain, questions: [] })) });
}

/** Name, vendor, code, description: those sent change. */
export async function updateCertification(db: Db, workspaceId: string, certificationId: number, input: PatchCertificationInput): Promise<CertificationDetail> {
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const [updated] = await db
    .update(certifications)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(certifications.id, certificationId), eq(certifications.workspaceId, workspaceId), isNull(certifications.deletedAt)))
    .returning({ id: certifications.id });
  if (!updated) throw notFound("Certification");
  return getCertification(db, workspaceId, certificationId);
}

/**
 * Deletes an own certification. Unused, it goes with its domains and questions. Used by a test
 * or a class, it is retired instead (`deleted_at`): gone from the catalog and every route here,
 * no new tests or classes, while the tests (frozen copies), their results and the classes stay.
 */
export async function deleteCertification(db: Db, workspaceId: string, certificationId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const certification = await findOwnCertification(tx, workspaceId, certificationId, true);
    const [used] = rowsOf<{ used: boolean }>(
      await tx.execute(
        sql`select exists (select 1 from ${tests} where ${tests.certificationId} = ${certification.id})
              or exists (select 1 from ${classes} where ${classes.certificationId} = ${certification.id}) as used`,
      ),
    );
    if (used?.used) await tx.update(certifications).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(certifications.id, certification.id));
    else await tx.delete(certifications).where(eq(certifications.id, certification.id));
  });
}

/** Adds a domain at the end; a name the certification already has (any case) is a field error, as is a 51st domain. */
export async function addDomain(db: Db, workspaceId: string, certificationId: number, { name }: DomainNameInput): Promise<DomainView> {
  return db.transaction(async (tx) => {
    // Locked: two adds of one name at once cannot both pass the check.
    const certification = await findOwnCertification(tx, workspaceId, certificationId, true);
    const existing = await domainsOf(tx, certification.id);
    if (existing.some((domain) => sameName(domain.name, name))) {
      throw invalidFields([{ field: "name", message: `This certification already has a domain "${name}".` }]);
    }
    if (existing.length >= MAX_DOMAINS) throw invalidFields([{ field: "name", message: `A certification has at most ${MAX_DOMAINS} domains.` }]);
    const position = existing.reduce((max, domain) => Math.max(max, domain.position + 1), 0);
    const [row] = await tx.insert(domains).values({ certificationId: certification.id, name, position }).returning();
    await touch(tx, certification.id);
    return { id: row.id, name: row.name, questions: 0 };
  });
}

/** Renames a domain of an own certification. Tests already sent keep the old (frozen) name. */
export async function renameDomain(db: Db, workspaceId: string, certificationId: number, domainId: number, { name }: DomainNameInput): Promise<DomainView> {
  return db.transaction(async (tx) => {
    await findOwnCertification(tx, workspaceId, certificationId, true);
    const domain = await findOwnDomain(tx, workspaceId, certificationId, domainId);
    const siblings = await domainsOf(tx, certificationId);
    if (siblings.some((other) => other.id !== domain.id && sameName(other.name, name))) {
      throw invalidFields([{ field: "name", message: `This certification already has a domain "${name}".` }]);
    }
    await tx.update(domains).set({ name }).where(eq(domains.id, domain.id));
    await touch(tx, certificationId);
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(questions).where(eq(questions.domainId, domain.id));
    return { id: domain.id, name, questions: count };
  });
}

/** A page of an own certification's questions (optionally one domain's), in domain order then creation order. */
export async function listQuestions(db: Db, workspaceId: string, certificationId: number, query: ListQuestionsQuery): Promise<Page<QuestionView>> {
  const certification = await findOwnCertification(db, workspaceId, certificationId);
  const own = db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, certification.id));
  if (query.domain_id !== undefined) await findOwnDomain(db, workspaceId, certificationId, query.domain_id);
  const where = query.domain_id !== undefined ? eq(questions.domainId, query.domain_id) : inArray(questions.domainId, own);
  return readPage(
    query,
    db
      .select({ question: questions })
      .from(questions)
      .innerJoin(domains, eq(domains.id, questions.domainId))
      .where(where)
      .orderBy(asc(domains.position), asc(domains.id), asc(questions.id)),
    countRows(db, questions, where),
    ({ question }) => toQuestionView(question),
  );
}

export async function addQuestion(db: Db, workspaceId: string, certificationId: number, domainId: number, input: QuestionInput): Promise<QuestionView> {
  return db.transaction(async (tx) => {
    // Locked: a delete of the certification at the same moment cannot remove the domain between the check and the insert.
    await findOwnCertification(tx, workspaceId, certificationId, true);
    const domain = await findOwnDomain(tx, workspaceId, certificationId, domainId);
    const [row] = await tx
      .insert(questions)
      .values({ domainId: domain.id, prompt: input.prompt, options: input.options, ...answerKeyOf(input.type ?? "single", input.correct), explanation: input.explanation })
      .returning();
    await touch(tx, certificationId);
    return toQuestionView(row);
  });
}

/**
 * Changes a question: the fields sent replace the stored ones and the result is checked as a
 * whole (as a new question would be; errors name the body's fields); `domain_id` moves it to
 * another domain of the same certification.
 */
export async function updateQuestion(db: Db, workspaceId: string, certificationId: number, questionId: number, patch: PatchQuestionInput): Promise<QuestionView> {
  return db.transaction(async (tx) => {
    // Locked as addQuestion: a delete of the certification cannot remove the target domain under the move.
    await findOwnCertification(tx, workspaceId, certificationId, true);
    const question = await findOwnQuestion(tx, workspaceId, certificationId, questionId);
    // A null would fall back to the stored value below and answer 200 while changing nothing.
    const nulls = (["prompt", "options", "type", "correct", "explanation"] as const).filter((field) => patch[field] === null);
    if (nulls.length) throw invalidFields(nulls.map((field) => ({ field, message: "Send a value, or leave the field out to keep the stored one." })));
    const stored = toQuestionView(question);
    const merged = questionRules.safeParse({
      prompt: patch.prompt ?? stored.prompt,
      options: patch.options ?? stored.options,
      type: patch.type ?? stored.type,
      correct: patch.correct ?? stored.correct,
      explanation: patch.explanation ?? stored.explanation,
    });
    if (!merged.success) {
      throw invalidFields(merged.error.issues.map((issue) => ({ field: issue.path.join(".") || "(body)", message: issue.message })));
    }
    const domainId = patch.domain_id ?? question.domainId;
    if (domainId !== question.domainId) {
      const [target] = await tx.select({ id: domains.id }).from(domains).where(and(eq(domains.id, domainId), eq(domains.certificationId, certificationId)));
      if (!target) throw invalidFields([{ field: "domain_id", message: "Not a domain of this certification." }]);
    }
    const input = merged.data;
    const [row] = await tx
      .update(questions)
      .set({ domainId, prompt: input.prompt, options: input.options, ...answerKeyOf(input.type, input.correct), explanation: input.explanation })
      .where(eq(questions.id, question.id))
      .returning();
    if (!row) throw notFound("Question");
    await touch(tx, certificationId);
    return toQuestionView(row);
  });
}

export async function deleteQuestion(db: Db, workspaceId: string, certificationId: number, questionId: number): Promise<void> {
  const question = await findOwnQuestion(db, workspaceId, certificationId, questionId);
  await db.delete(questions).where(eq(questions.id, question.id));
  await touch(db, certificationId);
}
