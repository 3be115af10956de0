// A lab step's `question` block: asked about the learner's own run, once the step has passed,
// and judged against what *their* guest measured, not against a constant in the file. YAML:
//
//   ```question
//   question: How many times did your run force writes?
//   unit: times                     # optional, shown after the number
//   choices: [reads, writes]        # optional: a choice instead of a number
//   answer:                         # where the right answer comes from, as predict's actual:
//     event: dd_dispatch_request    #   kernel events counted since the step opened…
//     where: { because: starved }
//   tolerance: 10%                  # a number's leeway: 10% of the answer, or 2 (either side); default 0
//   ```
//   or `answer: <a shell command>`: the first line it prints in the guest (run by the check agent).
import type { Expectation } from "./expect";
import { optionalKey, parseAsked, parseGuess, parseSource, yamlMapping, type Prediction } from "./predict";
import type { ModelKey } from "./keys";

export interface Question {
  question: string;
  unit?: string;
  choices?: string[];
  /** where the learner's run gives the answer; none for a question the key alone answers (which rule did your kernel break?) */
  answer?: { command: string } | { count: Expectation };
  /**
   * the model's answer for this learner's problem (keys.ts): the learner's answer is judged
   * against it, and their run's measured answer is shown beside it
   */
  key?: ModelKey;
  /** how far a number may be from the measured answer: absolute, or a fraction of it */
  tolerance: { abs: number } | { rel: number };
  /** 1-based line inside the block */
  line: number;
}

/** A question answered, as kept in the progress: the learner's answer beside their run's. */
export interface QuestionRecord {
  question: string;
  /** what the learner answered */
  answer: string;
  /** what their guest measured as they answered */
  actual: string;
  /** the model's answer for their problem, when the question has a key: what the answer was judged against */
  key?: string;
  right: boolean;
  at: number;
}

const KEYS = ["question", "unit", "choices", "answer", "tolerance", "key"];

export function parseQuestion(body: string): { question: Question } | { error: string; line: number } {
  const y = yamlMapping(body, "a question is a mapping with question: and answer:");
  if ("error" in y) return y;
  const { js, lineOf } = y;
  for (const k of Object.keys(js)) {
    if (k === "actual") return { error: `a question's right answer is written after answer:, not actual: (that is predict's)`, line: lineOf(k) };
    if (!KEYS.includes(k)) return { error: `unknown key "${k}" (known: ${KEYS.join(", ")})`, line: lineOf(k) };
  }
  const asked = parseAsked(js, lineOf);
  if ("error" in asked) return asked;
  if (asked.choices && js.tolerance !== undefined) return { error: "tolerance: goes with a number, not with choices: (a choice is right or not)", line: lineOf("tolerance") };
  if (js.answer === undefined && js.key === undefined)
    return { error: "answer: says where the right answer comes from: a shell command run in the learner's guest, or event: and where: to count their kernel's events (or key: the model's answer for the learner's problem); it is never a constant", line: 1 };
  const answer = js.answer === undefined ? undefined : parseSource(js.answer, "answer");
  if (answer && "error" in answer) return { error: answer.error, line: lineOf("answer") };
  let tolerance: Question["tolerance"] = { abs: 0 };
  if (js.tolerance !== undefined) {
    const t = String(js.tolerance).trim();
    const m = t.match(/^(\d+(?:\.\d+)?)(%?)$/);
    if (!m || (typeof js.tolerance !== "number" && typeof js.tolerance !== "string"))
      return { error: `tolerance: is a number (2: the answer give or take 2) or a percentage (10%: within 10% of it), not ${JSON.stringify(js.tolerance)}`, line: lineOf("tolerance") };
    tolerance = m[2] ? { rel: Number(m[1]) / 100 } : { abs: Number(m[1]) };
    if ("rel" in tolerance && tolerance.rel >= 1) return { error: `tolerance: ${t} would take almost any answer: give less than 100%`, line: lineOf("tolerance") };
  }
  const key = optionalKey(js, lineOf);
  if (key && "error" in key) return key;
  return { question: { ...asked, ...(answer ? { answer } : {}), tolerance, ...(key ? { key: key.key } : {}), line: 1 } };
}

/**
 * The question as a prediction, for what the two share: an answer as typed, checked; where the
 * answer comes from. A question without `answer:` has nothing to measure (its `actual` is an
 * empty command): callers measure only where `q.answer` is set.
 */
export function asPrediction(q: Question): Prediction {
  return { question: q.question, unit: q.unit, choices: q.choices, actual: q.answer ?? { command: "" }, key: q.key, line: q.line };
}

/** An answer as typed, checked: a number (for a number question) or one of the choices. */
export function parseAnswer(q: Question, text: string): { value: string } | { error: string } {
  return parseGuess(asPrediction(q), text);
}

/** The learner's answer is right for their run: the same choice, or a number within the tolerance. */
export function judgeAnswer(q: Question, given: string, measured: string): boolean {
  if (q.choices) return given.trim() === measured.trim();
  const g = Number(given);
  const a = Number(measured);
  if (!Number.isFinite(g) || !Number.isFinite(a) || given.trim() === "" || measured.trim() === "") return false;
  const leeway = "abs" in q.tolerance ? q.tolerance.abs : Math.abs(a) * q.tolerance.rel;
  return Math.abs(g - a) <= leeway + 1e-9;
}

/** The tolerance as the learner reads it. */
export function toleranceText(q: Question): string {
  if (q.choices) return "";
  if ("abs" in q.tolerance) return q.tolerance.abs ? `give or take ${q.tolerance.abs}` : "exactly";
  return `within ${+(q.tolerance.rel * 100).toFixed(2)}%`;
}
