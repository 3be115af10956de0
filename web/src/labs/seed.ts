// A lab's per-learner problem: the frontmatter's `seed:` declares parameters, each learner draws
// their own values from their identity and the lab's id, and `{{name}}` (or a little arithmetic
// on names, `{{pieces * piece_kib}}`) in the lab's steps is replaced by them before the steps are
// read. So two learners side by side get different numbers, and the same learner gets the same
// numbers on every visit, in `fslab labs key` and in the instructor's report.
//
//   seed:
//     pieces: 3..7              # a whole number from 3 to 7
//     piece_kib: 16..64 by 16   # 16, 32, 48 or 64
//     codepage: [437, 850]      # one of these (numbers or words)
//
// The draw is a pure function of (identity, lab id, parameter name): FNV-1a over the three, then
// a 32-bit mix, modulo the number of values. Nothing here is secret: an instructor can print any
// learner's values; what the draw prevents is copying a neighbour's number.
import { hash32 } from "../shared/hash";

export type SeedValue = number | string;

export interface SeedParam {
  name: string;
  /** every value the parameter may take, in order */
  values: SeedValue[];
  /** as the author wrote it, for messages and `labs key` */
  text: string;
}

export type SeedValues = Record<string, SeedValue>;

const NAME = /^[a-z][a-z0-9_]*$/;
/** more values than this in one range is a slip (a range of byte counts instead of KiB, say) */
const MAX_VALUES = 10_000;
const MAX_PARAMS = 24;

/** The frontmatter's `seed:` mapping read, or what is wrong with it (each a sentence). */
export function parseSeed(v: unknown): { params: SeedParam[]; errors: string[] } {
  const params: SeedParam[] = [];
  const errors: string[] = [];
  if (v === undefined || v === null) return { params, errors };
  if (typeof v !== "object" || Array.isArray(v)) return { params, errors: [`"seed" is a mapping of parameter names to their values: "pieces: 3..7" or "codepage: [437, 850]"`] };
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > MAX_PARAMS) errors.push(`"seed" declares ${entries.length} parameters: at most ${MAX_PARAMS}`);
  for (const [name, spec] of entries.slice(0, MAX_PARAMS)) {
    if (!NAME.test(name)) {
      errors.push(`seed: "${name}" is not a parameter name (lowercase letters, digits and _, starting with a letter)`);
      continue;
    }
    const r = seedValues(spec);
    if ("error" in r) errors.push(`seed: ${name}: ${r.error}`);
    else params.push({ name, values: r.values, text: Array.isArray(spec) ? `[${spec.join(", ")}]` : String(spec) });
  }
  return { params, errors };
}

function seedValues(spec: unknown): { values: SeedValue[] } | { error: string } {
  if (Array.isArray(spec)) {
    if (spec.length < 2) return { error: "a list of values needs at least two (one value is the same for everyone: write it in the text)" };
    const values: SeedValue[] = [];
    for (const x of spec) {
      if (typeof x === "number" && Number.isFinite(x)) values.push(x);
      else if (typeof x === "string" && /^[\w.+-]+$/.test(x)) values.push(x);
      else return { error: `${JSON.stringify(x)} is not a value: a number, or a word of letters, digits and . _ + -` };
    }
    if (new Set(values.map(String)).size !== values.length) return { error: "a value is listed twice" };
    return { values };
  }
  const m = typeof spec === "string" ? spec.trim().match(/^(-?\d+)\s*\.\.\s*(-?\d+)(?:\s+by\s+(\d+))?$/) : null;
  if (!m) return { error: `${JSON.stringify(spec)} is neither a range ("3..7", "16..64 by 16") nor a list of values ("[437, 850]")` };
  const [from, to, by] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
  if (by < 1) return { error: `a range's step is 1 or more, not ${by}` };
  if (to <= from) return { error: `the range ${from}..${to} has one value or none: its end must be above its start` };
  const count = Math.floor((to - from) / by) + 1;
  if (count > MAX_VALUES) return { error: `the range has ${count} values: at most ${MAX_VALUES}` };
  if ((to - from) % by) return { error: `${to} is not reached from ${from} in steps of ${by}` };
  return { values: Array.from({ length: count }, (_, i) => from + i * by) };
}

/** One learner's values for a lab: a pure function of their identity, the lab's id and each parameter's name. */
export function drawSeed(params: readonly SeedParam[], identity: string, labId: string): SeedValues {
  const out: SeedValues = {};
  for (const p of params) out[p.name] = p.values[hash32(`${identity}\n${labId}\n${p.name}`) % p.values.length];
  return out;
}

