// The lab runner's panels around the open step: the outline of steps, the hints and the
// solution, the moves between steps, the machine and progress tools, and the status line.
import { useState } from "react";
import { renderMarkdown } from "./markdown";
import type { Lab, LabStep } from "./lab-format";
import { clearLab, type LabProgress, type StepRecord } from "./progress";
import { leaveOnPurpose } from "./useStepMachine";
import { progressExport } from "./report";
import { keepLearner, storedLearner } from "./learner";
import type { Timing } from "./useStepMachine";
import { RunButton, type Earlier } from "./RunButton";
import { hintsOf, nextHint } from "./hints";
import type { VmHandle } from "../shared/machine";

export function LabOutline({ lab, progress, n, go }: { lab: Lab; progress: LabProgress; n: number; go(to: number): void }) {
  const passedCount = progress.steps.filter((s) => s.passedAt).length;
  return (
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
  );
}

/**
 * The step's hints, one at a time: the one answering the FAIL line the learner got first
 * (hints.ts). The solution on request; a challenge's only after a check the learner asked for
 * failed. Both wait while a prediction of the step is unanswered.
 */
export function HintsAndSolution({
  step,
  rec,
  vm,
  locked,
  failed,
  failedAsked,
  onHint,
  onSolution,
  ...earlier
}: { step: LabStep; rec: StepRecord; vm: VmHandle | null; locked: boolean; failed: readonly string[]; failedAsked: boolean; onHint(k: number): void; onSolution(): void } & Earlier) {
  const hints = hintsOf(step);
  const solutions = step.blocks.filter((b) => b.kind === "solution");
  if (!hints.length && !solutions.length) return null;
  if (locked)
    return (
      <p className="muted" data-testid="help-locked">
        Hints open once you have answered the prediction above (or chosen No guess){solutions.length ? ", and the solution after a check that failed" : ""}.
      </p>
    );
  const seen = rec.hintsSeen ?? Array.from({ length: Math.min(rec.hintsShown, hints.length) }, (_, j) => j);
  const offer = nextHint(step, seen, failed);
  const answersFail = offer !== null && hints[offer].fail !== undefined;
  // a code step's solution is the reference function (C): offered, as a challenge's is, only
  // after the learner's own attempt failed, and shown to read, never run in the shell
  const isCode = step.blocks.some((b) => b.kind === "code");
  const solutionOffered = rec.solutionShown || (!step.challenge && !isCode) || failedAsked;
  return (
    <>
      {hints.length > 0 && (
        <div className="hints">
          {seen.map((k, i) => (
            <div key={k} className="hint" data-testid="hint" data-fail={hints[k]?.fail}>
              <strong>Hint {i + 1}.</strong> <div dangerouslySetInnerHTML={{ __html: renderMarkdown(hints[k]?.text ?? "") }} />
            </div>
          ))}
          {offer !== null && (
            <button onClick={() => onHint(offer)} data-testid="show-hint">
              {answersFail ? "Show a hint for what the check said" : `Show a hint (${seen.length + 1} of ${hints.length})`}
            </button>
          )}
        </div>
      )}
      {solutions.length > 0 &&
        (rec.solutionShown ? (
          solutions.map((s, i) => (
            <div key={i} className="vm-cmd solution" data-testid="solution">
              <strong>Solution</strong>
              <pre tabIndex={0}>
                <code>{s.text}</code>
              </pre>
              {!isCode && <RunButton vm={vm} text={s.text} label="Run the solution in VM" {...earlier} />}
            </div>
          ))
        ) : solutionOffered ? (
          <button onClick={onSolution} data-testid="show-solution">
            {isCode ? "Show the reference function (recorded in your progress)" : step.challenge ? "Show the solution (this step then counts as passed with the solution)" : "Show the solution"}
          </button>
        ) : (
          <p className="muted" data-testid="solution-later">
            {isCode
              ? "This function is yours to write: the reference is offered once a grade of yours has failed."
              : "This step is yours to work out: the solution is offered once a check you asked for (Check) has failed."}
          </p>
        ))}
    </>
  );
}

export function StepNav({ n, steps, passed, checking, offerSkip, go, next, skip }: { n: number; steps: number; passed: boolean; checking: boolean; offerSkip: boolean; go(to: number): void; next(): void; skip(): void }) {
  return (
    <div className="step-nav" role="group" aria-label="Move between steps">
      <button onClick={() => go(n - 1)} disabled={n === 0}>
        ← Back
      </button>
      {n + 1 < steps ? (
        <button onClick={() => !checking && next()} aria-disabled={checking} data-testid="next">
          Next →
        </button>
      ) : (
        // aria-disabled only while it checks: a disabled button with aria-disabled="false" says two things
        <button onClick={() => !checking && next()} disabled={passed} aria-disabled={!passed && checking ? true : undefined} data-testid="next">
          {passed ? "Lab complete" : "Finish"}
        </button>
      )}
      {offerSkip && !passed && n + 1 < steps && (
        <button onClick={skip} data-testid="skip">
          Go on without passing (recorded as skipped)
        </button>
      )}
      <span className="muted keys">
        Keys: <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>→</kbd> next, <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>←</kbd> back
      </span>
    </div>
  );
}


