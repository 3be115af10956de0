// A block's commands, typed into the guest's shell by a button: it waits for a command of the
// learner's to finish and names an earlier step the block builds on that is not done.
import { useState } from "react";
import type { LabStep } from "./lab-format";
import type { VmHandle } from "../shared/machine";

export interface Earlier {
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
export function RunButton({
  vm,
  text,
  label,
  locked,
  onTyped,
  earlierUndone,
  goTo,
  steps,
}: {
  vm: VmHandle | null;
  text: string;
  label: string;
  locked?: string;
  /** the block is typed (`after` null), then ran to the prompt: the shell's line count before and after it */
  onTyped?(before: number, after: number | null): void;
} & Earlier) {
  const [phase, setPhase] = useState<keyof typeof RUN_PHASES | null>(null);
  const running = phase !== null;
  const [undone, setUndone] = useState<{ step: number; message: string } | null>(null);
  /** why the block was not typed (the machine stopped) */
  const [notRun, setNotRun] = useState<string | null>(null);
  const type = async () => {
    setUndone(null);
    const before = vm!.shellLines();
    onTyped?.(before, null);
    try {
      await vm!.run(text.endsWith("\n") ? text : text + "\n");
    } finally {
      onTyped?.(before, vm!.shellLines());
    }
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
