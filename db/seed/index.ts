import { eq, inArray } from "drizzle-orm";
import { certifications, domains, questions } from "../schema";
import { catalog } from "./catalog";
import type { SeedCertification } from "./catalog/types";
import type { Db } from "@/db/types";

/**
 * Inserts every catalog certification that is not there yet (matched by slug). Existing
 * ones are left as they are, so a restart never rewrites questions of sent tests.
 */
export async function seedCatalog(db: Db, entries: SeedCertification[] = catalog): Promise<number> {
  const slugs = entries.map((entry) => entry.slug);
  const existing = await db
    .select({ slug: certifications.slug })
    .from(certifications)
    .where(inArray(certifications.slug, slugs));
  const present = new Set(existing.map((row) => row.slug));
  let inserted = 0;
  for (const entry of entries) {
    if (present.has(entry.slug)) continue;
    assertValid(entry);
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
        await tx.insert(questions).values(
          domain.questions.map((question) => ({
            domainId: row.id,
            prompt: question.prompt,
            options: [...question.options],
            correctIndex: question.correct,
            explanation: question.explanation,
          })),
        );
      }
      inserted += 1;
    });
  }
  return inserted;
}

function assertValid(entry: SeedCertification): void {
  for (const domain of entry.domains) {
    for (const question of domain.questions) {
      if (question.options.length < 2 || question.correct >= question.options.length) {
        throw new Error(`Seed ${entry.slug}/${domain.name}: invalid question "${question.prompt}"`);
      }
    }
  }
}

export async function catalogCertificationId(db: Db, slug: string): Promise<number | undefined> {
  const [row] = await db.select({ id: certifications.id }).from(certifications).where(eq(certifications.slug, slug));
  return row?.id;
}
