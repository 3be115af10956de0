// Running a step's checks: its `check` blocks through the guest's agent, its `expect` blocks
// against the kernel events seen since the step opened and the views' verdicts.
import type { LabStep } from "./lab-format";
import { describeExpectation, judge, type Expectation, type SeenEvent, type Verdict } from "./expect";
import { failLines } from "../vm/machine/agent";
import type { VmHandle } from "../shared/machine";

export interface CheckItem {
  /** what was checked, for the learner */
  label: string;
  ok: boolean;
  /** what is wrong, in the check's own words (its FAIL: lines) or the page's */
  message: string;
  output?: string;
  /** the agent could not run it (no agent, the machine was reset): not the learner's fault */
  error?: boolean;
  roundTripMs?: number;
}

export interface CheckOutcome {
  ok: boolean;
  items: CheckItem[];
  at: number;
}

export function hasChecks(step: LabStep): boolean {
  return step.blocks.some((b) => b.kind === "check" || b.kind === "expect");
}

/**
 * The commands a walk through the lab runs for a step, as a learner who takes its solution
 * would: its solution blocks, or without one its vm blocks (`fslab labs test`, walk.e2e).
 */
export function commandsOf(step: LabStep): LabStep["blocks"] {
  // a code step's solution is C, the reference function: its grading runs it, not the shell
  const solution = step.blocks.some((b) => b.kind === "code") ? [] : step.blocks.filter((b) => b.kind === "solution");
  return solution.length ? solution : step.blocks.filter((b) => b.kind === "vm");
}

/**
 * Which of runChecks' items (by place) a guest alone can judge: each check block, and each
 * event expectation. An expectation of a view's verdict needs the page's view, and is left out.
 */
export function guestJudged(step: LabStep): boolean[] {
  return step.blocks.flatMap((b) => (b.kind === "check" ? [true] : b.kind === "expect" ? b.expect.map(judgedByGuest) : []));
}

/** An event expectation is judged from the guest's trace; a view's verdict only in the page. */
const judgedByGuest = (x: Expectation) => !x.verdict;

/** The step with only what a guest can judge (`fslab labs test` has no page): views' verdicts left out. */
export function guestSide(step: LabStep): LabStep {
  return {
    ...step,
    blocks: step.blocks
      .map((b) => (b.kind === "expect" ? { ...b, expect: b.expect.filter(judgedByGuest) } : b))
      .filter((b) => b.kind !== "expect" || b.expect.length > 0),
  };
}

export async function runChecks(
  step: LabStep,
  vm: Pick<VmHandle, "check">,
  events: readonly SeenEvent[],
  verdicts: Readonly<Record<string, Verdict>>,
): Promise<CheckOutcome> {
  const items: CheckItem[] = [];
  for (const b of step.blocks) {
    if (b.kind === "check") {
      const label = b.text.split("\n")[0] + (b.text.includes("\n") ? " …" : "");
      try {
        const r = await vm.check(b.text, b.timeout);
        const fails = failLines(r.output);
        const ok = r.status === 0;
        const message = ok
          ? "passed"
          : r.status === "timeout"
            ? `The check did not finish within ${b.timeout} s and was stopped.`
            : fails.length
              ? fails.join("\n")
              : `Not yet: the check exited with status ${r.status} and said nothing more.`;
        items.push({ label, ok, message, output: r.output, roundTripMs: r.roundTripMs });
      } catch (e) {
        items.push({ label, ok: false, error: true, message: `The check could not run: ${e instanceof Error ? e.message : e}` });
      }
    } else if (b.kind === "expect") {
      for (const x of b.expect) {
        const r = judge(x, events, verdicts);
        items.push({ label: describeExpectation(x), ok: r.ok, message: r.message });
      }
    }
  }
  return { ok: items.every((i) => i.ok), items, at: Date.now() };
}

/** What a failed outcome says, in a few lines: the learner-facing part of the record. */
export function outcomeText(o: CheckOutcome): string {
  return o.items.filter((i) => !i.ok).map((i) => i.message).join("\n");
}
