// The lab runner's panels around the open step: the outline of steps, the hints and the
// solution, the moves between steps, the machine and progress tools, and the status line.
import { useState } from "react";
import { renderMarkdown } from "./markdown";
import type { Lab, LabStep } from "./lab-format";
import { clearLab, type LabProgress, type StepRecord } from "./progress";
import { progressExport } from "./report";
import type { Timing } from "./useStepMachine";
import { RunButton, type Earlier } from "./RunButton";
import type { VmHandle } from "../vm/VmConsole";

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

/** The step's hints, one at a time, and its solution on request. */
export function HintsAndSolution({ step, rec, vm, onHint, onSolution, ...earlier }: { step: LabStep; rec: StepRecord; vm: VmHandle | null; onHint(): void; onSolution(): void } & Earlier) {
  const hints = step.blocks.filter((b) => b.kind === "hint");
  const solutions = step.blocks.filter((b) => b.kind === "solution");
  return (
    <>
      {hints.length > 0 && (
        <div className="hints">
          {hints.slice(0, rec.hintsShown).map((h, i) => (
            <div key={i} className="hint" data-testid="hint">
              <strong>Hint {i + 1}.</strong> <div dangerouslySetInnerHTML={{ __html: renderMarkdown(h.text) }} />
            </div>
          ))}
          {rec.hintsShown < hints.length && (
            <button onClick={onHint}>
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
              <RunButton vm={vm} text={s.text} label="Run the solution in VM" {...earlier} />
            </div>
          ))
        ) : (
          <button onClick={onSolution}>Show the solution</button>
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
        <button onClick={() => !checking && next()} disabled={passed} aria-disabled={checking} data-testid="next">
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

/** Reset this step, Download my progress, Start over. */
export function LabTools({ lab, vm, busy, progress, openStep, resetStep }: { lab: Lab; vm: VmHandle | null; busy: boolean; progress(): LabProgress; openStep(): { step: number; ms: number }; resetStep(): void }) {
  const [confirmStartOver, setConfirmStartOver] = useState(false);
  const startOver = async () => {
    if (!confirmStartOver) return setConfirmStartOver(true);
    await clearLab(lab.meta.id).catch(() => undefined);
    location.reload(); // a fresh page: the lab's own saved machine, step 1
  };
  const download = () => {
    // the open step's time so far counts too: it is added to the progress only as the step closes
    const x = progressExport(progress(), lab.meta.title, Date.now(), openStep());
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
