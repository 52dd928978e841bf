import { inArray, type SQLWrapper } from "drizzle-orm";
import type { Db } from "@/db";
import { attemptIntegrity, type AttemptIntegrity } from "@/db/schema";
import type { IntegrityView } from "./schemas";

/**
 * The trainer's reading of an attempt's integrity record (the answer sheet's `integrity`, the
 * results list's flag, the CSV's columns), from the row the taking path writes
 * (lib/certification/taking/integrity.ts). One definition of "something was seen" for all three.
 */

/** Start and submit came from different addresses; false while either is unknown. */
export function addressChanged(row: AttemptIntegrity): boolean {
  return row.startAddress !== null && row.submitAddress !== null && row.startAddress !== row.submitAddress;
}

/** Something was seen: more than one browser, the address changed, or the page was hidden, copied from or left full screen. */
export function integrityFlagged(row: AttemptIntegrity | undefined): boolean {
  if (!row) return false;
  return row.browsers.length > 1 || addressChanged(row) || row.hiddenCount > 0 || row.copyCount > 0 || row.fullscreenExits > 0;
}

/** Whole seconds hidden (rounded down: a blink of 400 ms is a hidden page of 0 s, still counted in `count`). */
const hiddenSeconds = (row: AttemptIntegrity) => Math.floor(row.hiddenMs / 1000);

/** The answer sheet's `integrity`: null without a record. */
export function integrityView(row: AttemptIntegrity | undefined): IntegrityView | null {
  if (!row) return null;
  const seen = (address: string | null, browser: string | null) => (address === null && browser === null ? null : { address, browser });
  return {
    start: seen(row.startAddress, row.startBrowser),
    submit: seen(row.submitAddress, row.submitBrowser),
    browsers: row.browsers.length,
    address_changed: addressChanged(row),
    hidden: { count: row.hiddenCount, seconds: hiddenSeconds(row) },
    copy_attempts: row.copyCount,
    fullscreen_exits: row.fullscreenExits,
    flagged: integrityFlagged(row),
  };
}

/** The CSV's integrity columns, in order (after the result's). */
export const INTEGRITY_CSV_COLUMNS = ["browsers", "hidden_count", "hidden_seconds", "copy_attempts", "fullscreen_exits", "address_changed"] as const;

/** One recipient's integrity cells: empty without a record. */
export function integrityCsvCells(row: AttemptIntegrity | undefined): (number | string | null)[] {
  if (!row) return INTEGRITY_CSV_COLUMNS.map(() => null);
  return [row.browsers.length, row.hiddenCount, hiddenSeconds(row), row.copyCount, row.fullscreenExits, String(addressChanged(row))];
}

/** The integrity rows of the given recipients (a list, or a subquery of ids), by recipient id (one query over the primary key). */
export async function integrityRecords(db: Db, recipientIds: number[] | SQLWrapper): Promise<Map<number, AttemptIntegrity>> {
  if (Array.isArray(recipientIds) && recipientIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(attemptIntegrity)
    .where(inArray(attemptIntegrity.recipientId, Array.isArray(recipientIds) ? [...new Set(recipientIds)] : recipientIds));
  return new Map(rows.map((row) => [row.recipientId, row]));
}
