// The rules a lab's steps keep, once the file is read into steps and blocks (lab-format.ts
// parseLab): each broken one is an error at its line, or a warning where the lab still runs.
import { keyError, type KnownAnswer } from "./keys";
import { graderError, type KnownGrader } from "./code-block";
import type { LabMeta } from "./lab-meta";
import { CHALLENGE_MARK, READING_MARK, type LabBlock, type LabStep } from "./lab-blocks";

export interface RuleContext {
  /** the frontmatter, or null where it had errors (the rules that read it are passed over) */
  meta: LabMeta | null;
  /** the model answers and code graders a block may name; unchecked when absent */
  answers?: readonly KnownAnswer[];
  graders?: readonly KnownGrader[];
  /** steps a block of which was refused already: "empty" and "nothing to check" say nothing more of them */
  refusedIn: ReadonlySet<LabStep>;
  fail(line: number, msg: string): void;
  warn(line: number, detail: string): void;
}

/** Each step against the rules: not empty, predictions before their measurement, verdicts of the lab's views, keys and graders known, reading or checked. */
export function checkSteps(steps: readonly LabStep[], { meta, answers, graders, refusedIn, fail, warn }: RuleContext): void {
  for (const s of steps) {
    if (!s.blocks.length && !refusedIn.has(s)) fail(s.line, `step "${s.title}" is empty`);
    s.blocks.forEach((b, i) => {
      // a challenge's measurement is the learner's own doing: its checks wait for the prediction
      if (b.kind === "predict" && !s.challenge && !s.blocks.slice(i + 1).some((x) => x.kind === "vm"))
        fail(b.line, "a predict block comes before the measurement it asks about: a vm block after it in the same step");
    });
    // a step without a check passes at Next, measured or not: its learned block would open, and its
    // prediction be answered, with the measurement never run
    const predict = s.blocks.find((b) => b.kind === "predict");
    if (predict && !s.blocks.some((b) => b.kind === "check" || b.kind === "expect"))
      fail(predict.line, `step "${s.title}" asks a prediction but has no check or expect block: Next would pass it without the measurement; check that the step's commands ran`);
    if (meta)
      for (const b of s.blocks)
        if (b.kind === "expect")
          for (const x of b.expect)
            if (x.verdict !== undefined && !meta.views.includes(x.verdict))
              fail(b.line, `expect: verdict of view "${x.verdict}", which this lab does not show (its views: ${meta.views.join(", ") || "none"})`);
    stepRules(s, fail);
    if (answers)
      for (const b of s.blocks) {
        const key = b.kind === "predict" ? b.predict.key : b.kind === "question" ? b.question.key : undefined;
        const wrong = key && keyError(key, answers);
        if (wrong) fail(b.line, `${b.kind}: ${wrong}`);
      }
    if (graders)
      for (const b of s.blocks) {
        const wrong = b.kind === "code" && graderError(b.code.grader, graders);
        if (wrong) fail(b.line, wrong);
      }
    const checked = s.blocks.filter((b) => b.kind === "check" || b.kind === "expect" || b.kind === "predict" || b.kind === "code");
    if (s.reading && checked.length)
      fail(checked[0].line, `step "${s.title}" is marked as reading (${READING_MARK}) but has a ${checked[0].kind} block: remove one or the other`);
    else if (!s.reading && !checked.length && !refusedIn.has(s) && s.blocks.length) {
      warn(s.line, `step "${s.title}" has nothing to check (no check, expect or predict block): add one, or mark a step the learner only reads with a line ${READING_MARK}`);
    }
  }
}

/** A challenge's, a question's and a FAIL hint's rules: each broken one is an error at its line. */
function stepRules(s: LabStep, fail: (line: number, msg: string) => void) {
  const of = (k: LabBlock["kind"]) => s.blocks.filter((b) => b.kind === k);
  const checks = of("check");
  const outcome = checks.length || of("expect").length || of("code").length;
  codeRules(s, of, fail);
  if (s.challenge) {
    if (s.reading) fail(s.line, `step "${s.title}" is marked both as reading and as a challenge: remove one`);
    for (const b of of("vm"))
      fail(b.line, `step "${s.title}" is a challenge (${CHALLENGE_MARK}): it has no Run buttons, so no vm block; state the goal in the text and put set-up in the step before`);
    if (!outcome) fail(s.line, `step "${s.title}" is a challenge (${CHALLENGE_MARK}) but has no check or expect block: a challenge's check tests the outcome`);
    if (!of("solution").length) fail(s.line, `step "${s.title}" is a challenge (${CHALLENGE_MARK}) but has no solution block: the page offers it after a failed check, and fslab labs test runs it to prove the step can be done`);
  }
  for (const b of of("question"))
    if (!outcome) fail(b.line, `a question is answered from the learner's run once the step passes: step "${s.title}" needs a check or expect block`);
  for (const b of of("shortcut"))
    if (!outcome) fail(b.line, `a shortcut tries to pass the step's checks the wrong way: step "${s.title}" has no check or expect block for it to try`);
  // a FAIL hint's text must be in a FAIL: line of the step's checks, or it is never offered
  const failTexts = checks.flatMap((c) => (c.kind === "check" ? c.text.split("\n").filter((l) => l.includes("FAIL:")).map((l) => l.slice(l.indexOf("FAIL:") + 5).toLowerCase()) : []));
  for (const b of of("hint"))
    if (b.kind === "hint" && b.fail !== undefined && !failTexts.some((t) => t.includes(b.fail!.toLowerCase())))
      fail(b.line, `hint fail="${b.fail}": no FAIL: line of this step's checks contains that text, so the hint would never be offered${failTexts.length ? "" : " (the step's checks print no FAIL: line)"}`);
}

/** A code step: one code block, with one workload and a solution (the reference the test grades). */
function codeRules(s: LabStep, of: (k: LabBlock["kind"]) => LabBlock[], fail: (line: number, msg: string) => void) {
  const code = of("code");
  const workload = of("workload");
  for (const b of code.slice(1)) fail(b.line, `step "${s.title}" has a code block already (line ${code[0].line}): one function to write per step`);
  for (const b of workload.slice(1)) fail(b.line, `step "${s.title}" has a workload block already (line ${workload[0].line})`);
  if (!code.length) {
    for (const b of workload) fail(b.line, `a workload block is what a code step's grading runs: step "${s.title}" has no code block`);
    return;
  }
  if (!workload.length) fail(code[0].line, `a code block needs a workload block in its step: the shell the grading runs with tracing on`);
  if (!of("solution").length) fail(code[0].line, `a code block needs a solution block in its step: the reference function, which fslab labs test grades and the page offers after a failed grade`);
  for (const b of of("shortcut")) fail(b.line, `a code step's outcome is its grade: a shortcut cannot pass it (fslab labs test grades the starter, which must not pass)`);
  // the page never runs them there (step-checks.ts stepOutcome): accepted, they would check nothing
  for (const b of [...of("check"), ...of("expect")]) fail(b.line, `a code step's outcome is its grade: its ${b.kind} block would never run (put it in a step of its own)`);
}
