import type { ReactNode } from "react";

/** A column of a table's header row: right-aligned over numbers; `hidden`: named for screen readers only. */
export type Column = string | { name: string; numeric?: boolean; hidden?: boolean };

/** The column of a row's buttons: it needs no visible header. */
export const actionsColumn: Column = { name: "Actions", hidden: true };

/** A column of numbers. */
export function numeric(name: string): Column {
  return { name, numeric: true };
}

/**
 * A dashboard table: a table from `md` up — a focusable region (`label`) that scrolls sideways
 * on a screen narrower than `minWidth` — and a stack of cards below (a 360 px phone must not
 * scroll sideways, issue 26). On phones each row is a card and each cell a line; a cell with
 * `data-label` shows that column name in front of its value (app/globals.css). The markup
 * carries explicit roles, since `display: block` can drop table semantics in some browsers.
 * `inset` is the columns' side padding, as the rows' cells have it; `ruled="y"` rules the
 * header above too, for a table under other content of its card.
 */
export function ScrollTable({
  label,
  caption,
  minWidth,
  columns,
  inset,
  ruled = "b",
  className,
  testId,
  children,
}: {
  label: string;
  caption?: ReactNode;
  minWidth: string;
  columns: Column[];
  inset: "px-3" | "px-4" | "px-5";
  ruled?: "b" | "y";
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className={className ? `${className} md:overflow-x-auto` : "md:overflow-x-auto"} role="region" aria-label={label} tabIndex={0}>
      <table role="table" className={`stack-table block w-full ${minWidth} text-left text-sm max-md:min-w-0 md:table`} data-testid={testId}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead role="rowgroup" className={`${ruled === "y" ? "border-y" : "border-b"} border-slate-200 bg-slate-50 text-xs uppercase text-slate-500 max-md:sr-only md:table-header-group`}>
          <tr role="row">
            {columns.map((column) => {
              const { name, numeric = false, hidden = false } = typeof column === "string" ? { name: column } : column;
              return (
                <th key={name} scope="col" role="columnheader" className={numeric ? `${inset} py-2 text-right` : `${inset} py-2`}>
                  {hidden ? <span className="sr-only">{name}</span> : name}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody role="rowgroup" className="block divide-y divide-slate-100 md:table-row-group">{children}</tbody>
      </table>
    </div>
  );
}
