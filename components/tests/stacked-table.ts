/**
 * Classes of a table that is a table from `md` up and a stack of cards below (360 px
 * phones). Changing `display` can drop table semantics in some browsers, so the markup
 * also carries explicit roles (table, rowgroup, row, columnheader, rowheader, cell).
 */
export const stacked = {
  table: "block w-full text-left text-sm md:table",
  head: "max-md:sr-only border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500 md:table-header-group",
  headCell: "px-4 py-2",
  body: "block divide-y divide-slate-100 md:table-row-group",
  row: "md:table-row",
  cell: "min-w-0 md:table-cell md:px-4 md:py-3",
  /** A column name shown in front of the value on phones only (the column header says it to screen readers). */
  label: "block text-xs font-medium uppercase text-slate-500 md:hidden",
} as const;

export const panelClass = "overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm";
