import type { ReactNode } from "react";
import { stacked } from "./stacked-table";

/** The header row of a stacked table: one column header per entry (a screen reader's only header on phones). */
export function StackedHead({ columns }: { columns: ReactNode[] }) {
  return (
    <thead className={stacked.head} role="rowgroup">
      <tr role="row">
        {columns.map((name, index) => (
          <th key={index} scope="col" role="columnheader" className={stacked.headCell}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A column's name in front of its value, on phones only (the column header says it to screen readers). */
export function StackedLabel({ children }: { children: ReactNode }) {
  return (
    <span aria-hidden="true" className={stacked.label}>
      {children}
    </span>
  );
}
