import { asc, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { questions } from "@/db/schema";
import { getCertification } from "./catalog";
import type { CertificationDetail, DomainView } from "./schemas";

/** How many questions of each domain a preview shows. */
export const SAMPLE_QUESTIONS_PER_DOMAIN = 3;

/** A question as a preview shows it: its text and options, never which option is right nor its explanation. */
export type SampleQuestion = { id: number; prompt: string; options: string[]; type: "single" | "multiple"; choose: number };

export type CertificationPreview = Omit<CertificationDetail, "domains"> & { domains: (DomainView & { samples: SampleQuestion[] })[] };

/**
 * A certification as a trainer previews it before testing with it: its domains, their
 * question counts and a few sample questions of each (the first ones, so the preview is the
 * same on every visit). Anyone can open a trainer area, so the catalog's answer key stays out:
 * only the prompt, the options and the type (with how many to choose) are read from the database, never `correct_index`,
 * `correct_indexes` or `explanation` — for the workspace's own certifications too (their editor shows those).
 */
export async function certificationPreview(db: Db, workspaceId: string, certificationId: number): Promise<CertificationPreview> {
  // Visible to the workspace (the catalog or its own) or a 404, as in the API.
  const certification = await getCertification(db, workspaceId, certificationId);
  const domainIds = certification.domains.map((domain) => domain.id);
  const ranked = db
    .select({
      id: questions.id,
      domainId: questions.domainId,
      prompt: questions.prompt,
      options: questions.options,
      type: questions.type,
      choose: sql<number>`coalesce(jsonb_array_length(${questions.correctIndexes}), 1)::int`.as("choose"),
      rank: sql<number>`row_number() over (partition by ${questions.domainId} order by ${questions.id})`.as("rank"),
    })
    .from(questions)
    .where(inArray(questions.domainId, domainIds))
    .as("ranked");
  const rows = !domainIds.length ? [] : await db
    .select({ id: ranked.id, domainId: ranked.domainId, prompt: ranked.prompt, options: ranked.options, type: ranked.type, choose: ranked.choose })
    .from(ranked)
    .where(sql`${ranked.rank} <= ${SAMPLE_QUESTIONS_PER_DOMAIN}`)
    .orderBy(asc(ranked.domainId), asc(ranked.id));
  return {
    ...certification,
    domains: certification.domains.map((domain) => ({
      ...domain,
      samples: rows.filter((row) => row.domainId === domain.id).map(({ id, prompt, options, type, choose }) => ({ id, prompt, options, type, choose: Number(choose) })),
    })),
  };
}
