import { and, asc, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import { answerKeyOf } from "./question-type";
import type { Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { certifications, domains, questions } from "@/db/schema";
import { type Page } from "@/lib/kernel/paging";
import { invalidFields, notFound } from "@/lib/kernel/errors";
import type { CertificationDetail, CertificationSummary, CreateCertificationInput, DomainView, ListCertificationsQuery } from "./schemas";

/**
 * Whether the trainer area may show the answer key (which option is right, the explanation)
 * of questions drawn from this certification: only for the workspace's own certifications.
 * Anyone can sign up as a trainer, so the shared catalog's key is never shown to one.
 */
export async function answerKeyShown(db: Db, workspaceId: string, certificationId: number): Promise<boolean> {
  const [row] = await db.select({ workspaceId: certifications.workspaceId }).from(certifications).where(eq(certifications.id, certificationId));
  return row?.workspaceId === workspaceId;
}

/**
 * Inside the transaction that makes a test or a class of it: the certification is still there
 * (not deleted or retired meanwhile; a delete waits for this transaction, or this one for the
 * delete and then finds it gone), else the same 422 as for one that never was.
 */
export async function holdCertification(tx: Db, workspaceId: string, certificationId: number): Promise<void> {
  const [held] = await tx
    .select({ id: certifications.id })
    .from(certifications)
    .where(and(eq(certifications.id, certificationId), visibleTo(workspaceId)))
    .for("key share");
  if (!held) throw invalidFields([{ field: "certification_id", message: "No such certification in your catalog." }]);
}

/** The shared catalog plus the workspace's own certifications; never another workspace's, nor a deleted (retired) one. */
export function visibleTo(workspaceId: string): SQL {
  return and(or(isNull(certifications.workspaceId), eq(certifications.workspaceId, workspaceId)), isNull(certifications.deletedAt))!;
}

// Correlated counts name the outer table explicitly: Drizzle renders a lone column unqualified.
const domainCount = sql<number>`(select count(*)::int from ${domains} d where d.certification_id = "certifications"."id")`;
const questionCount = sql<number>`(select count(*)::int from ${questions} q join ${domains} d on d.id = q.domain_id where d.certification_id = "certifications"."id")`;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listCertifications(
  db: Db,
  workspaceId: string,
  query: ListCertificationsQuery,
): Promise<Page<CertificationSummary>> {
  const filters: SQL[] = [visibleTo(workspaceId)];
  if (query.vendor) filters.push(sql`lower(${certifications.vendor}) = lower(${query.vendor})`);
  if (query.search) {
    for (const word of query.search.split(/\s+/).filter(Boolean).slice(0, 8)) {
      const pattern = `%${escapeLike(word)}%`;
      filters.push(
        or(
          ilike(certifications.name, pattern),
          ilike(certifications.code, pattern),
          ilike(certifications.vendor, pattern),
          ilike(certifications.description, pattern),
        )!,
      );
    }
  }
  const where = and(...filters);
  return readPage(
    query,
    db
      .select({
        id: certifications.id,
        workspaceId: certifications.workspaceId,
        vendor: certifications.vendor,
        code: certifications.code,
        name: certifications.name,
        description: certifications.description,
        domains: domainCount,
        questions: questionCount,
      })
      .from(certifications)
      .where(where)
      .orderBy(asc(certifications.vendor), asc(certifications.name), asc(certifications.id)),
    countRows(db, certifications, where),
    ({ workspaceId: owner, ...row }) => ({ ...row, own: owner === workspaceId }),
  );
}

/**
 * One certification with its domains and their question counts, in one statement prepared
 * once per database: the hot read of the catalog API.
 */
function buildDetailQuery(db: Db) {
  return db
    .select({
      id: certifications.id,
      workspaceId: certifications.workspaceId,
      vendor: certifications.vendor,
      code: certifications.code,
      name: certifications.name,
      description: certifications.description,
      domains: sql<DomainView[]>`coalesce((
        select json_agg(json_build_object('id', d.id, 'name', d.name, 'questions',
          (select count(*)::int from ${questions} q where q.domain_id = d.id)) order by d.position, d.id)
        from ${domains} d where d.certification_id = "certifications"."id"), '[]'::json)`,
    })
    .from(certifications)
    .where(
      and(
        eq(certifications.id, sql.placeholder("id")),
        or(isNull(certifications.workspaceId), eq(certifications.workspaceId, sql.placeholder("workspaceId"))),
        isNull(certifications.deletedAt),
      ),
    )
    .prepare("certification_detail");
}

const detailQueries = new WeakMap<Db, ReturnType<typeof buildDetailQuery>>();

async function findCertificationDetail(db: Db, workspaceId: string, certificationId: number) {
  let query = detailQueries.get(db);
  if (!query) detailQueries.set(db, (query = buildDetailQuery(db)));
  const [row] = await query.execute({ id: certificationId, workspaceId });
  if (!row) throw notFound("Certification");
  return row;
}

export async function listDomains(db: Db, workspaceId: string, certificationId: number): Promise<DomainView[]> {
  return (await findCertificationDetail(db, workspaceId, certificationId)).domains;
}

export async function getCertification(db: Db, workspaceId: string, certificationId: number): Promise<CertificationDetail> {
  const certification = await findCertificationDetail(db, workspaceId, certificationId);
  return {
    id: certification.id,
    vendor: certification.vendor,
    code: certification.code,
    name: certification.name,
    description: certification.description,
    own: certification.workspaceId === workspaceId,
    questions: certification.domains.reduce((sum, domain) => sum + domain.questions, 0),
    domains: certification.domains,
  };
}

/** Creates one of the workspace's own certifications, visible to it alone. */
export async function createCertification(
  db: Db,
  workspaceId: string,
  input: CreateCertificationInput,
): Promise<CertificationDetail> {
  const id = await db.transaction(async (tx) => {
    const [certification] = await tx
      .insert(certifications)
      .values({ workspaceId, vendor: input.vendor, code: input.code, name: input.name, description: input.description })
      .returning({ id: certifications.id });
    for (const [position, domain] of input.domains.entries()) {
      const [row] = await tx
        .insert(domains)
        .values({ certificationId: certification.id, name: domain.name, position })
        .returning({ id: domains.id });
      if (domain.questions.length) {
        await tx.insert(questions).values(
          domain.questions.map((question) => ({
            domainId: row.id,
            prompt: question.prompt,
            options: question.options,
            ...answerKeyOf(question.type, question.correct),
            explanation: question.explanation,
          })),
        );
      }
    }
    return certification.id;
  });
  return getCertification(db, workspaceId, id);
}
