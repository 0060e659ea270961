import type { ReactNode } from 'react';

/**
 * OfficeTable is the office screens' table: its caption shown above a
 * scrolling region (so a phone shows all of it) that is named by it, and
 * kept in the table for screen readers. `columns` are the header's words
 * (a column whose words are hidden is named for screen readers only);
 * `children` the body's rows.
 */
export function OfficeTable({
  id,
  caption,
  className = '',
  columns,
  children,
}: {
  id: string;
  caption: string;
  className?: string;
  columns: (string | { hidden: string })[];
  children: ReactNode;
}) {
  const captionId = `${id}-caption`;
  return (
    <>
      <p id={captionId} className="office-caption" aria-hidden="true">
        {caption}
      </p>
      <div className="office-table-wrap" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className={`office-table ${className}`.trim()}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={typeof c === 'string' ? c : c.hidden} scope="col">
                  {typeof c === 'string' ? c : <span className="visually-hidden">{c.hidden}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </>
  );
}
