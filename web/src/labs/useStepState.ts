// The state of a lab's open step: the learner's progress (kept in IndexedDB), the step's
// checks (on "Check", on Next, and on their own every few seconds while the step is open), its
// predictions measured once it passes, and the moves between steps.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Lab } from "./lab-format";
import type { SeenEvent, Verdict } from "./expect";
import { hasChecks, type CheckOutcome } from "./checks";
import { saveProgress, StoreError, type LabProgress } from "./progress";
import type { VmHandle } from "../shared/machine";
import { stepAnswers } from "./step-answers";
import type { Prediction } from "./predict";
import { codeStepOf } from "./code-grade";
import { useCodeStep } from "./useCodeStep";
import { earlierUndone as undoneBefore, POLL_MS, recordCheck, recordHint, recordReset, stepOutcome, useAutoChecks } from "./step-checks";

export interface StepStateOptions {
  lab: Lab;
  initial: LabProgress;
  vm: VmHandle | null;
  /** counts the machine ready again on the same handle (a reset, a restore): the code step puts its file back */
  machineGen: number;
  /** kernel events the page parsed since clearEvents() */
  events(): readonly SeenEvent[];
  clearEvents(): void;
  verdicts: Readonly<Record<string, Verdict>>;
  /** a step passed its checks for the first time (after its predictions were measured) */
  onPassed(step: number, title: string): void;
  setProblem(p: string): void;
}

