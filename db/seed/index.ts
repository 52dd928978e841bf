import { and, eq, inArray } from "drizzle-orm";
import { certifications, domains, questions } from "../schema";
import { catalog } from "./catalog";
import type { SeedCertification, SeedQuestion } from "./catalog/types";
import type { Db } from "@/db/types";

/**
 * Inserts every catalog certification that is not there yet (matched by slug). An existing
 * one gains the catalog questions its domains lack (matched by prompt within the domain of
 * the same name), so a database seeded before new items were written (the multiple-response
 * ones of issue 23) gets them; nothing present is ever rewritten or deleted, and sent tests
 * hold frozen copies anyway. Returns the number of certifications inserted.
 */
export async function seedCatalog(db: Db, entries: SeedCertification[] = catalog): Promise<number> {
  const slugs = entries.map((entry) => entry.slug);
  const existing = await db
    .select({ id: certifications.id, slug: certifications.slug })
    .from(certifications)
    .where(inArray(certifications.slug, slugs));
  const present = new Map(existing.map((row) => [row.slug, row.id]));
  let inserted = 0;
  for (const entry of entries) {
    assertValid(entry);
    const id = present.get(entry.slug);
    if (id !== undefined) {
      await insertMissingQuestions(db, id, entry);
      continue;
    }
    await db.transaction(async (tx) => {
      const [certification] = await tx
        .insert(certifications)
        .values({ slug: entry.slug, vendor: entry.vendor, code: entry.code, name: entry.name, description: entry.description })
        .onConflictDoNothing()
        .returning({ id: certifications.id });
      if (!certification) return;
      for (const [position, domain] of entry.domains.entries()) {
        const [row] = await tx
          .insert(domains)
          .values({ certificationId: certification.id, name: domain.name, position })
          .returning({ id: domains.id });
        await tx.insert(questions).values(domain.questions.map((question) => questionRow(row.id, question)));
      }
      inserted += 1;
    });
  }
  return inserted;
}

/** The stored row of a catalog question: a multiple-response one keeps its set, ascending, with the first as correct_index. */
function questionRow(domainId: number, question: SeedQuestion) {
  const set = question.type === "multiple" ? [...question.correct].sort((a, b) => a - b) : null;
  return {
    domainId,
    prompt: question.prompt,
    options: [...question.options],
    type: question.type ?? "single",
    correctIndex: set ? set[0] : (question.correct as number),
    correctIndexes: set,
    explanation: question.explanation,
  };
}

/** The catalog questions an existing certification's domains lack (by prompt), inserted; a domain it lacks is left alone. */
async function insertMissingQuestions(db: Db, certificationId: number, entry: SeedCertification): Promise<void> {
  const rows = await db
    .select({ domainId: domains.id, name: domains.name, prompt: questions.prompt })
    .from(domains)
    .leftJoin(questions, eq(questions.domainId, domains.id))
    .where(and(eq(domains.certificationId, certificationId)));
  const domainIds = new Map(rows.map((row) => [row.name, row.domainId]));
  const prompts = new Set(rows.map((row) => `${row.domainId}\n${row.prompt}`));
  const missing = entry.domains.flatMap((domain) => {
    const domainId = domainIds.get(domain.name);
    if (domainId === undefined) return [];
    return domain.questions.filter((question) => !prompts.has(`${domainId}\n${question.prompt}`)).map((question) => questionRow(domainId, question));
  });
  if (missing.length) await db.insert(questions).values(missing);
}

function assertValid(entry: SeedCertification): void {
  for (const domain of entry.domains) {
    for (const question of domain.questions) {
      if (!validQuestion(question)) throw new Error(`Seed ${entry.slug}/${domain.name}: invalid question "${question.prompt}"`);
    }
  }
}

/** Single: one option in range. Multiple: two or more distinct options in range, fewer than all. */
function validQuestion(question: SeedQuestion): boolean {
  const count = question.options.length;
  if (count < 2) return false;
  if (question.type !== "multiple") return Number.isInteger(question.correct) && question.correct >= 0 && question.correct < count;
  const set = question.correct;
  return set.length >= 2 && set.length < count && new Set(set).size === set.length && set.every((index) => Number.isInteger(index) && index >= 0 && index < count);
}

export async function catalogCertificationId(db: Db, slug: string): Promise<number | undefined> {
  const [row] = await db.select({ id: certifications.id }).from(certifications).where(eq(certifications.slug, slug));
  return row?.id;
}