/** An identity for a browser that has none: random, kept with the lab's progress so the problem stays the learner's. */
export function randomIdentity(): string {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return `anon-${[...b].map((x) => x.toString(16).padStart(2, "0")).join("")}`;
}

/** The identity a lab file is read with when no learner is given (`labs check`, a preview): any draw must make a valid lab. */
export const EXAMPLE_IDENTITY = "example";

const TEMPLATE = /\{\{(.*?)\}\}/g;

/**
 * `{{ expression }}` in a line replaced by its value: names of seed parameters, numbers, + - * /
 * % and parentheses. A result that is not whole keeps up to 6 decimals. Errors name what is wrong.
 */
export function fillLine(line: string, values: SeedValues): { text: string; errors: string[] } {
  const errors: string[] = [];
  if (!line.includes("{{")) return { text: line, errors };
  const text = line.replace(TEMPLATE, (_, expr: string) => {
    const r = evaluate(expr, values);
    if ("error" in r) {
      errors.push(`{{${expr}}}: ${r.error}`);
      return "";
    }
    return r.text;
  });
  if (text.includes("{{")) errors.push(`a "{{" that is never closed by "}}" on its line`);
  return { text, errors };
}

type Tok = { k: "num"; v: number } | { k: "name"; v: string } | { k: "op"; v: string };

function tokens(expr: string): Tok[] | string {
  const out: Tok[] = [];
  const re = /\s*(?:(\d+(?:\.\d+)?)|([a-z][a-z0-9_]*)|([-+*/%()]))/y;
  let at = 0;
  while (at < expr.length) {
    if (!expr.slice(at).trim()) break;
    re.lastIndex = at;
    const m = re.exec(expr);
    if (!m) return `cannot read "${expr.slice(at).trim()}" (a template holds names, numbers, + - * / % and parentheses)`;
    at = re.lastIndex;
    if (m[1] !== undefined) out.push({ k: "num", v: Number(m[1]) });
    else if (m[2] !== undefined) out.push({ k: "name", v: m[2] });
    else out.push({ k: "op", v: m[3] });
  }
  return out;
}

function evaluate(expr: string, values: SeedValues): { text: string } | { error: string } {
  const toks = tokens(expr);
  if (typeof toks === "string") return { error: toks };
  if (!toks.length) return { error: "an empty template" };
  let i = 0;
  const fail = (e: string): never => {
    throw new TemplateError(e);
  };
  // a lone name may be a word (a code page's name); arithmetic needs numbers
  if (toks.length === 1 && toks[0].k === "name") {
    const v = values[toks[0].v];
    if (v === undefined) return { error: unknownName(toks[0].v, values) };
    return { text: String(v) };
  }
  const num = (name: string): number => {
    const v = values[name];
    if (v === undefined) fail(unknownName(name, values));
    if (typeof v !== "number") fail(`${name} is "${v}", a word: it cannot be counted with`);
    return v as number;
  };
  const primary = (): number => {
    const t = toks[i++];
    if (!t) return fail("the expression ends too soon");
    if (t.k === "num") return t.v;
    if (t.k === "name") return num(t.v);
    if (t.v === "-") return -primary();
    if (t.v === "(") {
      const v = sum();
      if (toks[i++]?.v !== ")") fail('a "(" is never closed');
      return v;
    }
    return fail(`"${t.v}" where a number belongs`);
  };
  const product = (): number => {
    let v = primary();
    while (toks[i]?.k === "op" && "*/%".includes(String(toks[i].v))) {
      const op = toks[i++].v;
      const r = primary();
      if (op !== "*" && r === 0) fail("division by zero");
      v = op === "*" ? v * r : op === "/" ? v / r : v % r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (toks[i]?.k === "op" && (toks[i].v === "+" || toks[i].v === "-")) {
      const op = toks[i++].v;
      const r = product();
      v = op === "+" ? v + r : v - r;
    }
    return v;
  };
  try {
    const v = sum();
    if (i < toks.length) fail(`"${toks[i].v}" after a whole expression`);
    return { text: formatNumber(v) };
  } catch (e) {
    if (e instanceof TemplateError) return { error: e.message };
    throw e;
  }
}

class TemplateError extends Error {}

function unknownName(name: string, values: SeedValues): string {
  const known = Object.keys(values);
  return `no seed parameter "${name}" (${known.length ? `this lab's: ${known.join(", ")}` : "this lab declares none in its frontmatter's seed:"})`;
}

export function formatNumber(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toFixed(6)));
}