export function useStepState({ lab, initial, vm, machineGen, events, clearEvents, verdicts, onPassed, setProblem }: StepStateOptions) {
  const [progress, setProgress] = useState(initial);
  const [outcome, setOutcome] = useState<CheckOutcome | null>(null);
  const [checking, setChecking] = useState(false);
  /** a check asked for while the learner's command runs waits for the prompt: the panel says so */
  const [waitingShell, setWaitingShell] = useState(false);
  const [offerSkip, setOfferSkip] = useState(false);
  /** a check the learner asked for failed while this step was open: a challenge's solution may be shown */
  const [failedAsked, setFailedAsked] = useState(false);
  const openedAt = useRef(performance.now());
  /** the shell's count of entered lines as the step opened: a command's answer guessed after lines were entered is marked */
  const linesAtOpen = useRef<number | null>(null);
  /** a set-up Run above the step's prediction is running: the lines entered are its */
  const setUpRunning = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const movedTo = useRef(false);
  const checkingRef = useRef(false);
  const progressRef = useRef(progress);
  progressRef.current = progress;
  const passedRef = useRef(onPassed);
  passedRef.current = onPassed;

  const n = progress.step;
  const step = lab.steps[n];
  const rec = progress.steps[n];
  const passed = !!rec.passedAt;
  const code = codeStepOf(step);
  /** a code step passes by its grade, not by checks: it is "checked" all the same (Next does not pass it) */
  const checked = hasChecks(step) || code !== null;
  /** a prediction of this step is unanswered: its hints, its solution (and a challenge's checks) wait */
  const predictsOpen = step.blocks.filter((b) => b.kind === "predict").some((_, i) => !rec.predictions?.[i]);

  /** Change the progress, and store it (a store error is shown, the page goes on). */
  const update = useCallback((f: (p: LabProgress) => void) => {
    const p = structuredClone(progressRef.current);
    f(p);
    progressRef.current = p;
    setProgress(p);
    saveProgress(p).catch((e) => setProblem(e instanceof StoreError ? e.message : String(e)));
  }, []);

  // A step opens: what was shown of the one before goes in the same render (React's "adjusting
  // state when a prop changes"), not in an effect after it: a page never shows the new step with
  // the last one's verdict (a test reading the verdict as the step opened met it).
  const [shownStep, setShownStep] = useState(n);
  if (shownStep !== n) {
    setShownStep(n);
    setOutcome(null);
    setOfferSkip(false);
    setFailedAsked(false);
  }
  // Its events start from now (the machine's snapshot: useStepMachine).
  useEffect(() => {
    clearEvents();
    openedAt.current = performance.now();
    linesAtOpen.current = vm?.shellLines() ?? null;
    // focus follows the learner to a step they moved to, not to the first one on page load
    if (movedTo.current) heading.current?.focus();
    movedTo.current = true;
    return () => {
      const ms = performance.now() - openedAt.current;
      update((p) => (p.steps[n].openMs += ms));
    };
  }, [n]);

  // A machine arriving after the step opened (a page opened on the step; a new machine after a
  // crash or "Try again"; a handle is one machine's, kept over its resets) counts its own lines
  // from its arrival. What was measured on the machine before stays marked (noteMeasured, as
  // the effect below closes).
  useEffect(() => {
    if (vm) linesAtOpen.current = vm.shellLines();
  }, [vm]);

  const { measureActuals, predict, answer, noteMeasured } = stepAnswers({ vm, events, step, n, progressRef, update, linesAtOpen });
  // An open prediction measured already is kept in the progress as it is found (at the checks'
  // pace: no more wakes of an idle page), as the page is hidden or left (the journal's write is
  // at once), as the machine is put back (restored, below), and as the step closes. Lines
  // count but while a set-up Run above the prediction runs (they are its, once it ends).
  useEffect(() => {
    if (!vm || !predictsOpen) return;
    const poll = setInterval(() => noteMeasured(!setUpRunning.current), POLL_MS);
    const leave = () => noteMeasured(!setUpRunning.current);
    const hide = () => document.visibilityState === "hidden" && leave();
    document.addEventListener("visibilitychange", hide);
    window.addEventListener("pagehide", leave); // (a reload's comes before the page is hidden)
    return () => {
      clearInterval(poll);
      document.removeEventListener("visibilitychange", hide);
      window.removeEventListener("pagehide", leave);
      noteMeasured(!setUpRunning.current);
    };
  }, [vm, predictsOpen, n]);
  /**
   * A Run button above the step's first prediction ran its set-up (a volume made, a trace
   * started): those lines are not the measurement, so a guess made after them is not "after
   * measuring", unless the learner had typed something else before it.
   */
  const setUpRan = useCallback((before: number, after: number | null) => {
    setUpRunning.current = after === null;
    if (after !== null && linesAtOpen.current === before) linesAtOpen.current = after;
  }, []);

  const check = useCallback(
    async (why: "auto" | "asked"): Promise<CheckOutcome | null> => {
      if (!vm || checkingRef.current) return null;
      // a check run beside the learner's command could get in its way (both mounting one volume):
      // the poll lets a running command be, and a check asked for waits for the prompt
      if (why === "auto" && (vm.shellBusy() || vm.stopped())) return null; // nor a stopped machine: it is restored first
      // the measurement comes after the guess: a step with a prediction is checked (and can
      // pass, showing what it taught) only once the prediction is answered or declined
      const pr = progressRef.current.steps[n];
      if (step.blocks.filter((b) => b.kind === "predict").some((_, i) => !pr.predictions?.[i])) {
        if (why === "asked")
          setOutcome({ ok: false, at: Date.now(), items: [{ label: "the prediction", ok: false, error: true, message: "Answer the prediction above first (or choose No guess): this step is checked after it." }] });
        return null;
      }
      checkingRef.current = true;
      setChecking(true);
      try {
        if (vm.shellBusy()) {
          setWaitingShell(true);
          await vm.whenIdle().finally(() => setWaitingShell(false));
        }
        const o = await stepOutcome(step, code !== null, progressRef.current.steps[n].code?.last, vm, events(), verdicts);
        if (progressRef.current.step !== n) return null; // the learner moved on meanwhile
        // the poll's failures are shown once a result is (a Check asked for, or a pass): a step
        // that opened in red, "Not yet.", before the learner had done anything read as a mistake
        setOutcome((shown) => (why === "auto" && !o.ok && shown === null ? shown : o));
        const wasPassed = !!progressRef.current.steps[n].passedAt;
        update((p) => recordCheck(p.steps[n], why, o));
        if (why === "asked" && !o.ok && !o.items.some((i) => i.error)) setFailedAsked(true);
        if (o.ok) await measureActuals();
        if (o.ok && !wasPassed) passedRef.current(n, step.title);
        return o;
      } finally {
        checkingRef.current = false;
        setChecking(false);
      }
    },
    [vm, step, n, verdicts, events],
  );

  /** A hint revealed: its index among the step's hints. */
  const showHint = (k: number) => update((p) => recordHint(p.steps[n], k));

  /** Before the step's commands run: the earlier steps they build on, if undone (step-checks.ts). */
  const earlierUndone = async (checking?: () => void) => (vm ? undoneBefore(lab, n, progressRef.current, vm, checking) : null);

  // checks on their own while the step is open, until it passes (a code step passes by its grade)
  useAutoChecks(vm, !passed && checked && !code, events, check);

  const go = (to: number) => {
    if (to < 0 || to >= lab.steps.length) return;
    update((p) => (p.step = to));
  };

  const next = async () => {
    if (passed || !checked) {
      if (!checked && !rec.passedAt) update((p) => (p.steps[n].passedAt = Date.now()));
      return go(n + 1 < lab.steps.length ? n + 1 : n);
    }
    const o = await check("asked");
    if (o?.ok) go(n + 1 < lab.steps.length ? n + 1 : n);
    else setOfferSkip(true);
  };

  const skip = () => {
    update((p) => (p.steps[n].skippedAt = Date.now()));
    go(n + 1);
  };

  /** a reset undoes the step's marks (a restore after a crash keeps them) */
  const markReset = () => update((p) => recordReset(p.steps[n]));

  /** The machine came back as the step began: a reset (`after` unset) also undoes the step's marks. */
  const restored = (after?: "crash") => {
    // what was measured in the run it undoes stays marked (the events go now)
    noteMeasured(!setUpRunning.current);
    clearEvents();
    setOutcome(null);
    setFailedAsked(false);
    if (after !== "crash") markReset();
  };

  useStepKeys(() => void next(), () => go(n - 1));

  const codeStep = useCodeStep({ vm, n, code, progressRef, update, check, onFailed: () => setFailedAsked(true), machineGen });

  /** how long the open step has been open: added to the progress only as it closes */
  const openMs = () => performance.now() - openedAt.current;

  return { code, ...codeStep, progress, progressRef, n, step, rec, passed, checked, predictsOpen, failedAsked, outcome, checking, waitingShell, offerSkip, heading, update, check, predict: (i: number, p: Prediction, guess: string | null) => predict(i, p, guess, !setUpRunning.current), setUpRan, answer, showHint, earlierUndone, go, next, skip, restored, openMs };
}

/** Alt+Shift+Right / Left: next and previous step, wherever focus is but the terminal. */
function useStepKeys(next: () => void, previous: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || !e.shiftKey || (e.key !== "ArrowRight" && e.key !== "ArrowLeft")) return;
      if ((e.target as Element | null)?.closest?.(".vm-terminal")) return;
      e.preventDefault();
      if (e.key === "ArrowRight") next();
      else previous();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });
}
