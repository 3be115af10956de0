// A lab step's `predict` block: a question the learner answers before a measurement, and where
// the page finds what the kernel did, to set it beside the guess. YAML:
//
//   ```predict
//   question: How many discard requests will this delete cost?
//   unit: requests                  # optional, shown after the number
//   choices: [none, mq-deadline]    # optional: a choice instead of a number
//   actual:                         # what the kernel did: events counted since the step opened…
//     event: exfat_discard
//     where: { batched: 0 }
//   ```
//   or `actual: <a shell command>`: the first line it prints in the guest (run by the check agent).
import { isMap, isScalar, type Node } from "yaml";
import { readYaml } from "./yaml-block";
import { eventsSince, parseExpect, matchingEvents, type Expectation, type SeenEvent } from "./expect";
import { parseKey, type ModelKey } from "./keys";

export interface Prediction {
  question: string;
  unit?: string;
  choices?: string[];
  actual: { command: string } | { count: Expectation; sum?: string };
  /** the model's answer for this learner's problem (keys.ts), when the block names one */
  key?: ModelKey;
  /** 1-based line inside the block */
  line: number;
}

/** A learner's answer and the kernel's, as kept in the progress. guess null: "no guess". */
export interface PredictionRecord {
  question: string;
  guess: string | null;
  actual?: string;
  at: number;
  /**
   * the kernel had already done what the prediction asks about when the guess was made (its
   * events were in the step's stream), or the learner had entered commands since the step
   * opened: the page and the report mark it
   */
  afterMeasuring?: boolean;
  /** the measurement came earlier in the step, before a reload, a reset or a visit elsewhere took it back */
  measuredEarlier?: boolean;
  /**
   * a prediction of counted events marked because commands had been entered in the step, not
   * because the kernel had done it yet (a command may measure it another way)
   */
  commandsEntered?: boolean;
  /** events of the actual already counted at the guess: the actual counts only those after it */
  countedBefore?: number;
}

const KEYS = ["question", "unit", "choices", "actual", "key"];

type BlockError = { error: string; line: number };

/** A block's YAML mapping, with the line of each of its keys; or what is wrong with it. */
export function yamlMapping(body: string, notMapping: string): { js: Record<string, unknown>; lineOf(key: string): number } | BlockError {
  const read = readYaml(body);
  if ("error" in read) return read;
  const { doc, lineCounter: lc } = read;
  const root = doc.contents as Node | null;
  if (!isMap(root)) return { error: notMapping, line: 1 };
  const lineOf = (key: string) => {
    const pair = root.items.find((p) => isScalar(p.key) && p.key.value === key);
    const range = isScalar(pair?.key) ? pair.key.range : undefined;
    return range ? lc.linePos(range[0]).line : 1;
  };
  return { js: root.toJSON() as Record<string, unknown>, lineOf };
}

/** What a predict and a question block ask alike: question:, unit: and choices: (never unit: beside choices:). */
export function parseAsked(js: Record<string, unknown>, lineOf: (key: string) => number): { question: string; unit?: string; choices?: string[] } | BlockError {
  if (typeof js.question !== "string" || !js.question.trim()) return { error: "question: is the text the learner answers", line: lineOf("question") };
  if (js.unit !== undefined && (typeof js.unit !== "string" || !js.unit.trim())) return { error: "unit: is a short text such as requests", line: lineOf("unit") };
  let choices: string[] | undefined;
  if (js.choices !== undefined) {
    if (!Array.isArray(js.choices) || js.choices.length < 2 || js.choices.some((c) => typeof c !== "string" && typeof c !== "number"))
      return { error: "choices: is a list of at least two answers", line: lineOf("choices") };
    choices = js.choices.map(String);
    if (new Set(choices).size !== choices.length) return { error: "choices: lists an answer twice", line: lineOf("choices") };
    if (js.unit !== undefined) return { error: "unit: goes with a number, not with choices:", line: lineOf("unit") };
  }
  return { question: js.question.trim(), unit: js.unit?.toString().trim(), choices };
}

export function parsePredict(body: string): { predict: Prediction } | BlockError {
  const y = yamlMapping(body, "a prediction is a mapping with question: and actual:");
  if ("error" in y) return y;
  const { js, lineOf } = y;
  for (const k of Object.keys(js)) if (!KEYS.includes(k)) return { error: `unknown key "${k}" (known: ${KEYS.join(", ")})`, line: lineOf(k) };
  const asked = parseAsked(js, lineOf);
  if ("error" in asked) return asked;
  const actual = parseSource(js.actual, "actual");
  if ("error" in actual) return { error: actual.error, line: lineOf("actual") };
  const key = optionalKey(js, lineOf);
  if (key && "error" in key) return key;
  return { predict: { ...asked, actual, ...(key ? { key: key.key } : {}), line: 1 } };
}

/** A block's `key:`, if it has one: the model's answer for the learner's problem (keys.ts). */
export function optionalKey(js: Record<string, unknown>, lineOf: (key: string) => number): { key: ModelKey } | BlockError | null {
  if (js.key === undefined) return null;
  const r = parseKey(js.key);
  return "error" in r ? { error: r.error, line: lineOf("key") } : r;
}

