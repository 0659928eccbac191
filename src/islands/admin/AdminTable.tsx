/** The back office's tables (orders, products, a card's offers): a scrollable region, cards on a phone. */
import type { ReactNode } from 'react';

/** A column: its heading, whether it holds numbers (right-aligned), whether its heading is for screen readers only. */
export interface Column {
  label: string;
  num?: boolean;
  hidden?: boolean;
}

/** A named table region with its column headings and the rows given. */
export function AdminTable({ label, columns, children }: { label: string; columns: Column[]; children: ReactNode }) {
  return (
    <div className="acct-table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className="acct-table adm-table adm-cards table-cards">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.num ? 'num' : undefined}>
                {column.hidden ? <span className="visually-hidden">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
