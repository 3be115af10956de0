// A lab one step at a time: the outline (step N of M, a mark on each passed step), the step's
// text and commands, its checks (on "Check", on Next, and on their own every few seconds while
// the step is open), hints one at a time, the solution on request; the machine snapshotted as
// each step opens so "Reset this step" can put it back; progress kept in IndexedDB.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { renderInlineMarkdown, renderMarkdown } from "./markdown";
import type { Lab, LabStep } from "./lab-format";
import { describeExpectation, type SeenEvent, type Verdict } from "./expect";
import { hasChecks, outcomeText, runChecks, type CheckOutcome } from "./checks";
import { clearLab, dropSnapshots, getSnapshot, putSnapshot, saveProgress, StoreError, type LabProgress } from "./progress";
import { progressExport } from "./report";
import { gunzip, gzip, HERE } from "../vm/snapshot";
import type { VmHandle } from "../vm/VmConsole";
import { commandActual, countedActual, near, parseGuess, type Prediction, type PredictionRecord } from "./predict";

/** How often an open step's checks run on their own. */
const POLL_MS = 3000;

export interface RunnerProps {
  lab: Lab;
  progress: LabProgress;
  vm: VmHandle | null;
  /** the step whose snapshot the machine was started from (a reload), if it was */
  restoredStep: number | null;
  /** kernel events the page parsed since clearEvents() */
  events(): readonly SeenEvent[];
  clearEvents(): void;
  verdicts: Readonly<Record<string, Verdict>>;
  /** a step passed its checks (for an embedding page) */
  onStepPassed?(step: number, title: string): void;
  /** counts up when an embedding page asks to reset the current step */
  resetRequest?: number;
  /** counts up when the learner asks for the machine back after a panic, an oops or a full disk */
  machineRequest?: number;
}

interface Timing {
  snapshotMs?: number;
  snapshotBytes?: number;
  /** the step whose start the newest step snapshot holds */
  snapshotStep?: number;
  /** the newest snapshot's (the figures above): a step's start, or the machine as a step passed */
  snapshotKind?: "step" | "latest";
  snapshotOf?: number;
  rawBytes?: number;
  resetMs?: number;
}

