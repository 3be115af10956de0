// The lab's machine kept as each step opens and as a step passes, and the reset (asked for, or
// the machine back after a panic, an oops or a full disk): machine-keeper.ts does the keeping,
// this hook wires it to the page (the figures it shows, a problem to say, the busy line) and asks
// before the page is left while a machine is still being kept.
import { useEffect, useMemo, useState } from "react";
import { MachineKeeper, type Timing } from "./machine-keeper";
import { labMoves, onLettingGo } from "./one-tab";
import type { VmHandle } from "../shared/machine";
import type { SeenEvent } from "./expect";

export type { Timing } from "./machine-keeper";

export interface StepMachineOptions {
  labId: string;
  vm: VmHandle | null;
  /** the open step */
  n: number;
  /** the step whose snapshot the machine was started from (a reload), if it was */
  restoredStep: number | null;
  /** the kernel events the page parsed since the step opened */
  events(): readonly SeenEvent[];
  /** the machine is back as the step began: a reset (`after` unset) or after a crash */
  onRestored(after?: "crash"): void;
  setProblem(p: string): void;
  /** counts up when an embedding page asks to reset the current step */
  resetRequest?: number;
  /** counts up when the learner asks for the machine back after a panic, an oops or a full disk */
  machineRequest?: number;
}

/** the page is being left on purpose ("Start over" throws the kept machines away): no question asked */
let leavingOnPurpose = false;

/** Leave without the browser's question: what is being kept is not wanted (leaveOnPurpose before a reload). */
export function leaveOnPurpose(): void {
  leavingOnPurpose = true;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function useStepMachine({ labId, vm, n, restoredStep, events, onRestored, setProblem, resetRequest, machineRequest }: StepMachineOptions) {
  const [timing, setTiming] = useState<Timing>({});
  const [busy, setBusy] = useState<string | null>(null);
  const keeper = useMemo(
    () =>
      new MachineKeeper(
        labId,
        (patch) => setTiming((t) => ({ ...t, ...patch })),
        () => labMoves(labId),
      ),
    [labId],
  );
  useAskBeforeLeaving(keeper);

  // A step opens: the machine is kept as it begins (unless it was just started from this very
  // step's snapshot); until then this step's own start is not kept.
  useEffect(() => setTiming((t) => ({ ...t, snapshotStep: undefined })), [n]);
  useEffect(() => {
    if (vm) keeper.stepOpened(vm, n, restoredStep, events().length).catch((e) => setProblem(messageOf(e)));
  }, [vm, n]);

  /** Keep the machine as the step passed: what a reload restores. */
  const keepPassed = (at: number) => (vm ? keeper.snapshot(vm, "latest", at, events()).catch((e) => setProblem(messageOf(e))) : Promise.resolve());

  // The page hidden (another tab, a closed lid; often the last moment before the browser drops
  // the page): the machine is kept as the learner left it, once the shell is at its prompt, if
  // the page is still hidden then. Not at each command: a save holds the page's thread up to
  // 0.2 s and its gzip a worker's for 0.5 s.
  useEffect(() => {
    if (!vm) return;
    let gone = false;
    const hidden = () => document.visibilityState === "hidden";
    const onHide = () => {
      if (!hidden()) return;
      void vm
        .whenIdle()
        .then(() => (gone || !hidden() || vm.stopped() ? undefined : keeper.keepLeft(vm, n, events())))
        .catch((e) => setProblem(messageOf(e)));
    };
    document.addEventListener("visibilitychange", onHide);
    return () => {
      gone = true;
      document.removeEventListener("visibilitychange", onHide);
    };
  }, [vm, n]);

  // Another tab asks for the lab (OneTab.tsx): the machine as it is, kept before this tab lets
  // go, once the shell is at its prompt (a command still running is waited for; the other tab
  // may take the lab meanwhile), so the other tab starts from it.
  useEffect(
    () =>
      onLettingGo(labId, async () => {
        // a reset under way first: the machine it puts back is the one handed over (its store is waited for below)
        await keeper.whenReset();
        // no machine (one starting again): what was being kept is stored first all the same
        let how: "kept" | "none" | "failed" = !vm || vm.stopped() ? "none" : vm.troubled() ? "failed" : "kept";
        if (vm && how === "kept") {
          await vm.whenIdle();
          await keeper.whenReset(); // (and one asked for meanwhile)
          how = await keeper.keepLeft(vm, n, events()).then(() => (vm.troubled() ? "failed" : "kept"), () => "failed");
        }
        await keeper.whenKept(); // a machine being kept meanwhile (the page hidden) is stored first
        return how;
      }),
    [vm, n],
  );

  /**
   * The machine back as the open step began. A reset also undoes the step's marks; after a
   * crash they stay, and without a snapshot of the step the lab's own saved machine starts
   * instead.
   */
  const resetStep = async (after?: "crash") => {
    if (!vm) return;
    setBusy("Putting the machine back…");
    try {
      if ((await keeper.reset(vm, n, after)) !== "none") onRestored(after);
    } catch (e) {
      setProblem(`${after === "crash" ? "The machine could not be restored" : "This step could not be reset"}: ${messageOf(e)}`);
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

  return { timing, busy, keepPassed, resetStep };
}

/**
 * Leaving the page (a reload, a closed tab) while a machine is being kept: the browser asks
 * first, so the learner's newest machine is not lost for a moment's haste (1-2 s after a pass).
 */
function useAskBeforeLeaving(keeper: MachineKeeper): void {
  useEffect(() => {
    const ask = (e: BeforeUnloadEvent) => {
      if (!keeper.keeping || leavingOnPurpose) return;
      e.preventDefault();
      e.returnValue = ""; // older browsers ask only when this is set
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [keeper]);
}
