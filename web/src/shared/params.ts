// A playground's or view's parameters, declared once in its topic manifest: the name it has in
// a link (and as an embed's attribute), its range or options, its default. The page checks its
// link and its fields with the same declaration (useParams.ts), so the ranges a manifest states
// are the ranges the page uses; a value that does not fit is named, never replaced.

export interface IntParam {
  kind: "int";
  label: string;
  min: number;
  max: number;
  default: number;
  /** only these values (a chart's fixed choices), each within min..max */
  options?: readonly number[];
}

/** a number that may have a fraction (a prediction of a ratio) */
export interface DecimalParam {
  kind: "decimal";
  label: string;
  min: number;
  max: number;
  default: number;
}

export interface EnumParam<T extends string = string> {
  kind: "enum";
  label: string;
  values: readonly T[];
  default: T;
}

export interface TextParam {
  kind: "text";
  label: string;
  maxLength: number;
  default: string;
}

export type ParamSpec = IntParam | DecimalParam | EnumParam | TextParam;
export type ParamSchema = Record<string, ParamSpec>;

export type ParamValues<S extends ParamSchema> = {
  [K in keyof S]: S[K] extends IntParam | DecimalParam ? number : S[K] extends EnumParam<infer T> ? T : string;
};

export const int = (label: string, min: number, max: number, dflt: number, options?: readonly number[]): IntParam => ({ kind: "int", label, min, max, default: dflt, options });
export const decimal = (label: string, min: number, max: number, dflt: number): DecimalParam => ({ kind: "decimal", label, min, max, default: dflt });
export const oneOf = <T extends string>(label: string, values: readonly T[], dflt: T): EnumParam<T> => ({ kind: "enum", label, values, default: dflt });
export const text = (label: string, maxLength: number, dflt: string): TextParam => ({ kind: "text", label, maxLength, default: dflt });

/**
 * A value as typed in a field or a link, checked against its declaration: the value, or what
 * is wrong with it in words (never another value in its place).
 */
export function checkParam(spec: ParamSpec, raw: string): { value: number | string } | { error: string } {
  switch (spec.kind) {
    case "int": {
      const t = raw.trim();
      if (!t) return { error: "empty: give a whole number" };
      if (!/^[-+]?\d+$/.test(t)) return { error: `"${raw}" is not a whole number` };
      const n = Number(t);
      if (n < spec.min || n > spec.max) return { error: `${t} is outside ${spec.min}–${spec.max}` };
      if (spec.options && !spec.options.includes(n)) return { error: `${t} is not one of ${spec.options.join(", ")}` };
      return { value: n };
    }
    case "decimal": {
      const t = raw.trim();
      if (!t) return { error: "empty: give a number" };
      if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return { error: `"${raw}" is not a number` };
      const n = Number(t);
      if (n < spec.min || n > spec.max) return { error: `${t} is outside ${spec.min}–${spec.max}` };
      return { value: n };
    }
    case "enum":
      return spec.values.includes(raw) ? { value: raw } : { error: `"${raw}" is not one of ${spec.values.join(", ")}` };
    case "text":
      return raw.length <= spec.maxLength ? { value: raw } : { error: `longer than ${spec.maxLength} characters` };
  }
}

/** What is wrong with a typed value, or undefined if nothing. */
export function errorOf(spec: ParamSpec, raw: string): string | undefined {
  const c = checkParam(spec, raw);
  return "error" in c ? c.error : undefined;
}

/** The range or options of a parameter, in words (for usage text and the README's lists). */
export function describeParam(spec: ParamSpec): string {
  switch (spec.kind) {
    case "int":
      return spec.options ? `one of ${spec.options.join(", ")}` : `${spec.min}–${spec.max}`;
    case "decimal":
      return `${spec.min}–${spec.max}, fractions allowed`;
    case "enum":
      return spec.values.join(" | ");
    case "text":
      return `text, at most ${spec.maxLength} characters`;
  }
}
