// A register decoded field by field: one column per side given (the model's, the kernel's, or
// both), the fields in which two sides differ marked in colour and in words. It is a table, so it
// is its own text. Draws what it is given (sd-compare.ts builds the rows).
import type { FieldRow } from "./sd-compare";
import "./sd.css";

export function SdRegister({ caption, sides, rows, testId }: { caption: string; sides: readonly string[]; rows: readonly FieldRow[]; testId?: string }) {
  const two = sides.length === 2;
  const differ = rows.filter((r) => r.differ).length;
  return (
    <table className="files sd-register" aria-label={`${caption}${two ? (differ ? `: ${differ} fields differ` : ": the same") : ""}`} data-testid={testId} data-differ={two ? differ : undefined}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">field</th>
          {sides.map((s) => <th key={s} scope="col">{s}</th>)}
          {two && <th scope="col">same?</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name} className={r.differ ? "differs" : undefined} data-field={r.name} data-differ={r.differ ? "yes" : undefined}>
            <th scope="row">{r.name}</th>
            {r.values.map((v, k) => <td key={k}>{v ?? "—"}</td>)}
            {two && <td>{r.differ ? "≠ differs" : r.values.includes(undefined) ? "—" : "yes"}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