export function LabRunner({ lab, progress: initial, vm, restoredStep, events, clearEvents, verdicts, onStepPassed, resetRequest, machineRequest }: RunnerProps) {
  const [progress, setProgress] = useState(initial);
  const [outcome, setOutcome] = useState<CheckOutcome | null>(null);
  const [checking, setChecking] = useState(false);
  /** a check asked for while the learner's command runs waits for the prompt: the panel says so */
  const [waitingShell, setWaitingShell] = useState(false);
  const [offerSkip, setOfferSkip] = useState(false);
  // what went wrong (storage refused, a reset that could not be done): each once, until dismissed
  const [problems, setProblems] = useState<string[]>([]);
  const setProblem = useCallback((p: string) => setProblems((ps) => (ps.includes(p) ? ps : [...ps, p])), []);
  const [timing, setTiming] = useState<Timing>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmStartOver, setConfirmStartOver] = useState(false);
  // The open step's machine as it began, uncompressed: "Reset this step" restores it at once,
  // without waiting for the gzip or paying a gunzip (300-500 ms here). About 40 MiB beside
  // the emulator's 256 MiB; the compressed copy lives in IndexedDB for a reload. `raw` null:
  // the step's start is the lab's own saved machine, which the page can always start again.
  const stepSnap = useRef<{ step: number; raw: ArrayBuffer | null } | null>(null);
  /** the snapshot of the step's start being taken: a reset waits for it */
  const pendingSnap = useRef<Promise<void> | null>(null);
  /** snapshots being compressed and stored, in the order they were taken */
  const storing = useRef<Promise<void>>(Promise.resolve());
  const snapped = useRef<{ step: number; vm: VmHandle } | null>(null);
  const openedAt = useRef(performance.now());
  const heading = useRef<HTMLHeadingElement>(null);
  const movedTo = useRef(false);
  const checkingRef = useRef(false);
  const progressRef = useRef(progress);
  progressRef.current = progress;

  const n = progress.step;
  const step = lab.steps[n];
  const rec = progress.steps[n];
  const passed = !!rec.passedAt;
  const checked = hasChecks(step);

  /** Change the progress, and store it (a store error is shown, the page goes on). */
  const update = useCallback((f: (p: LabProgress) => void) => {
    const p = structuredClone(progressRef.current);
    f(p);
    progressRef.current = p;
    setProgress(p);
    saveProgress(p).catch((e) => setProblem(e instanceof StoreError ? e.message : String(e)));
  }, []);

  /** Keep the machine: in memory for "Reset this step", in IndexedDB for a reload. */
  const snapshot = useCallback(
    async (kind: "step" | "latest", at: number) => {
      if (!vm) return;
      const t0 = performance.now();
      const takenAt = Date.now(); // when the machine was in this state, not when the store finished
      const saving = vm.saveState(); // now: the machine as it is at this moment
      // a reset waits for the step's machine to be saved, not for its gzip and store
      if (kind === "step") pendingSnap.current = saving.then(() => undefined, () => undefined);
      const state = await saving;
      performance.measure("fslab:snapshot-save", { start: t0 }); // for npm run bench snapshots
      if (kind === "step") stepSnap.current = { step: at, raw: state };
      // compressed and stored one after another, in the order taken, so an older snapshot that
      // takes longer never lands over a newer one
      const stored = storing.current.then(async () => {
        const t1 = performance.now();
        const gz = await gzip(state);
        performance.measure("fslab:snapshot-gzip", { start: t1 });
        const ms = performance.now() - t0;
        setTiming((t) => ({ ...t, snapshotMs: ms, snapshotBytes: gz.size, rawBytes: state.byteLength, snapshotKind: kind, snapshotOf: at }));
        try {
          await putSnapshot(kind, { lab: lab.meta.id, step: at, ...HERE, savedAt: takenAt, gz, rawBytes: state.byteLength });
        } finally {
          // kept in memory for a reset, and (unless the browser refused) stored for a reload
          if (kind === "step") setTiming((t) => ({ ...t, snapshotStep: at }));
        }
      });
      storing.current = stored.catch(() => undefined);
      await stored;
    },
    [vm, lab.meta.id],
  );

  // A step opens: its events start from now, and the machine is snapshotted as it begins
  // (unless it was just started from this very step's snapshot).
  useEffect(() => {
    clearEvents();
    setOutcome(null);
    setOfferSkip(false);
    setTiming((t) => ({ ...t, snapshotStep: undefined })); // this step's own snapshot is not kept yet
    openedAt.current = performance.now();
    // focus follows the learner to a step they moved to, not to the first one on page load
    if (movedTo.current) heading.current?.focus();
    movedTo.current = true;
    return () => {
      const ms = performance.now() - openedAt.current;
      update((p) => (p.steps[n].openMs += ms));
    };
  }, [n]);

  useEffect(() => {
    if (!vm || (snapped.current?.step === n && snapped.current.vm === vm)) return;
    const first = snapped.current === null;
    const freshVm = snapped.current?.vm !== vm;
    snapped.current = { step: n, vm };
    if (freshVm && n === 0 && vm.origin === "saved") {
      // the lab's own saved machine, just started, is step 1's start: nothing to keep. (A copy
      // would be the state the page has just loaded, and save_state, 100-230 ms on the page's
      // thread, would hold up the learner's first command at the prompt.)
      stepSnap.current = { step: 0, raw: null };
      setTiming((t) => ({ ...t, snapshotStep: 0 }));
      return;
    }
    if (first && vm.origin === "snapshot" && restoredStep === n) {
      setTiming((t) => ({ ...t, snapshotStep: n })); // its snapshot is stored already
      return;
    }
    snapshot("step", n).catch((e) => setProblem(e instanceof Error ? e.message : String(e)));
  }, [vm, n]);

  const check = useCallback(
    async (why: "auto" | "asked"): Promise<CheckOutcome | null> => {
      if (!vm || checkingRef.current) return null;
      // a check run beside the learner's command could get in its way (both mounting one volume):
      // the poll lets a running command be, and a check asked for waits for the prompt
      if (why === "auto" && (vm.shellBusy() || vm.stopped())) return null; // nor a stopped machine: it is restored first
      checkingRef.current = true;
      setChecking(true);
      try {
        if (vm.shellBusy()) {
          setWaitingShell(true);
          await vm.whenIdle().finally(() => setWaitingShell(false));
        }
        const o = await runChecks(step, vm, events(), verdicts);
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
        if (o.ok) await measureActuals();
        if (o.ok && !wasPassed) {
          onStepPassed?.(n, step.title);
          snapshot("latest", n).catch((e) => setProblem(e instanceof Error ? e.message : String(e)));
        }
        return o;
      } finally {
        checkingRef.current = false;
        setChecking(false);
      }
    },
    [vm, step, n, verdicts, events],
  );

  /** What the kernel did, beside each prediction the learner made in this step. */
  const measureActuals = async () => {
    const preds = step.blocks.flatMap((b) => (b.kind === "predict" ? [b.predict] : []));
    const recs = progressRef.current.steps[n].predictions ?? [];
    if (!vm || !preds.some((_, i) => recs[i])) return;
    const found: Array<string | null> = [];
    for (const p of preds) {
      if ("command" in p.actual) {
        const r = await vm.check(p.actual.command, 30).catch(() => null);
        found.push(r && r.status === 0 ? commandActual(r.output) : null);
      } else {
        // the stream lags the guest: count again until no new event arrives for 1.5 s (at most 30 s)
        let count = countedActual(p, events());
        for (let last = null as string | null, t = 0; count !== last && t < 20; t++) {
          last = count;
          await new Promise((r) => setTimeout(r, 1500));
          count = countedActual(p, events());
        }
        found.push(count);
      }
    }
    if (progressRef.current.step !== n) return;
    update((pr) => {
      const list = pr.steps[n].predictions ?? [];
      found.forEach((a, i) => {
        if (list[i] && a !== null) list[i]!.actual = a;
      });
      pr.steps[n].predictions = list;
    });
  };

  /** A prediction answered (guess null: "no guess"). */
  const predict = (i: number, p: Prediction, guess: string | null) =>
    update((pr) => {
      const list = pr.steps[n].predictions ?? [];
      while (list.length <= i) list.push(null);
      list[i] = { question: p.question, guess, at: Date.now() } satisfies PredictionRecord;
      pr.steps[n].predictions = list;
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

  // checks on their own while the step is open, until it passes
  useEffect(() => {
    if (!vm || passed || !checked) return;
    const t = setInterval(() => void check("auto"), POLL_MS);
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

  /**
   * The machine back as the open step began. A reset also undoes the step's marks; after a
   * crash (`keepMarks`) they stay, and without a snapshot of the step the lab's own saved
   * machine starts instead.
   */
  /** a reset undoes the step's marks (a restore after a crash keeps them) */
  const markReset = () =>
    update((p) => {
      const s = p.steps[n];
      s.resets++;
      delete s.passedAt;
      delete s.skippedAt;
    });

  const resetStep = async (after?: "crash") => {
    if (!vm) return;
    setBusy("Putting the machine back…");
    try {
      await pendingSnap.current;
      const t0 = performance.now();
      if (stepSnap.current?.step === n && stepSnap.current.raw === null) {
        // step 1 from the lab's own saved machine: that machine again, and nothing stored of this one
        await dropSnapshots(lab.meta.id).catch(() => undefined);
        vm.restart();
        clearEvents();
        setOutcome(null);
        if (after !== "crash") markReset();
        return;
      }
      let state = stepSnap.current?.step === n ? stepSnap.current.raw : null;
      if (!state) {
        // after a reload: the step's compressed copy from IndexedDB
        const s = await getSnapshot(lab.meta.id, "step");
        if (s?.step === n) {
          const t1 = performance.now();
          state = await gunzip(s.gz);
          performance.measure("fslab:snapshot-gunzip", { start: t1 }); // for npm run bench snapshots
        }
      }
      if (!state && after === "crash") return vm.restart();
      if (!state) throw new Error("there is no snapshot of this step's start (the machine was not running when it opened)");
      const t2 = performance.now();
      await vm.restoreState(state, `The machine is back as it was when step ${n + 1} began.`);
      performance.measure("fslab:snapshot-restore", { start: t2 });
      setTiming((t) => ({ ...t, resetMs: performance.now() - t0 }));
      clearEvents();
      setOutcome(null);
      if (after === "crash") return;
      markReset();
      // the newest machine is this one again: its stored copy put back as the newest, once the
      // step's own gzip and store (queued on `storing`) have landed
      const resetAt = Date.now();
      storing.current = storing.current.then(async () => {
        const stored = await getSnapshot(lab.meta.id, "step");
        if (stored?.step === n) await putSnapshot("step", { ...stored, savedAt: resetAt });
      }).catch(() => undefined);
    } catch (e) {
      setProblem(`${after === "crash" ? "The machine could not be restored" : "This step could not be reset"}: ${e instanceof Error ? e.message : e}`);
    } finally {
      setBusy(null);
    }
  };

  useEffect(() => {
    if (machineRequest) void resetStep("crash");
  }, [machineRequest]);

  useEffect(() => {
    if (resetRequest) void resetStep();
  }, [resetRequest]);

  const startOver = async () => {
    if (!confirmStartOver) return setConfirmStartOver(true);
    await clearLab(lab.meta.id).catch(() => undefined);
    location.reload(); // a fresh page: the lab's own saved machine, step 1
  };

  const download = () => {
    // the open step's time so far counts too: it is added to the progress only as the step closes
    const x = progressExport(progressRef.current, lab.meta.title, Date.now(), { step: n, ms: performance.now() - openedAt.current });
    const url = URL.createObjectURL(new Blob([JSON.stringify(x, null, 2) + "\n"], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `fslab-${lab.meta.id}-progress.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
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

  const hints = step.blocks.filter((b) => b.kind === "hint");
  const solutions = step.blocks.filter((b) => b.kind === "solution");
  const passedCount = progress.steps.filter((s) => s.passedAt).length;

  return (
    <div className="lab-runner" data-step={n} data-passed={passed ? 1 : 0} data-auto-checks={rec.autoChecks}>
      <nav className="lab-outline" aria-label="Steps of this lab">
        <p>
          Step {n + 1} of {lab.steps.length} · {passedCount} passed
        </p>
        <ol>
          {lab.steps.map((s, i) => {
            const r = progress.steps[i];
            const mark = r.passedAt ? "passed" : r.skippedAt ? "skipped" : "";
            return (
              <li key={i} className={mark}>
                <button aria-current={i === n ? "step" : undefined} onClick={() => go(i)} data-testid={`outline-${i}`}>
                  <span aria-hidden="true">{r.passedAt ? "✓" : r.skippedAt ? "–" : " "}</span> {s.title}
                  {mark && <span className="visually-hidden"> ({mark})</span>}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      <section className="step" aria-labelledby="step-title">
        <h2 id="step-title" tabIndex={-1} ref={heading}>
          {n + 1}. {step.title}
        </h2>
        <StepBody step={step} vm={vm} done={passed || !!rec.skippedAt} predictions={rec.predictions ?? []} onPredict={predict} earlierUndone={earlierUndone} goTo={go} steps={lab.steps} />

        {checked && <CheckPanel step={step} outcome={outcome} checking={checking} waitingShell={waitingShell} passed={passed} vm={vm} onCheck={() => void check("asked")} />}

        {hints.length > 0 && (
          <div className="hints">
            {hints.slice(0, rec.hintsShown).map((h, i) => (
              <div key={i} className="hint" data-testid="hint">
                <strong>Hint {i + 1}.</strong> <div dangerouslySetInnerHTML={{ __html: renderMarkdown(h.text) }} />
              </div>
            ))}
            {rec.hintsShown < hints.length && (
              <button onClick={() => update((p) => p.steps[n].hintsShown++)}>
                Show a hint ({rec.hintsShown + 1} of {hints.length})
              </button>
            )}
          </div>
        )}
        {solutions.length > 0 &&
          (rec.solutionShown ? (
            solutions.map((s, i) => (
              <div key={i} className="vm-cmd solution" data-testid="solution">
                <strong>Solution</strong>
                <pre>
                  <code>{s.text}</code>
                </pre>
                <RunButton vm={vm} text={s.text} label="Run the solution in VM" earlierUndone={earlierUndone} goTo={go} steps={lab.steps} />
              </div>
            ))
          ) : (
            <button onClick={() => update((p) => (p.steps[n].solutionShown = true))}>Show the solution</button>
          ))}
      </section>

      <div className="step-nav" role="group" aria-label="Move between steps">
        <button onClick={() => go(n - 1)} disabled={n === 0}>
          ← Back
        </button>
        {n + 1 < lab.steps.length ? (
          <button onClick={() => !checking && void next()} aria-disabled={checking} data-testid="next">
            Next →
          </button>
        ) : (
          <button onClick={() => !checking && void next()} disabled={passed} aria-disabled={checking} data-testid="next">
            {passed ? "Lab complete" : "Finish"}
          </button>
        )}
        {offerSkip && !passed && n + 1 < lab.steps.length && (
          <button onClick={skip} data-testid="skip">
            Go on without passing (recorded as skipped)
          </button>
        )}
        <span className="muted keys">
          Keys: <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>→</kbd> next, <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>←</kbd> back
        </span>
      </div>

      <div className="lab-tools" role="group" aria-label="This lab's machine and progress">
        <button onClick={() => void resetStep()} disabled={!vm || !!busy} data-testid="reset-step" title="Put the machine back as it was when this step began">
          Reset this step
        </button>
        <button onClick={download} data-testid="download-progress">
          Download my progress
        </button>
        <button onClick={() => void startOver()} onBlur={() => setConfirmStartOver(false)} data-testid="start-over">
          {confirmStartOver ? "Really start over? Click again" : "Start over"}
        </button>
      </div>
      <p
        className="muted lab-status"
        role="status"
        data-testid="lab-status"
        data-snapshot-ms={timing.snapshotMs?.toFixed(0)}
        data-snapshot-bytes={timing.snapshotBytes}
        data-snapshot-step={timing.snapshotStep}
        data-raw-bytes={timing.rawBytes}
        data-reset-ms={timing.resetMs?.toFixed(0)}
      >
        {busy ??
          [
            timing.snapshotBytes &&
              `Machine kept ${timing.snapshotKind === "latest" ? `as step ${(timing.snapshotOf ?? 0) + 1} passed` : "as the step began"} (${(timing.snapshotBytes / 2 ** 20).toFixed(1)} MB in ${((timing.snapshotMs ?? 0) / 1000).toFixed(1)} s).`,
            timing.resetMs && `Reset in ${(timing.resetMs / 1000).toFixed(2)} s.`,
          ]
            .filter(Boolean)
            .join(" ")}
      </p>
      {problems.length > 0 && (
        <div className="error" role="alert" data-testid="lab-problem">
          {problems.map((p) => (
            <p key={p}>{p}</p>
          ))}
          <button onClick={() => setProblems([])}>Dismiss</button>
        </div>
      )}
    </div>
  );
}

interface Earlier {
  /** the first earlier step whose checks fail in the guest now, or null; `checking` is called before a check runs */
  earlierUndone(checking?: () => void): Promise<{ step: number; message: string } | null>;
  goTo(step: number): void;
  steps: readonly LabStep[];
}

/** What a Run button is doing, as its label says it. */
const RUN_PHASES = {
  // a command of the learner's still runs: typed now, the block would be its input
  waiting: "Waiting for the shell…",
  checking: "Checking the earlier steps…",
  typing: "Running…",
} as const;

/**
 * A block's commands, typed into the shell once: the button waits until the shell is back at
 * its prompt. It first waits for a command of the learner's to finish, then checks the earlier
 * steps the block builds on: one that is not done is named (with its check's own words)
 * instead of letting the commands fail with a shell error.
 */
function RunButton({ vm, text, label, locked, earlierUndone, goTo, steps }: { vm: VmHandle | null; text: string; label: string; locked?: string } & Earlier) {
  const [phase, setPhase] = useState<keyof typeof RUN_PHASES | null>(null);
  const running = phase !== null;
  const [undone, setUndone] = useState<{ step: number; message: string } | null>(null);
  /** why the block was not typed (the machine stopped) */
  const [notRun, setNotRun] = useState<string | null>(null);
  const type = async () => {
    setUndone(null);
    await vm!.run(text.endsWith("\n") ? text : text + "\n");
  };
  const run = async (anyway = false) => {
    if (!vm || running) return;
    setNotRun(null);
    try {
      // said at once, in the click: the checks' phase, if any, replaces it in the same render
      const busy = vm.shellBusy();
      setPhase(busy ? "waiting" : "typing");
      if (busy) await vm.whenIdle();
      const u = anyway ? null : await earlierUndone(() => setPhase("checking"));
      if (u) setUndone(u);
      else {
        setPhase("typing");
        await type();
      }
    } catch (e) {
      setNotRun(e instanceof Error ? e.message : String(e));
    } finally {
      setPhase(null);
    }
  };
  return (
    <>
      <button
        // busy is aria-disabled, not disabled: a disabled button drops the keyboard to the body
        disabled={!vm || !!locked}
        aria-disabled={running}
        onClick={() => void run()}
        aria-busy={running}
        data-phase={phase ?? "idle"}
        title={locked ?? (!vm ? "Waiting for the VM to boot" : running ? "Running in the VM's shell" : "Type this into the VM's shell")}
      >
        {phase ? RUN_PHASES[phase] : label}
      </button>
      {locked && <span className="muted"> {locked}</span>}
      {phase === "waiting" && (
        <span className="muted" role="status">
          {" "}
          A command in the terminal is still running: this block is typed once it has finished (Ctrl+C in the terminal stops it).
        </span>
      )}
      {notRun && (
        <p className="error" role="alert" data-testid="run-failed">
          These commands were not run: {notRun}.
        </p>
      )}
      {undone && (
        <div className="needs-earlier" role="alert" data-testid="needs-earlier" data-step={undone.step}>
          <p>
            These commands build on step {undone.step + 1}, “{steps[undone.step].title}”, which is not done in this machine:
          </p>
          <p style={{ whiteSpace: "pre-wrap" }}>{undone.message}</p>
          <button onClick={() => goTo(undone.step)}>Go to step {undone.step + 1}</button>{" "}
          <button onClick={() => void run(true)}>Run them anyway</button>
        </div>
      )}
    </>
  );
}

/**
 * For a control that goes away when `done` turns true (a form answered, a Check that passed):
 * `target` takes the keyboard then, if `armed` says the control had it, so it does not fall to
 * the page's body.
 */
function useFocusAfter<T extends HTMLElement>(done: boolean) {
  const armed = useRef(false);
  const target = useRef<T>(null);
  useEffect(() => {
    if (done && armed.current) target.current?.focus();
    armed.current = false;
  }, [done]);
  return { armed, target };
}

/** A question answered before the measurement; once the step passes, the kernel's answer beside it. */
function PredictBox({ p, rec, onAnswer }: { p: Prediction; rec: PredictionRecord | null; onAnswer(guess: string | null): void }) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  // answered here, now: the form goes, and the keyboard moves to what was recorded
  const { armed: answeredHere, target: recorded } = useFocusAfter<HTMLParagraphElement>(!!rec);
  const answer = (guess: string | null) => {
    answeredHere.current = true;
    onAnswer(guess);
  };
  const submit = () => {
    const g = parseGuess(p, text);
    if ("error" in g) return setProblem(g.error);
    setProblem(null);
    answer(g.value);
  };
  const unit = p.unit ? ` ${p.unit}` : "";
  return (
    <fieldset className="predict" data-testid="predict" data-answered={rec ? 1 : 0} data-guess={rec?.guess ?? ""} data-actual={rec?.actual ?? ""}>
      <legend>Predict first</legend>
      {/* inline Markdown (`code`, *emphasis*, links), sanitized */}
      <label htmlFor={id} dangerouslySetInnerHTML={{ __html: renderInlineMarkdown(p.question) }} />
      {!rec ? (
        <form onSubmit={(e) => (e.preventDefault(), submit())}>
          {p.choices ? (
            <select id={id} value={text} onChange={(e) => setText(e.target.value)}>
              <option value="">choose…</option>
              {p.choices.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          ) : (
            <input id={id} inputMode="decimal" value={text} onChange={(e) => setText(e.target.value)} size={12} aria-invalid={!!problem} aria-describedby={problem ? `${id}-err` : undefined} />
          )}
          {unit && <span>{unit}</span>} <button type="submit">Record my prediction</button>{" "}
          <button type="button" onClick={() => answer(null)}>
            No guess
          </button>
          {problem && (
            <p className="error" id={`${id}-err`} role="alert">
              {problem}
            </p>
          )}
        </form>
      ) : (
        <p role="status" tabIndex={-1} ref={recorded}>
          {rec.guess === null ? "You made no guess." : `You predicted ${rec.guess}${unit}.`}{" "}
          {rec.actual === undefined
            ? "The kernel's answer appears here once this step passes."
            : `The kernel: ${rec.actual}${unit}${rec.guess === null ? "." : near(rec.guess, rec.actual) ? ": your prediction was right." : p.choices ? ": not what you predicted." : ": further off than 10%; the text below says why."}`}
        </p>
      )}
    </fieldset>
  );
}

function StepBody({ step, vm, done, predictions, onPredict, ...earlier }: { step: LabStep; vm: VmHandle | null; done: boolean; predictions: ReadonlyArray<PredictionRecord | null>; onPredict(i: number, p: Prediction, guess: string | null): void } & Earlier) {
  let k = 0; // predict blocks so far
  let unanswered = false; // a prediction above is still open: the measurement waits for it
  return (
    <>
      {step.blocks.map((b, j) => {
        if (b.kind === "markdown") return <div key={j} dangerouslySetInnerHTML={{ __html: renderMarkdown(b.text) }} />;
        // after the step: it may answer the step's predictions
        if (b.kind === "learned")
          return (
            <section key={j} className="learned" data-testid="learned" data-shown={done ? 1 : 0} aria-label="What you learned">
              <h3>What you learned</h3>
              {done ? <div dangerouslySetInnerHTML={{ __html: renderMarkdown(b.text) }} /> : <p className="muted">Shown once this step passes (or is skipped), so that it does not give the step's answers away.</p>}
            </section>
          );
        if (b.kind === "predict") {
          const i = k++;
          const rec = predictions[i] ?? null;
          if (!rec) unanswered = true;
          return <PredictBox key={j} p={b.predict} rec={rec} onAnswer={(g) => onPredict(i, b.predict, g)} />;
        }
        if (b.kind === "vm")
          return (
            <div key={j} className="vm-cmd">
              <pre>
                <code>{b.text}</code>
              </pre>
              <RunButton vm={vm} text={b.text} label="Run in VM" locked={unanswered ? "Predict first (or choose No guess): the answer above is kept beside what the kernel does." : undefined} {...earlier} />
            </div>
          );
        return null;
      })}
    </>
  );
}

function CheckPanel({ step, outcome, checking, waitingShell, passed, vm, onCheck }: { step: LabStep; outcome: CheckOutcome | null; checking: boolean; waitingShell: boolean; passed: boolean; vm: VmHandle | null; onCheck(): void }) {
  const failed = outcome && !outcome.ok;
  // the Check button goes when the step passes: the keyboard moves to the verdict, not the body
  const { armed: checkHadFocus, target: statusEl } = useFocusAfter<HTMLDivElement>(passed);
  return (
    <div
      className={`check-panel ${passed ? "passed" : failed ? "failed" : ""}`}
      data-testid="check-panel"
      data-round-trip-ms={outcome ? Math.max(0, ...outcome.items.map((i) => i.roundTripMs ?? 0)).toFixed(0) : undefined}
    >
      <div role="status" aria-live="polite" data-testid="check-status" data-state={passed ? "passed" : failed ? "failed" : "open"} tabIndex={-1} ref={statusEl}>
        {passed ? (
          <strong>✓ This step passed its checks.</strong>
        ) : !vm ? (
          <span className="muted">Checks run once the VM is up.</span>
        ) : waitingShell ? (
          <span data-testid="check-waits">The check runs once the command in the terminal has finished (Ctrl+C in the terminal stops it).</span>
        ) : failed ? (
          <>
            <strong>Not yet.</strong>
            <ul data-testid="check-failures">
              {outcome.items
                .filter((i) => !i.ok)
                .map((i, k) => (
                  <li key={k} style={{ whiteSpace: "pre-wrap" }}>
                    {i.message}
                  </li>
                ))}
            </ul>
          </>
        ) : (
          <span className="muted">The page checks this step every few seconds while the shell waits at its prompt{checking ? " (checking…)" : ""}.</span>
        )}
      </div>
      {!passed && (
        <button onClick={() => !checking && onCheck()} disabled={!vm} aria-disabled={checking} data-testid="check" onFocus={() => (checkHadFocus.current = true)} onBlur={() => (checkHadFocus.current = false)}>
          {checking ? "Checking…" : "Check"}
        </button>
      )}
      <details>
        <summary>What this step checks</summary>
        {step.blocks.map((b, j) =>
          b.kind === "check" ? (
            <pre key={j}>
              <code>{b.text}</code>
            </pre>
          ) : b.kind === "expect" ? (
            <ul key={j}>
              {b.expect.map((x, k) => (
                <li key={k}>The kernel: {describeExpectation(x)}, since this step opened.</li>
              ))}
            </ul>
          ) : null,
        )}
        {outcome && (
          <p className="muted">
            Last checked {new Date(outcome.at).toLocaleTimeString()}: {outcome.ok ? "passed" : outcomeText(outcome)}
          </p>
        )}
      </details>
    </div>
  );
}
