import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import type { Db } from "@/db/types";

/** A list's query (its joins, filter and order) before it is paged. */
type Pageable<Row> = { limit(limit: number): { offset(offset: number): PromiseLike<Row[]> } };

/** `count(*)` of a table's rows under `where`: the total of a paged list without joins. */
export function countRows(db: Db, table: PgTable, where: SQL | undefined): PromiseLike<{ total: number }[]> {
  return db.select({ total: sql<number>`count(*)::int` }).from(table).where(where);
}

/**
 * One page of a list (`GET …?page=&per_page=`): the page of `rows` and the `total` under the
 * same filter, read at the same time, each row turned into its view.
 */
export async function readPage<Row, View>(paging: Paging, rows: Pageable<Row>, total: PromiseLike<{ total: number }[]>, view: (row: Row) => View): Promise<Page<View>> {
  const [data, [counted]] = await Promise.all([rows.limit(paging.per_page).offset(offsetOf(paging)), total]);
  return page(data.map(view), paging, Number(counted?.total ?? 0));
}
