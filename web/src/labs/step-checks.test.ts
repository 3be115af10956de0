// The marks a check, a hint and a reset leave in a step's record (step-checks.ts).
import { describe, expect, it } from "vitest";
import { newStep } from "./progress";
import { CheckPace, POLL_MS, recordCheck, recordHint, recordReset } from "./step-checks";
import type { CheckOutcome } from "./checks";

const outcome = (ok: boolean, error = false): CheckOutcome => ({ ok, at: 1, items: [{ label: "x", ok, message: ok ? "fine" : "not yet", ...(error ? { error: true } : {}), output: "out" }] });

describe("a step's record", () => {
  it("a check counts as asked or the page's own, keeps its output, and marks the first pass once", () => {
    const s = newStep("t");
    recordCheck(s, "auto", outcome(false));
    recordCheck(s, "asked", outcome(false, true));
    expect(s).toMatchObject({ autoChecks: 1, attempts: 1, lastResult: "error", lastOutput: "out" });
    recordCheck(s, "asked", outcome(true));
    const first = s.passedAt!;
    expect(first).toBeGreaterThan(0);
    recordCheck(s, "auto", outcome(true));
    expect(s.passedAt).toBe(first);
    expect(s.lastResult).toBe("pass");
  });

  it("a hint is counted once, in the order shown, from a record that had only a count", () => {
    const s = { ...newStep("t"), hintsShown: 1 };
    recordHint(s, 2);
    recordHint(s, 2);
    expect(s.hintsSeen).toEqual([0, 2]);
    expect(s.hintsShown).toBe(2);
  });

  it("a reset undoes the pass, the skip, the run's answers and the last grade, and keeps the function's text", () => {
    const s = { ...newStep("t"), passedAt: 1, skippedAt: 2, questions: [null], questionTries: [2], code: { text: "int f;", grades: 3, last: { kind: "agree" as const, lines: [], at: 1 } } };
    recordReset(s);
    expect(s).toMatchObject({ resets: 1, questionTries: [2], code: { text: "int f;", grades: 3 } });
    expect(s.passedAt).toBeUndefined();
    expect(s.skippedAt).toBeUndefined();
    expect(s.questions).toBeUndefined();
    expect(s.code.last).toBeUndefined();
  });

  it("a reset keeps an answer judged with the model's key (the learner's problem, the same after any run): its key was shown", () => {
    const aboutRun = { question: "How many?", answer: "7", actual: "9", right: false, at: 1 };
    const aboutKernel = { question: "Which rule?", answer: "batch length", actual: "", key: "write starvation", right: false, at: 2 };
    const keyedRun = { question: "How many tails?", answer: "4", actual: "5", key: "5", right: false, at: 3 };
    const s = { ...newStep("t"), passedAt: 1, questions: [aboutRun, aboutKernel, keyedRun], questionTries: [1, 1, 1] };
    recordReset(s);
    expect(s.questions).toEqual([null, aboutKernel, keyedRun]);
    expect(s.questionTries).toEqual([1, 1, 1]);
  });
});

describe("the page's own checks' pace", () => {
  /** the seconds (from 0) at which a check is due, asked each POLL_MS; `skip`: those that did not run */
  const dueAt = (until: number, change: (t: number) => boolean, skip: (t: number) => boolean = () => false) => {
    const pace = new CheckPace(0, 0, 0);
    let lines = 0;
    const due: number[] = [];
    for (let t = POLL_MS; t <= until * 1000; t += POLL_MS) {
      if (change(t / 1000)) lines++;
      if (!pace.due(t, lines, 0, false)) continue;
      due.push(t / 1000);
      if (skip(t / 1000)) pace.skipped();
    }
    return due;
  };

  it("checks at once after a line, 3 s and 12 s later, then every 120 s while nothing changes", () => {
    expect(dueAt(300, (t) => t === 3)).toEqual([3, 6, 18, 138, 258]);
  });

  it("a due check that did not run (one still running, a command at the prompt) comes again 3 s later, not after a rest", () => {
    // the checks due at 6 and 9 s found the last still running: without the retry the next
    // would have come at 126 s, after a walk's two minutes
    expect(dueAt(60, (t) => t === 3, (t) => t === 6 || t === 9)).toEqual([3, 6, 9, 12, 24]);
    expect(dueAt(60, (t) => t === 3, (t) => t === 6)).toEqual([3, 6, 9, 21]);
  });
});
