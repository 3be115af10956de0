// The table beside a picture: the same data as text, for a screen reader, a copy into notes,
// or a reader who wants the numbers. Closed by default; its rows are built when opened, and
// capped (a picture may hold hundreds of thousands of items).
import { useState } from "react";

interface Props {
  summary: string; // what the table holds, e.g. "the requests as a table"
  head: string[];
  count: number; // rows in all
  row(i: number): Array<string | number>;
  limit?: number;
}

export function TableAlt({ summary, head, count, row, limit = 200 }: Props) {
  const [open, setOpen] = useState(false);
  const shown = Math.min(count, limit);
  return (
    <details className="table-alt" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>{summary} ({count.toLocaleString()} row{count === 1 ? "" : "s"})</summary>
      {open && (
        <div className="discard-list">
          <table className="files">
            <thead><tr>{head.map((h) => <th key={h}>{h}</th>)}</tr></thead>
            <tbody>
              {Array.from({ length: shown }, (_, i) => (
                <tr key={i}>{row(i).map((c, k) => <td key={k}>{c}</td>)}</tr>
              ))}
            </tbody>
          </table>
          {count > shown && <p className="muted">the first {shown} of {count.toLocaleString()}</p>}
        </div>
      )}
    </details>
  );
}
