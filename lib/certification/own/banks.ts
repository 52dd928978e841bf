import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { domains, questions } from "@/db/schema";
import { invalidFields } from "@/lib/kernel/errors";
import { answerKeyOf, correctOf } from "@/lib/certification/catalog/question-type";
import { bankFileExtensions, bankMediaTypes, FormatSyntaxError, readBank, writeBank, type BankFormat, type BankQuestion } from "./formats/bank";
import { domainsOf, findOwnCertification, MAX_DOMAINS, sameName, touch } from "./manage";
import type { ImportQuery, ImportReport } from "./schemas";

/**
 * Question banks in and out of an own certification (docs/question-banks.md): a file of one of
 * the four formats is read (./formats), checked question by question against the editor's
 * rules, and what can be delivered is written in one transaction; the rest is reported, item by
 * item, with its line and the reason. A file that cannot be read at all writes nothing.
 */

/** Where questions go that the file puts in no category, when the import names no domain. */
export const DEFAULT_DOMAIN = "General";

const formatNames: Record<BankFormat, string> = { csv: "CSV", gift: "GIFT", moodle_xml: "Moodle XML", aiken: "Aiken" };

/** The file read (in slices: a large file does not stall the server's other requests), or a 400 naming the line that cannot be read. */
async function readOrRefuse(format: BankFormat, text: string) {
  try {
    return await readBank(format, text);
  } catch (error) {
    if (error instanceof FormatSyntaxError) {
      // The message names the line (error.line holds it too).
      throw invalidFields([{ field: "file", message: error.message }], `The file could not be read as ${formatNames[format]}; nothing was imported.`);
    }
    throw error;
  }
}

export async function importBank(db: Db, workspaceId: string, certificationId: number, text: string, query: ImportQuery): Promise<ImportReport> {
  await findOwnCertification(db, workspaceId, certificationId);
  const bank = await readOrRefuse(query.format, text);
  return db.transaction(async (tx) => {
    // Locked: a concurrent import or domain add cannot make the same domain twice.
    const certification = await findOwnCertification(tx, workspaceId, certificationId, true);
    const existing = await domainsOf(tx, certification.id);
    let fallback = DEFAULT_DOMAIN;
    if (query.domain_id !== undefined) {
      const chosen = existing.find((domain) => domain.id === query.domain_id);
      if (!chosen) throw invalidFields([{ field: "domain_id", message: "Not a domain of this certification." }]);
      fallback = chosen.name;
    }
    type Target = { id: number | null; name: string; created: boolean; questions: BankQuestion[] };
    const targets: Target[] = existing.map((domain) => ({ id: domain.id, name: domain.name, created: false, questions: [] }));
    const skipped: ImportReport["skipped"] = bank.skipped.map((item) => ({ line: item.line, name: item.name ?? null, reason: item.reason }));
    for (const item of bank.questions) {
      const name = item.question.domain ?? fallback;
      let target = targets.find((domain) => sameName(domain.name, name));
      if (!target) {
        if (targets.length >= MAX_DOMAINS) {
          skipped.push({ line: item.line, name: item.name ?? null, reason: `Its category "${name}" would be a new domain, and a certification has at most ${MAX_DOMAINS}.` });
          continue;
        }
        target = { id: null, name, created: true, questions: [] };
        targets.push(target);
      }
      target.questions.push(item.question);
    }
    skipped.sort((a, b) => a.line - b.line);
    const used = targets.filter((domain) => domain.questions.length > 0);
    if (!query.dry_run) {
      let position = existing.reduce((max, domain) => Math.max(max, domain.position + 1), 0);
      for (const domain of used.filter((target) => target.created)) {
        const [row] = await tx.insert(domains).values({ certificationId: certification.id, name: domain.name, position: position++ }).returning({ id: domains.id });
        domain.id = row.id;
      }
      const values = used.flatMap((domain) =>
        domain.questions.map((question) => ({
          domainId: domain.id!,
          prompt: question.prompt,
          options: question.options,
          ...answerKeyOf(question.type, question.correct),
          explanation: question.explanation,
        })),
      );
      for (let start = 0; start < values.length; start += 500) await tx.insert(questions).values(values.slice(start, start + 500));
      if (values.length) await touch(tx, certification.id);
    }
    return {
      format: query.format,
      dry_run: query.dry_run,
      imported: used.reduce((sum, domain) => sum + domain.questions.length, 0),
      domains: used.map((domain) => ({ id: domain.id, name: domain.name, created: domain.created, questions: domain.questions.length })),
      skipped,
    };
  });
}

/** An own certification's questions as a file of the format, named after it, with how many questions the format could not hold. */
export async function exportBank(db: Db, workspaceId: string, certificationId: number, format: BankFormat) {
  const certification = await findOwnCertification(db, workspaceId, certificationId);
  const rows = await db
    .select({ domain: domains.name, question: questions })
    .from(questions)
    .innerJoin(domains, eq(domains.id, questions.domainId))
    .where(eq(domains.certificationId, certification.id))
    .orderBy(asc(domains.position), asc(domains.id), asc(questions.id));
  const bank: BankQuestion[] = rows.map(({ domain, question }) => ({
    domain,
    prompt: question.prompt,
    options: question.options,
    type: question.type,
    correct: correctOf(question),
    explanation: question.explanation,
  }));
  // An Aiken file of a bank with only multiple-response questions is empty: the header says why.
  const written = writeBank(format, bank);
  const base = certification.name.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").toLowerCase() || "questions";
  return { text: written.text, mediaType: bankMediaTypes[format], fileName: `${base}.${format === "gift" ? "gift.txt" : bankFileExtensions[format]}`, leftOut: written.left_out.length };
}