/**
 * Where the kernel's answer comes from, as written after `key:` (predict's `actual:`, a
 * question's `answer:`): a shell command as plain text, or `event:` and `where:` to count the
 * kernel's events since the step opened.
 */
export function parseSource(v: unknown, key: string): { command: string } | { count: Expectation; sum?: string } | { error: string } {
  if (typeof v === "string" && v.trim()) return { command: v.trim() };
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const { sum, ...a } = v as Record<string, unknown>;
    if (a.count !== undefined || a.verdict !== undefined) return { error: `${key}: counts events: give event: and where:, not count: or verdict:` };
    const other = Object.keys(a).filter((k) => k !== "event" && k !== "where" && k !== "since");
    if (other.length)
      return { error: `${key}: takes event:, where:, since: and sum: to count the kernel's events, not ${other.map((k) => `${k}:`).join(", ")}; a shell command is written as text after ${key}: itself (${key}: cat /sys/…)` };
    // sum: a numeric field of the event, added up over the events counted (the kernel's own
    // figure, where a counter in sysfs could be written by the learner)
    if (sum !== undefined && (typeof sum !== "string" || !/^[a-z_][a-z0-9_]*$/.test(sum))) return { error: `${key}: sum: names one field of the event, such as examined` };
    const r = parseExpect(JSON.stringify(a));
    if ("error" in r) return { error: `${key}: ${r.error}` };
    return { count: r.expect[0], ...(sum ? { sum } : {}) };
  }
  return { error: `${key}: is a shell command written as text (${key}: cat /sys/…), or event: and where: to count the kernel's events` };
}

/** A guess as typed, checked: a number (for a number question) or one of the choices. */
export function parseGuess(p: Prediction, text: string): { value: string } | { error: string } {
  const t = text.trim();
  if (p.choices) return p.choices.includes(t) ? { value: t } : { error: `choose one of ${p.choices.join(", ")}` };
  const digits = t.replace(/(?<=\d)[ ,_](?=\d)/g, ""); // 20,971,520 and 20 971 520 too
  if (!/^-?\d+(\.\d+)?$/.test(digits)) return { error: "write a number, such as 64 or 0.5" };
  const n = Number(digits);
  if (!Number.isFinite(n) || n < 0) return { error: "write a number of zero or more" };
  return { value: String(n) };
}

/** The events an event actual takes in: those since the step opened, or with since:, the newest run's. */
function countedEvents(x: Expectation, events: readonly SeenEvent[]): SeenEvent[] {
  return matchingEvents(x, x.since ? (eventsSince(x.since, events) ?? []) : events);
}

/** How many events an event actual takes in, whatever a sum: of them makes (a guess after any is after measuring). */
export function eventsCounted(p: Prediction, events: readonly SeenEvent[]): number {
  return "count" in p.actual ? countedEvents(p.actual.count, events).length : 0;
}

/**
 * What the kernel did, for an event count (the command kind is run by the page through the
 * agent): the events since the step opened, less those counted before the guess; with since:,
 * those of the newest run (after the newest trace_marker line holding its text), whole: a guess
 * made while that run was already there is marked as made after measuring instead.
 */
export function countedActual(p: Prediction, events: readonly SeenEvent[], before = 0): string | null {
  if (!("count" in p.actual)) return null;
  const { count: x, sum } = p.actual;
  const evs = countedEvents(x, events);
  // with sum:, what the events say they did (a field that is not a number spoils the figure)
  const total = sum ? evs.reduce((t, e) => t + (/^\d+$/.test(e.fields[sum] ?? "") ? Number(e.fields[sum]) : NaN), 0) : evs.length;
  const n = x.since ? total : Math.max(0, total - before);
  return Number.isFinite(n) ? String(n) : null;
}

/** The first line a command printed, as the kernel's answer (empty output: none). */
export function commandActual(output: string): string | null {
  const first = output.split("\n").map((l) => l.trim()).find((l) => l);
  return first ? first.slice(0, 80) : null;
}

/** A guess is near the kernel's answer: the same choice, or a number within 10% of it. */
export function near(guess: string | null, actual: string | undefined): boolean {
  if (guess === null || actual === undefined) return false;
  const g = Number(guess);
  const a = Number(actual);
  if (guess !== "" && actual !== "" && Number.isFinite(g) && Number.isFinite(a)) return a === 0 ? g === 0 : Math.abs(g - a) <= Math.abs(a) * 0.1;
  return guess === actual;
}

/**
 * How a guess stands against the kernel's answer. A number near it is "within 10%", with the
 * difference, not "right": a count a learner could work out exactly and missed by 7% (F2FS's
 * scans without their bitmap bits) came from a wrong idea of what is counted.
 */
export function predictionVerdict(guess: string, actual: string, choice: boolean, unit: string): string {
  if (guess.trim() === actual.trim() || (!choice && Number(guess) === Number(actual) && guess.trim() !== "")) return ": exactly your prediction.";
  if (choice) return ": not what you predicted.";
  if (!near(guess, actual)) return ": further off than 10%; what the lab says next explains why.";
  const d = Number(actual) - Number(guess);
  return `: within 10% of your prediction, which was ${+Math.abs(d).toPrecision(6)}${unit} ${d > 0 ? "under" : "over"}.`;
}
