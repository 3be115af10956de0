// A playground's or view's parameters, declared once in its topic manifest: the name it has in
// a link (and as an embed's attribute), its range or options, its default. The page parses its
// link with the same declaration, so the ranges a manifest states are the ranges the page uses.

export interface IntParam {
  kind: "int";
  label: string;
  min: number;
  max: number;
  default: number;
  /** only these values (a chart's fixed choices), each within min..max */
  options?: readonly number[];
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

export type ParamSpec = IntParam | EnumParam | TextParam;
export type ParamSchema = Record<string, ParamSpec>;

export type ParamValues<S extends ParamSchema> = {
  [K in keyof S]: S[K] extends IntParam ? number : S[K] extends EnumParam<infer T> ? T : string;
};

export const int = (label: string, min: number, max: number, dflt: number, options?: readonly number[]): IntParam => ({ kind: "int", label, min, max, default: dflt, options });
export const oneOf = <T extends string>(label: string, values: readonly T[], dflt: T): EnumParam<T> => ({ kind: "enum", label, values, default: dflt });
export const text = (label: string, maxLength: number, dflt: string): TextParam => ({ kind: "text", label, maxLength, default: dflt });

/** One value from a link: a value outside its range or options falls back to the default. */
export function paramValue(spec: ParamSpec, v: string | null): number | string {
  if (v === null) return spec.default;
  switch (spec.kind) {
    case "int": {
      const n = Number(v);
      const ok = Number.isInteger(n) && n >= spec.min && n <= spec.max && (!spec.options || spec.options.includes(n));
      return ok ? n : spec.default;
    }
    case "enum":
      return spec.values.includes(v) ? v : spec.default;
    case "text":
      return v.length <= spec.maxLength ? v : spec.default;
  }
}

/** Every parameter of a schema from a link's query. */
export function parseParams<S extends ParamSchema>(schema: S, query: string | URLSearchParams): ParamValues<S> {
  const q = typeof query === "string" ? new URLSearchParams(query) : query;
  const out: Record<string, number | string> = {};
  for (const [name, spec] of Object.entries(schema)) out[name] = paramValue(spec, q.get(name));
  return out as ParamValues<S>;
}

/** The link query that reproduces these values, in the schema's order. */
export function paramsQuery<S extends ParamSchema>(schema: S, values: ParamValues<S>): string {
  return new URLSearchParams(Object.keys(schema).map((k) => [k, String(values[k])])).toString();
}

/** The range or options of a parameter, in words (for usage text and the README's lists). */
export function describeParam(spec: ParamSpec): string {
  switch (spec.kind) {
    case "int":
      return spec.options ? `one of ${spec.options.join(", ")}` : `${spec.min}–${spec.max}`;
    case "enum":
      return spec.values.join(" | ");
    case "text":
      return `text, at most ${spec.maxLength} characters`;
  }
}