/** Ask for the learner's name or ID (the browser's own prompt); kept if given. "" if not. */
function askLearner(current = ""): string {
  const a = prompt("Your name or student ID, for your instructor: it is written into each progress file you download, and kept in this browser only.", current)?.trim() ?? "";
  if (a) keepLearner(a);
  return a;
}

/** Reset this step, Download my progress (asking once for a name or ID), Start over. */
export function LabTools({ lab, vm, busy, progress, openStep, resetStep }: { lab: Lab; vm: VmHandle | null; busy: boolean; progress(): LabProgress; openStep(): { step: number; ms: number }; resetStep(): void }) {
  const [confirmStartOver, setConfirmStartOver] = useState(false);
  const [learner, setLearner] = useState(storedLearner);
  const startOver = async () => {
    if (!confirmStartOver) return setConfirmStartOver(true);
    await clearLab(lab.meta.id).catch(() => undefined);
    leaveOnPurpose(); // a machine still being kept is thrown away with the rest: no "Leave site?"
    location.reload(); // a fresh page: the lab's own saved machine, step 1
  };
  const download = () => {
    // the open step's time so far counts too: it is added to the progress only as the step closes
    const who = learner || askLearner();
    if (who !== learner) setLearner(who);
    const x = progressExport(progress(), lab.meta.title, Date.now(), openStep(), { steps: lab.steps, learner: who });
    const url = URL.createObjectURL(new Blob([JSON.stringify(x, null, 2) + "\n"], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `fslab-${lab.meta.id}-progress.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <div className="lab-tools" role="group" aria-label="This lab's machine and progress">
      <button onClick={resetStep} disabled={!vm || busy} data-testid="reset-step" title="Put the machine back as it was when this step began">
        Reset this step
      </button>
      <button onClick={download} data-testid="download-progress">
        Download my progress
      </button>
      <button onClick={() => void startOver()} onBlur={() => setConfirmStartOver(false)} data-testid="start-over">
        {confirmStartOver ? "Really start over? Click again" : "Start over"}
      </button>
      {learner && (
        <span className="muted" data-testid="learner">
          Progress files name you as “{learner}”.{" "}
          <button onClick={() => setLearner(askLearner(learner) || learner)} data-testid="change-learner">
            Change
          </button>
        </span>
      )}
    </div>
  );
}

/** What the machine's keeping is doing, with its figures as data- attributes for the tests and benchmarks. */
export function LabStatus({ busy, timing }: { busy: string | null; timing: Timing }) {
  return (
    <p
      className="muted lab-status"
      role="status"
      data-testid="lab-status"
      data-snapshot-ms={timing.snapshotMs?.toFixed(0)}
      data-snapshot-bytes={timing.snapshotBytes}
      data-snapshot-step={timing.snapshotStep}
      data-raw-bytes={timing.rawBytes}
      data-reset-ms={timing.resetMs?.toFixed(0)}
      data-snapshot-reused={timing.snapshotReused ? "1" : undefined}
      data-snapshot-kind={timing.snapshotKind}
    >
      {busy ??
        [
          timing.snapshotBytes &&
            (timing.snapshotReused
              ? `Machine kept as the step began: the machine kept as step ${timing.snapshotOf ?? 0} passed, with nothing entered since (${(timing.snapshotBytes / 2 ** 20).toFixed(1)} MB).`
              : `Machine kept ${timing.snapshotKind === "latest" ? `as step ${(timing.snapshotOf ?? 0) + 1} passed` : timing.snapshotKind === "left" ? "as you left the page: a reload brings it back" : timing.snapshotAgain ? "as you came back to the step: a reset brings back this one" : "as the step began"} (${(timing.snapshotBytes / 2 ** 20).toFixed(1)} MB in ${((timing.snapshotMs ?? 0) / 1000).toFixed(1)} s).`),
          timing.resetMs && `Reset in ${(timing.resetMs / 1000).toFixed(2)} s.`,
        ]
          .filter(Boolean)
          .join(" ")}
    </p>
  );
}

/** What went wrong (storage refused, a reset that could not be done): each once, until dismissed. */
export function Problems({ problems, dismiss }: { problems: string[]; dismiss(): void }) {
  if (!problems.length) return null;
  return (
    <div className="error" role="alert" data-testid="lab-problem">
      {problems.map((p) => (
        <p key={p}>{p}</p>
      ))}
      <button onClick={dismiss}>Dismiss</button>
    </div>
  );
}
