// A number or text field for one declared parameter: what the learner typed stays in the
// field; a problem is shown beside it (and tied to it for screen readers), never replaced.
import type { ReactNode } from "react";
import type { ParamSpec } from "../params";

interface Props {
  name: string;
  spec: ParamSpec;
  raw: string;
  error?: string;
  label: ReactNode;
  /** text after the field (a unit) */
  after?: ReactNode;
  /** the field's accessible name, where the visible label is only part of a sentence */
  ariaLabel?: string;
  onChange(text: string): void;
}

export function ParamField({ name, spec, raw, error, label, after, ariaLabel, onChange }: Props) {
  const id = `param-${name}`;
  const errId = `${id}-error`;
  return (
    <span className={error ? "param invalid" : "param"}>
      <label htmlFor={id}>{label}</label>{" "}
      <input
        id={id}
        aria-label={ariaLabel}
        type="text"
        inputMode={spec.kind === "int" ? "numeric" : spec.kind === "decimal" ? "decimal" : "text"}
        value={raw}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errId : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {after}
      {error && <span id={errId} className="field-error" role="alert">{error}</span>}
    </span>
  );
}

/** The link's problems, said once at the top of the form. */
export function LinkProblems({ problems }: { problems: string[] }) {
  if (!problems.length) return null;
  return (
    <p className="error" role="alert" data-testid="link-problems">
      This link has parameters the page cannot use: {problems.join("; ")}. Correct them in the fields below.
    </p>
  );
}
