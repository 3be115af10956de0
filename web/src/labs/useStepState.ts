// The state of a lab's open step: the learner's progress (kept in IndexedDB), the step's
// checks (on "Check", on Next, and on their own every few seconds while the step is open), its
// predictions measured once it passes, and the moves between steps.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Lab } from "./lab-format";
import type { SeenEvent, Verdict } from "./expect";
import { hasChecks, outcomeText, runChecks, type CheckOutcome } from "./checks";
import { saveProgress, StoreError, type LabProgress } from "./progress";
import type { VmHandle } from "../shared/machine";
import { commandActual, countedActual, type Prediction, type PredictionRecord } from "./predict";
import { asPrediction, judgeAnswer, type Question, type QuestionRecord } from "./question";
import { computeKey } from "./keys";
import { loadCoreWeb } from "../shared/core-web";
import { TOPICS } from "../topics";
import { codeStepOf, ensureGuestFile, gradeCode, gradeLines, graderMoment, loadGrader, readGuestFile, type CodeMoment, type GradeTraceCache } from "./code-grade";

/** How often an open step's checks run on their own. */
const POLL_MS = 3000;
/** the wait before the second check after a line (the first is POLL_MS after it) */
const POLL_QUIET_MS = 12_000;
/** the wait between a step's own checks once nothing has happened since the last */
const POLL_REST_MS = 120_000;

export interface StepStateOptions {
  lab: Lab;
  initial: LabProgress;
  vm: VmHandle | null;
  /** kernel events the page parsed since clearEvents() */
  events(): readonly SeenEvent[];
  clearEvents(): void;
  verdicts: Readonly<Record<string, Verdict>>;
  /** a step passed its checks for the first time (after its predictions were measured) */
  onPassed(step: number, title: string): void;
  setProblem(p: string): void;
}

