import type { TestView } from "@/lib/certification/tests/schemas";
import type { AttemptIntegrity } from "@/db/schema";
import { INTEGRITY_CSV_COLUMNS, integrityCsvCells } from "@/lib/certification/integrity/summary";

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
  const header = [
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
    ...test.domains.map((domain) => `${domain.name} %`),
    "certificate_url",
    ...INTEGRITY_CSV_COLUMNS,
    "email_delivery",
  ];
  const rows = test.recipients.map((recipient) => {
    const result = recipient.result;
    const byDomain = new Map(result?.domains.map((domain) => [domain.id, domain.percent]) ?? []);
    return [
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
      ...test.domains.map((domain) => byDomain.get(domain.id)),
      result?.certificate_url,
      ...integrityCsvCells(integrity.get(recipient.id)),
      recipient.email_delivery.status,
    ];
  });
  return [header, ...rows].map(csvRow).join("\r\n") + "\r\n";
}
