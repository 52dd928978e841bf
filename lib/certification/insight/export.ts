import type { Db } from "@/db";
import type { RecipientView, TestView } from "@/lib/certification/tests/schemas";
import type { AttemptIntegrity } from "@/db/schema";
import { INTEGRITY_CSV_COLUMNS, integrityCsvCells, integrityRecords } from "@/lib/certification/integrity/summary";
import { domainsOf, findTest, readRecipients } from "@/lib/certification/tests/tests";

type Cell = string | number | null | undefined;

/** Characters that make a spreadsheet read a text cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled.
 * Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a
 * leading apostrophe; numbers are written as they are.
 */
export function csvField(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: Cell[]): string {
  return cells.map(csvField).join(",");
}

/** The filename offered for a test's results. */
export function resultsFilename(code: string): string {
  return `test-${code.replace(/[^A-Za-z0-9_-]/g, "")}-results.csv`;
}

/**
 * A test's results as CSV: one row per recipient (in the order of the test view) with
 * email, name, status, sent_at, started_at, completed_at, percent, correct, questions,
 * passed (true or false against the pass mark; empty without one, or before completion), then
 * one percent column per domain of the test (named "<domain> %"), then certificate_url (the
 * certificate's verification page; empty without one). Result cells are empty
 * until the recipient has completed. Then the integrity record's columns (INTEGRITY_CSV_COLUMNS:
 * browsers, hidden_count, hidden_seconds, copy_attempts, fullscreen_exits, address_changed),
 * empty for a recipient without one (`integrity`, by recipient id). Last, email_delivery: the
 * latest e-mail's status (`not_sent`: the link was handed over, not e-mailed, and sent_at is
 * empty), appended after the rest so a sheet that reads columns by position keeps working.
 * Lines end with CRLF.
 */
export function testResultsCsv(test: Pick<TestView, "domains" | "recipients">, integrity: ReadonlyMap<number, AttemptIntegrity> = new Map()): string {
  return [resultsCsvHeader(test.domains), ...test.recipients.map((recipient) => resultsCsvLine(test.domains, recipient, integrity.get(recipient.id)))].join("");
}

type Domains = TestView["domains"];

/** The header line of a test's results (testResultsCsv), CRLF included. */
export function resultsCsvHeader(domains: Domains): string {
  return (
    csvRow([
      "email",
      "name",
      "status",
      "sent_at",
      "started_at",
      "completed_at",
      "percent",
      "correct",
      "questions",
      "passed",
      ...domains.map((domain) => `${domain.name} %`),
      "certificate_url",
      ...INTEGRITY_CSV_COLUMNS,
      "email_delivery",
    ]) + "\r\n"
  );
}

/** One recipient's line of a test's results (testResultsCsv), CRLF included. */
export function resultsCsvLine(domains: Domains, recipient: RecipientView, integrity: AttemptIntegrity | undefined): string {
  const result = recipient.result;
  const byDomain = new Map(result?.domains.map((domain) => [domain.id, domain.percent]) ?? []);
  return (
    csvRow([
      recipient.email,
      recipient.name,
      recipient.status,
      recipient.sent_at,
      recipient.started_at,
      recipient.completed_at,
      result?.percent,
      result?.correct,
      result?.questions,
      result && result.passed !== null ? String(result.passed) : null,
      ...domains.map((domain) => byDomain.get(domain.id)),
      result?.certificate_url,
      ...integrityCsvCells(integrity),
      recipient.email_delivery.status,
    ]) + "\r\n"
  );
}

/** Recipients read (and held) per step of the stream. */
export const CSV_RECIPIENTS_PER_READ = 500;

/**
 * A test's results CSV (testResultsCsv's bytes) as a stream: the test is looked up first (an
 * unknown code is a 404 before anything is sent), then its recipients are read in id order,
 * CSV_RECIPIENTS_PER_READ at a time (keyset: those after the last id sent), each read only when
 * the client has taken the previous one. Memory stays at one read's worth whatever the size
 * of the test. Each read is its own snapshot: a recipient who completes while the file is
 * being sent appears as they were when their part was read.
 */
export async function testResultsCsvStream(db: Db, workspaceId: string, code: string): Promise<{ code: string; stream: ReadableStream<Uint8Array> }> {
  const test = await findTest(db, workspaceId, code);
  const domains = (await domainsOf(db, [test.id])).get(test.id) ?? [];
  const encoder = new TextEncoder();
  let afterId: number | undefined;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(resultsCsvHeader(domains)));
          return;
        }
        const people = await readRecipients(db, test.id, { afterId: afterId ?? 0, limit: CSV_RECIPIENTS_PER_READ });
        if (people.length === 0) return controller.close();
        const integrity = await integrityRecords(db, people.map((recipient) => recipient.id));
        afterId = people[people.length - 1].id;
        controller.enqueue(encoder.encode(people.map((recipient) => resultsCsvLine(domains, recipient, integrity.get(recipient.id))).join("")));
      },
    },
    { highWaterMark: 1 },
  );
  return { code: test.code, stream };
}
