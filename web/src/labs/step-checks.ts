// What a step's check does, apart from the page's state: the outcome (a code step's is its last
// grade; another step's, its checks run in the guest), the marks it leaves in the step's record,
// the earlier steps a step's commands build on, and the checks the page runs on its own.
import { useEffect } from "react";
import type { Lab, LabStep } from "./lab-format";
import type { SeenEvent, Verdict } from "./expect";
import { outcomeText, runChecks, type CheckOutcome } from "./checks";
import type { CodeRecord, LabProgress, StepRecord } from "./progress";
import type { VmHandle } from "../shared/machine";

/** How often an open step's checks run on their own. */
export const POLL_MS = 3000;
/** the wait before the second check after a line (the first is POLL_MS after it) */
const POLL_QUIET_MS = 12_000;
/** the wait between a step's own checks once nothing has happened since the last */
const POLL_REST_MS = 120_000;

/** The outcome of checking `step` now: a code step's is its last grade (nothing runs in the guest). */
export async function stepOutcome(step: LabStep, isCode: boolean, graded: CodeRecord["last"], vm: VmHandle, events: readonly SeenEvent[], verdicts: Readonly<Record<string, Verdict>>): Promise<CheckOutcome> {
  if (!isCode) return runChecks(step, vm, events, verdicts);
  const agree = graded?.kind === "agree";
  const message = graded ? graded.lines.join("\n") : "Compile and grade your function: the step passes once it agrees with your kernel in every decision.";
  return { ok: agree, at: Date.now(), items: [{ label: "your function", ok: agree, message, ...(graded?.kind === "error" ? { error: true } : {}) }] };
}

/** The marks a check leaves in its step's record (`why`: the page's own, or asked for). */
export function recordCheck(s: StepRecord, why: "auto" | "asked", o: CheckOutcome): void {
  if (why === "auto") s.autoChecks++;
  else s.attempts++;
  s.lastResult = o.ok ? "pass" : o.items.some((i) => i.error) ? "error" : "fail";
  s.lastOutput = o.items.map((i) => i.output ?? i.message).join("\n").slice(0, 4000);
  if (o.ok && !s.passedAt) s.passedAt = Date.now();
}

/** A reset undoes the step's marks (a restore after a crash keeps them). */
export function recordReset(s: StepRecord): void {
  s.resets++;
  delete s.passedAt;
  delete s.skippedAt;
  // the run a question asked about is undone: it is asked again of the next (tries are kept).
  // A question with a key (the model's answer for the learner's problem, measured in the run
  // or not) has the same key after any run, and the page showed it beside the answer: its
  // answer stands, or a reset would let the key be copied back
  const stands = s.questions?.map((q) => (q && q.key !== undefined ? q : null));
  if (stands?.some((q) => q)) s.questions = stands;
  else delete s.questions;
  // so is the run a function was graded on (its text is the learner's, and stays)
  if (s.code) delete s.code.last;
}

/** A hint revealed: its index `k` among the step's hints, in the order shown. */
export function recordHint(s: StepRecord, k: number): void {
  const seen = s.hintsSeen ?? Array.from({ length: s.hintsShown }, (_, j) => j);
  if (!seen.includes(k)) seen.push(k);
  s.hintsSeen = seen;
  s.hintsShown = seen.length;
}

/**
 * Before step `n`'s commands run: the earlier steps they build on that have not passed (a jump
 * ahead in the outline, a skip), checked in the guest now. null: go ahead. Passed steps are not
 * rechecked: a later step may rightly undo what they set up (an unmount, a new volume).
 */
export async function earlierUndone(lab: Lab, n: number, progress: LabProgress, vm: VmHandle, checking?: () => void): Promise<{ step: number; message: string } | null> {
  for (let k = 0; k < n; k++) {
    const s = lab.steps[k];
    if (progress.steps[k].passedAt || !s.blocks.some((b) => b.kind === "check")) continue;
    checking?.();
    const guestOnly = { ...s, blocks: s.blocks.filter((b) => b.kind === "check") };
    const o = await runChecks(guestOnly, vm, [], {});
    if (!o.ok && !o.items.some((x) => x.error)) return { step: k, message: outcomeText(o) };
  }
  return null;
}

/**
 * Checks on their own while the step is open (`on`), until it passes: every POLL_MS while the
 * learner works in the shell, then 12 s after that, then not at all while nothing changes (no
 * line entered, no command running, no kernel event arrived), but for one check every
 * POLL_REST_MS (a job left running in the background). A check runs in the guest, and its
 * programs make v86 compile code afresh: the first checks after the page opened cost 0.5-0.85 s
 * of the page's CPU each, later ones less, against 2% of a core for the guest at rest (Chromium,
 * 2 cores, 2026-12-07: `fslab bench idle`); checks every 24 s once took an idle lab page to 12-19%.
 */
export function useAutoChecks(vm: VmHandle | null, on: boolean, events: () => readonly SeenEvent[], check: (why: "auto") => Promise<unknown>): void {
  useEffect(() => {
    if (!vm || !on) return;
    const pace = new CheckPace(performance.now(), vm.shellLines(), events().length);
    const t = setInterval(() => {
      if (!pace.due(performance.now(), vm.shellLines(), events().length, vm.shellBusy())) return;
      // a check that did not run (one already running, a command at the prompt, a guess still
      // to make) is no answer: the next comes at the working pace, not a rest later
      void check("auto").then((o) => o === null && pace.skipped());
    }, POLL_MS);
    return () => clearInterval(t);
  }, [vm, on, check]);
}

/**
 * When the page's own check is due, asked every POLL_MS: at once after a new line, a command
 * running or a kernel event (the learner works), then POLL_QUIET_MS later, then every
 * POLL_REST_MS while nothing changes. A check that was due but did not run puts the pace back.
 */
export class CheckPace {
  private rest = POLL_MS;
  constructor(
    private last: number,
    private lines: number,
    private seen: number,
  ) {}

  due(now: number, lines: number, seen: number, busy: boolean): boolean {
    if (lines !== this.lines || busy || seen !== this.seen) {
      this.lines = lines; // a command running waits for its prompt: check() skips it
      this.seen = seen;
      this.rest = POLL_MS;
    } else if (now - this.last < this.rest - POLL_MS / 2) return false;
    else this.rest = this.rest >= POLL_QUIET_MS ? POLL_REST_MS : POLL_QUIET_MS;
    this.last = now;
    return true;
  }

  skipped(): void {
    this.rest = POLL_MS;
  }
}
