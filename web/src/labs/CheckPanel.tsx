// A step's checks: the verdict (passed, what is still missing, or waiting for the shell), the
// Check button, and what the step checks.
import { describeExpectation } from "./expect";
import { outcomeText, type CheckOutcome } from "./checks";
import type { LabStep } from "./lab-format";
import type { VmHandle } from "../shared/machine";
import { useFocusAfter } from "./StepBody";

export function CheckPanel({
  step,
  outcome,
  checking,
  waitingShell,
  passed,
  predictsOpen,
  vm,
  onCheck,
}: {
  step: LabStep;
  outcome: CheckOutcome | null;
  checking: boolean;
  waitingShell: boolean;
  passed: boolean;
  /** a prediction of the step is not answered yet: the checks' code could answer it */
  predictsOpen: boolean;
  vm: VmHandle | null;
  onCheck(): void;
}) {
  const failed = outcome && !outcome.ok;
  // the Check button goes when the step passes: the keyboard moves to the verdict, not the body
  const { armed: checkHadFocus, target: statusEl } = useFocusAfter<HTMLDivElement>(passed);
  return (
    <div
      className={`check-panel ${passed ? "passed" : failed ? "failed" : ""}`}
      data-testid="check-panel"
      data-round-trip-ms={outcome ? Math.max(0, ...outcome.items.map((i) => i.roundTripMs ?? 0)).toFixed(0) : undefined}
    >
      <div role="status" aria-live="polite" data-testid="check-status" data-state={passed ? "passed" : failed ? "failed" : "open"} data-at={outcome?.at} tabIndex={-1} ref={statusEl}>
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
              {outcome.items.map(
                // data-item: the item's place among the step's checks and expectations, in the
                // lab file's order (a test tells a guest check's failure from a view's verdict)
                (i, k) =>
                  !i.ok && (
                    <li key={k} data-item={k} style={{ whiteSpace: "pre-wrap" }}>
                      {i.message}
                    </li>
                  ),
              )}
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
      <details data-testid="check-source">
        <summary>What this step checks</summary>
        {step.challenge && !passed && (
          // a challenge's checks say how it is solved (the setting's value, the file to find):
          // kept until it passes, as its hints and solution are; a failed check says what is missing
          <p className="muted">This step is a challenge: what it checks is shown once it passes. A failed check says what is still missing.</p>
        )}
        {!step.challenge && predictsOpen && !passed && (
          // a check's bounds ("-gt 10000") would answer the step's prediction
          <p className="muted">Shown once you have made the step&apos;s prediction (or chosen No guess).</p>
        )}
        {(step.challenge ? passed : passed || !predictsOpen) && step.blocks.map((b, j) =>
          b.kind === "check" ? (
            <pre key={j}>
              <code>{b.text}</code>
            </pre>
          ) : b.kind === "expect" ? (
            <ul key={j}>
              {b.expect.map((x, k) => (
                <li key={k}>The kernel: {describeExpectation(x)}{x.since ? ", in this step" : ", since this step opened"}.</li>
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