export function useStepState({ lab, initial, vm, events, clearEvents, verdicts, onPassed, setProblem }: StepStateOptions) {
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
  /** what the code step's grading is doing now, for its button; null: nothing */
  const [grading, setGrading] = useState<string | null>(null);
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
        // a code step's verdict is its last grade (gradeFunction): nothing to run in the guest
        const graded = progressRef.current.steps[n].code?.last;
        const o: CheckOutcome = code
          ? { ok: graded?.kind === "agree", at: Date.now(), items: [{ label: "your function", ok: graded?.kind === "agree", message: graded ? graded.lines.join("\n") : "Compile and grade your function: the step passes once it agrees with your kernel in every decision.", ...(graded?.kind === "error" ? { error: true } : {}) }] }
          : await runChecks(step, vm, events(), verdicts);
        if (progressRef.current.step !== n) return null; // the learner moved on meanwhile
        // the poll's failures are shown once a result is (a Check asked for, or a pass): a step
        // that opened in red, "Not yet.", before the learner had done anything read as a mistake
        setOutcome((shown) => (why === "auto" && !o.ok && shown === null ? shown : o));
        const wasPassed = !!progressRef.current.steps[n].passedAt;
        update((p) => {
          const s = p.steps[n];
          if (why === "auto") s.autoChecks++;
          else s.attempts++;
          s.lastResult = o.ok ? "pass" : o.items.some((i) => i.error) ? "error" : "fail";
          s.lastOutput = o.items.map((i) => i.output ?? i.message).join("\n").slice(0, 4000);
          if (o.ok && !s.passedAt) s.passedAt = Date.now();
        });
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

  /** What the kernel did, as a prediction's `actual:` or a question's `answer:` says where to find it. */
  const measure = async (p: Prediction, before = 0): Promise<string | null> => {
    if (!vm) return null;
    if ("command" in p.actual) {
      const r = await vm.check(p.actual.command, 30).catch(() => null);
      return r && r.status === 0 ? commandActual(r.output) : null;
    }
    // the stream lags the guest: count again until no new event arrives for 1.5 s (at most 30 s)
    let count = countedActual(p, events(), before);
    for (let last = null as string | null, t = 0; count !== last && t < 20; t++) {
      last = count;
      await new Promise((r) => setTimeout(r, 1500));
      count = countedActual(p, events(), before);
    }
    return count;
  };

  /** What the kernel did, beside each prediction the learner made in this step. */
  const measureActuals = async () => {
    const preds = step.blocks.flatMap((b) => (b.kind === "predict" ? [b.predict] : []));
    const recs = progressRef.current.steps[n].predictions ?? [];
    if (!vm || !preds.some((_, i) => recs[i])) return;
    const found: Array<string | null> = [];
    for (const [i, p] of preds.entries()) found.push(await measure(p, recs[i]?.countedBefore ?? 0));
    if (progressRef.current.step !== n) return;
    update((pr) => {
      const list = pr.steps[n].predictions ?? [];
      found.forEach((a, i) => {
        if (list[i] && a !== null) list[i]!.actual = a;
      });
      pr.steps[n].predictions = list;
    });
  };

  /**
   * A prediction answered (guess null: "no guess"). Its actual counts only what the kernel does
   * from now on; if the kernel had already done it (its events are in the step's stream, or
   * commands were entered since the step opened, for a command's answer) it is marked as made
   * after measuring.
   */
  const predict = (i: number, p: Prediction, guess: string | null) => {
    const countedBefore = "count" in p.actual ? Number(countedActual(p, events()) ?? 0) : 0;
    const typed = linesAtOpen.current !== null && vm !== null && vm.shellLines() !== linesAtOpen.current;
    const afterMeasuring = "count" in p.actual ? countedBefore > 0 : typed;
    update((pr) => {
      const list = pr.steps[n].predictions ?? [];
      while (list.length <= i) list.push(null);
      list[i] = { question: p.question, guess, at: Date.now(), ...(afterMeasuring ? { afterMeasuring } : {}), ...(countedBefore ? { countedBefore } : {}) } satisfies PredictionRecord;
      pr.steps[n].predictions = list;
    });
  };

  /**
   * A question answered: the right answer measured in this learner's machine now, theirs judged
   * against it, both kept. An error (nothing measured) leaves the question open.
   */
  const answer = async (i: number, q: Question, given: string): Promise<{ error: string } | null> => {
    // a question the key alone answers has nothing to measure in the run
    const actual = q.answer ? await measure(asPrediction(q)) : "";
    if (actual === null) return { error: "Your machine did not give this question's answer (is the step's run still there? Reset this step if it was undone)." };
    // a question with a key is judged against the model's answer for this learner's problem
    let key: string | undefined;
    if (q.key)
      try {
        // a key that reads the learner's disk reads it from their machine now
        key = await computeKey(TOPICS, q.key, loadCoreWeb, vm ? (name) => vm.readSharedFile(name) : undefined);
      } catch (e) {
        return { error: `The model's answer for your problem could not be computed (${e instanceof Error ? e.message : e}): try again.` };
      }
    if (progressRef.current.step !== n) return null;
    update((pr) => {
      const s = pr.steps[n];
      const list = s.questions ?? [];
      while (list.length <= i) list.push(null);
      list[i] = { question: q.question, answer: given, actual, ...(key !== undefined ? { key } : {}), right: judgeAnswer(q, given, key ?? actual), at: Date.now() } satisfies QuestionRecord;
      s.questions = list;
      const tries = s.questionTries ?? [];
      while (tries.length <= i) tries.push(0);
      tries[i]++;
      s.questionTries = tries;
    });
    return null;
  };

  /** A hint revealed: its index among the step's hints. */
  const showHint = (k: number) =>
    update((p) => {
      const s = p.steps[n];
      const seen = s.hintsSeen ?? Array.from({ length: s.hintsShown }, (_, j) => j);
      if (!seen.includes(k)) seen.push(k);
      s.hintsSeen = seen;
      s.hintsShown = seen.length;
    });

  /**
   * Before a step's commands run: the earlier steps they build on that have not passed (a jump
   * ahead in the outline, a skip), checked in the guest now. null: go ahead. Passed steps are
   * not rechecked: a later step may rightly undo what they set up (an unmount, a new volume).
   */
  const earlierUndone = async (checking?: () => void): Promise<{ step: number; message: string } | null> => {
    if (!vm) return null;
    for (let k = 0; k < n; k++) {
      const s = lab.steps[k];
      if (progressRef.current.steps[k].passedAt || !s.blocks.some((b) => b.kind === "check")) continue;
      checking?.();
      const guestOnly = { ...s, blocks: s.blocks.filter((b) => b.kind === "check") };
      const o = await runChecks(guestOnly, vm, [], {});
      if (!o.ok && !o.items.some((x) => x.error)) return { step: k, message: outcomeText(o) };
    }
    return null;
  };

  // checks on their own while the step is open, until it passes: every POLL_MS while the
  // learner works in the shell, then 12 s after that, then not at all
  // while nothing changes (no line entered, no command running, no kernel event arrived), but
  // for one check every POLL_REST_MS (a job left running in the background). A check runs in the
  // guest, and its programs make v86 compile code afresh: about 1.3 s of the page's CPU each,
  // measured in Chromium on a 2-core machine (.scratch threads, 2026-11-29), against 3.3% of a
  // core for the guest at rest; checks every 24 s took an idle lab page to 12-19%.
  useEffect(() => {
    if (!vm || passed || !checked || code) return;
    let lines = vm.shellLines();
    let seen = events().length;
    let rest = POLL_MS;
    let last = performance.now();
    const t = setInterval(() => {
      const now = vm.shellLines();
      const arrived = events().length;
      if (now !== lines || vm.shellBusy() || arrived !== seen) {
        lines = now; // the learner works (a command running waits for its prompt: check() skips it)
        seen = arrived;
        rest = POLL_MS;
      } else if (performance.now() - last < rest - POLL_MS / 2) return;
      else rest = rest >= POLL_QUIET_MS ? POLL_REST_MS : POLL_QUIET_MS;
      last = performance.now();
      void check("auto");
    }, POLL_MS);
    return () => clearInterval(t);
  }, [vm, passed, checked, check]);

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
  const markReset = () =>
    update((p) => {
      const s = p.steps[n];
      s.resets++;
      delete s.passedAt;
      delete s.skippedAt;
      // the run a question asked about is undone: it is asked again of the next (tries are kept)
      delete s.questions;
      // so is the run a function was graded on (its text is the learner's, and stays)
      if (s.code) delete s.code.last;
    });

  /** The machine came back as the step began: a reset (`after` unset) also undoes the step's marks. */
  const restored = (after?: "crash") => {
    clearEvents();
    setOutcome(null);
    setFailedAsked(false);
    if (after !== "crash") markReset();
  };

  // Alt+Shift+Right / Left: next and previous step, wherever focus is but the terminal
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || !e.shiftKey || (e.key !== "ArrowRight" && e.key !== "ArrowLeft")) return;
      if ((e.target as Element | null)?.closest?.(".vm-terminal")) return;
      e.preventDefault();
      if (e.key === "ArrowRight") void next();
      else go(n - 1);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });

  /** The code step's text as the learner types (kept with their progress, not yet in the guest). */
  const codeText = (text: string) =>
    update((p) => {
      const s = p.steps[n];
      s.code = { grades: 0, ...s.code, text };
    });

  /** the last grade's divergence, for the topic's view of it (this page only: not in the progress) */
  const [moment, setMoment] = useState<CodeMoment | null>(null);

  /** each code step's recorded workload, for this page's later grades (code-grade.ts GradeTraceCache) */
  const gradeTraces = useRef<Record<number, GradeTraceCache>>({});

  /** The learner's file as the guest has it (an edit made in the terminal). */
  const reloadCode = async (): Promise<string | null> => (vm && code ? readGuestFile(vm, code.code.file) : null);

  /** "Compile and grade": the text into the guest's file, the workload traced, the function judged (code-grade.ts). */
  const gradeFunction = async (text: string) => {
    if (!vm || !code || grading !== null) return;
    // the step's workload is recorded at its first grade; later grades replay that run
    const cache = (gradeTraces.current[n] ??= {});
    setGrading(cache.trace ? "Grading against your kernel's recorded run…" : "Recording your kernel and grading…");
    try {
      const grader = await loadGrader(TOPICS, code.code.grader);
      const r = await gradeCode(vm, grader, { file: code.code.file, workload: code.workload }, text, cache).catch((e): Awaited<ReturnType<typeof gradeCode>> => ({ kind: "error", message: e instanceof Error ? e.message : String(e) }));
      if (progressRef.current.step !== n) return;
      const lines = gradeLines(r, code.code.file.split("/").pop()!);
      const load = graderMoment(TOPICS, code.code.grader);
      setMoment(r.kind === "diverge" && r.moment && load ? { step: n, at: r.at, ...r.moment, load } : null);
      update((p) => {
        const s = p.steps[n];
        const failed = r.kind === "compile" || r.kind === "crash" || r.kind === "diverge";
        s.code = {
          ...s.code,
          text,
          grades: (s.code?.grades ?? 0) + 1,
          last: { kind: r.kind, lines, at: Date.now(), ...(r.kind === "compile" ? { messages: r.messages } : {}) },
          ...(failed && lines[0] ? { lastFailure: lines[0].slice(0, 300) } : {}),
        };
      });
      // the learner's own failed attempt offers the reference, as a challenge's failed check does
      if (r.kind !== "agree" && r.kind !== "error") setFailedAsked(true);
      await check("asked");
    } finally {
      setGrading(null);
    }
  };

  // a code step opening: the learner's file goes into the guest if it is not there yet, so an
  // editor in the terminal finds it (never over a file made there meanwhile: ensureGuestFile)
  const [fileIn, setFileIn] = useState<{ vm: VmHandle; step: number } | null>(null);
  useEffect(() => {
    if (!vm || !code) return;
    let live = true;
    void ensureGuestFile(vm, code.code.file, progressRef.current.steps[n].code?.text ?? code.code.starter)
      .catch(() => {}) // the grade writes it anyway
      .then(() => live && setFileIn({ vm, step: n }));
    return () => {
      live = false;
    };
  }, [vm, n]);
  /** the open code step's file is in this machine (written, or found there): what the guest has can be compared */
  const codeFileIn = !!vm && fileIn?.vm === vm && fileIn.step === n;

  /** how long the open step has been open: added to the progress only as it closes */
  const openMs = () => performance.now() - openedAt.current;

  return { code, grading, codeText, reloadCode, gradeFunction, codeFileIn, moment: moment?.step === n ? moment : null, progress, progressRef, n, step, rec, passed, checked, predictsOpen, failedAsked, outcome, checking, waitingShell, offerSkip, heading, update, check, predict, answer, showHint, earlierUndone, go, next, skip, restored, openMs };
}
