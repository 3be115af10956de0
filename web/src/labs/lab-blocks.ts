// One fenced block of a lab file (lab-format.ts), read by its tag: its options and its YAML or
// code checked, every error at its line.
import { parseExpect, type Expectation } from "./expect";
import { parsePredict, type Prediction } from "./predict";
import { parseQuestion, type Question } from "./question";
import { parseCodeInfo, type CodeSpec } from "./code-block";

/** The line that marks a step as reading only: it has nothing to check, and says so. */
export const READING_MARK = "<!-- reading -->";
/** The line that marks a step as a challenge: the learner does it alone. */
export const CHALLENGE_MARK = "<!-- challenge -->";

/** A step: its "## " heading's title and line, its blocks, and what its marks say. */
export interface LabStep {
  title: string;
  line: number;
  blocks: LabBlock[];
  /** marked "<!-- reading -->": nothing to check, on purpose */
  reading?: boolean;
  /** marked "<!-- challenge -->": no Run buttons; the solution only after a failed check */
  challenge?: boolean;
}

export type LabBlock =
  | { kind: "markdown"; text: string; line: number }
  | { kind: "vm"; text: string; line: number }
  | { kind: "check"; text: string; line: number; timeout: number }
  | { kind: "expect"; text: string; line: number; expect: Expectation[] }
  | { kind: "hint"; text: string; line: number; fail?: string }
  | { kind: "solution"; text: string; line: number }
  | { kind: "predict"; text: string; line: number; predict: Prediction }
  | { kind: "learned"; text: string; line: number }
  | { kind: "question"; text: string; line: number; question: Question }
  | { kind: "shortcut"; text: string; line: number }
  | { kind: "code"; text: string; line: number; code: CodeSpec }
  | { kind: "workload"; text: string; line: number };

/** The tags of our fenced blocks (lab-format.ts's header says what each holds). */
export const BLOCK_TAGS = ["vm", "check", "expect", "hint", "solution", "predict", "learned", "question", "shortcut", "code", "workload"] as const;
export type BlockTag = (typeof BLOCK_TAGS)[number];

/** A check's time limit in seconds when its fence names none. */
export const CHECK_TIMEOUT = 10;

/**
 * One of our blocks (a fence of a BLOCK_TAGS tag at line n, its info string after the tag, its
 * body lines), its options and body checked; null if refused, with the error handed to refuse.
 */
export function readBlock(tag: BlockTag, text: string, info: string, n: number, body: string[], refuse: (line: number, msg: string) => void): LabBlock | null {
  if (tag === "check") {
    const m = info.match(/^(?:timeout=(\d+))?$/);
    if (!m) return refuse(n, `a check fence takes only "timeout=<seconds>", not "${info}"`), null;
    const timeout = m[1] ? Number(m[1]) : CHECK_TIMEOUT;
    if (timeout < 1 || timeout > 600) return refuse(n, `a check's timeout is 1 to 600 seconds, not ${timeout}`), null;
    return { kind: "check", text, line: n, timeout };
  }
  if (tag === "hint" && info) {
    const m = info.match(/^fail=(?:"([^"]*)"|'([^']*)')$/);
    const fail = m ? (m[1] ?? m[2]).trim() : "";
    if (!m) return refuse(n, `a hint fence takes only fail="<text of a FAIL: line>" (the hint is offered when the step's check printed it), not "${info}"`), null;
    if (!fail) return refuse(n, `hint fail="": give a piece of the FAIL: line the hint answers`), null;
    return { kind: "hint", text, line: n, fail };
  }
  if (tag === "code") {
    const r = parseCodeInfo(info, body.join("\n").replace(/^\n+|\s+$/g, "") + "\n");
    if ("error" in r) return refuse(n, r.error), null;
    return { kind: "code", text, line: n, code: r.code };
  }
  if (info) return refuse(n, `a ${tag} fence takes nothing after its tag, not "${info}"`), null;
  if (tag === "question") {
    const r = parseQuestion(body.join("\n"));
    if ("error" in r) return refuse(n + r.line, `question: ${r.error}`), null;
    return { kind: "question", text, line: n, question: r.question };
  }
  if (tag === "expect") {
    const r = parseExpect(body.join("\n"));
    if ("error" in r) return refuse(n + r.line, `expect: ${r.error}`), null;
    return { kind: "expect", text, line: n, expect: r.expect };
  }
  if (tag === "predict") {
    const r = parsePredict(body.join("\n"));
    if ("error" in r) return refuse(n + r.line, `predict: ${r.error}`), null;
    return { kind: "predict", text, line: n, predict: r.predict };
  }
  return { kind: tag, text, line: n };
}