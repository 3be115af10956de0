// The lab's machine kept as each step opens and as a step passes: uncompressed in memory for
// "Reset this step", gzipped in IndexedDB for a reload; and the reset itself (asked for, or
// the machine back after a panic, an oops or a full disk).
import { useCallback, useEffect, useRef, useState } from "react";
import { dropSnapshots, getSnapshot, putSnapshot, stepIsNewest } from "./progress";
import { gunzip, gzip, HERE } from "../vm/browser/snapshot";
import type { VmHandle } from "../shared/machine";

export interface Timing {
  snapshotMs?: number;
  snapshotBytes?: number;
  /** the step whose start the newest step snapshot holds */
  snapshotStep?: number;
  /** the newest snapshot's (the figures above): a step's start, or the machine as a step passed */
  snapshotKind?: "step" | "latest";
  snapshotOf?: number;
  /** the step's start is the machine kept as the step before passed: nothing was entered since */
  snapshotReused?: boolean;
  rawBytes?: number;
  resetMs?: number;
}

export interface StepMachineOptions {
  labId: string;
  vm: VmHandle | null;
  /** the open step */
  n: number;
  /** the step whose snapshot the machine was started from (a reload), if it was */
  restoredStep: number | null;
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

/** A snapshot's gzip failed: what a reload brings back instead. */
const notKept = (when: string, e: unknown) =>
  new Error(`The machine could not be kept ${when}: ${e instanceof Error ? e.message : e}. A reload brings back the machine kept before it.`);

export function useStepMachine({ labId, vm, n, restoredStep, onRestored, setProblem, resetRequest, machineRequest }: StepMachineOptions) {
  const [timing, setTiming] = useState<Timing>({});
  const [busy, setBusy] = useState<string | null>(null);
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
  /**
   * The machine as the newest step passed, while it may still be the next step's start: its
   * state, its gzip (once done) and the shell's line count then. Dropped by a restore.
   */
  const passed = useRef<{ step: number; vm: VmHandle; raw: ArrayBuffer; lines: number; gz: Promise<Blob> } | null>(null);
  const track = useKeptBeforeLeaving();

  /** Keep the machine: in memory for "Reset this step", in IndexedDB for a reload. */
  const snapshot = useCallback(
    async (kind: "step" | "latest", at: number) => {
      if (!vm) return;
      const t0 = performance.now();
      const takenAt = Date.now(); // when the machine was in this state, not when the store finished
      // the shell as the save begins: a line entered from now on may be in the machine or not,
      // and makes the count differ either way (the next step's start is then saved anew)
      const lines = vm.shellLines();
      const shellBusy = vm.shellBusy();
      const saving = track(vm.saveState()); // now: the machine as it is at this moment
      // a reset waits for the step's machine to be saved, not for its gzip and store
      if (kind === "step") pendingSnap.current = saving.then(() => undefined, () => undefined);
      const state = await saving;
      performance.measure("fslab:snapshot-save", { start: t0 }); // for npm run bench snapshots
      if (kind === "step") stepSnap.current = { step: at, raw: state };
      // compressed and stored one after another, in the order taken (the store also keeps the
      // newer of two: progress.ts), so an older snapshot that takes longer never lands over a newer one
      const zipping = storing.current.then(() => gzip(state));
      zipping.catch(() => undefined); // its failure is said below, once
      // a command still running goes on changing the machine: no next step starts from this one
      if (kind === "latest") passed.current = shellBusy ? null : { step: at, vm, raw: state, lines, gz: zipping };
      const stored = storing.current.then(async () => {
        try {
          const t1 = performance.now();
          const gz = await zipping.catch((e) => {
            if (passed.current?.gz === zipping) passed.current = null; // nothing to reuse
            throw notKept(kind === "step" ? `as step ${at + 1} began` : `as step ${at + 1} passed`, e);
          });
          performance.measure("fslab:snapshot-gzip", { start: t1 });
          await putSnapshot(kind, { lab: labId, step: at, ...HERE, savedAt: takenAt, gz, rawBytes: state.byteLength });
          // said once it is stored: a reload from now on brings it back
          const ms = performance.now() - t0;
          setTiming((t) => ({ ...t, snapshotMs: ms, snapshotBytes: gz.size, rawBytes: state.byteLength, snapshotKind: kind, snapshotOf: at, snapshotReused: false }));
        } finally {
          // kept in memory for a reset, and (unless the browser refused) stored for a reload
          if (kind === "step") setTiming((t) => ({ ...t, snapshotStep: at }));
        }
      });
      storing.current = track(stored).catch(() => undefined);
      await stored;
    },
    [vm, labId],
  );

  // A step opens: the machine is snapshotted as it begins (unless it was just started from this
  // very step's snapshot).
  useEffect(() => setTiming((t) => ({ ...t, snapshotStep: undefined })), [n]); // this step's own snapshot is not kept yet
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
    const p = passed.current;
    passed.current = null;
    if (p && p.vm === vm && p.step === n - 1 && vm.shellLines() === p.lines && !vm.shellBusy()) {
      // Next with nothing entered since the step before passed: the machine kept then is this
      // step's start (saving it again would cost the page's thread a save and a worker a gzip of
      // the same machine, 1-2 s of CPU). Its stored copy is stored again as this step's start.
      stepSnap.current = { step: n, raw: p.raw };
      pendingSnap.current = null;
      const at = Date.now();
      // in turn after the snapshots before it, as a snapshot of its own would be (their figures
      // are said as they land, and must not land over these)
      const stored = storing.current.then(async () => {
        try {
          const gz = await p.gz.catch((e) => {
            throw notKept(`as step ${n + 1} began`, e);
          });
          await putSnapshot("step", { lab: labId, step: n, ...HERE, savedAt: at, gz, rawBytes: p.raw.byteLength });
          setTiming((t) => ({ ...t, snapshotMs: 0, snapshotBytes: gz.size, rawBytes: p.raw.byteLength, snapshotKind: "step", snapshotOf: n, snapshotReused: true }));
        } finally {
          setTiming((t) => ({ ...t, snapshotStep: n })); // kept in memory for a reset either way
        }
      });
      storing.current = track(stored).catch(() => undefined);
      stored.catch((e) => setProblem(e instanceof Error ? e.message : String(e)));
      return;
    }
    snapshot("step", n).catch((e) => setProblem(e instanceof Error ? e.message : String(e)));
  }, [vm, n]);

  /** Keep the machine as the step passed: what a reload restores. */
  const keepPassed = (at: number) => snapshot("latest", at).catch((e) => setProblem(e instanceof Error ? e.message : String(e)));

  /**
   * The machine back as the open step began. A reset also undoes the step's marks; after a
   * crash they stay, and without a snapshot of the step the lab's own saved machine starts
   * instead.
   */
  const resetStep = async (after?: "crash") => {
    if (!vm) return;
    passed.current = null; // the machine goes back: the one kept as the step passed is no longer the newest
    setBusy("Putting the machine back…");
    try {
      await pendingSnap.current;
      const t0 = performance.now();
      if (stepSnap.current?.step === n && stepSnap.current.raw === null) {
        // step 1 from the lab's own saved machine: that machine again, and nothing stored of this one
        await dropSnapshots(labId).catch(() => undefined);
        vm.restart();
        onRestored(after);
        return;
      }
      let state = stepSnap.current?.step === n ? stepSnap.current.raw : null;
      if (!state) {
        // after a reload: the step's compressed copy from IndexedDB
        const s = await getSnapshot(labId, "step");
        if (s?.step === n) {
          const t1 = performance.now();
          state = await gunzip(s.gz);
          performance.measure("fslab:snapshot-gunzip", { start: t1 }); // for npm run bench snapshots
        } else if (!s && n === 0) {
          // step 1 began on the lab's own saved machine (none of it was stored): that machine again
          await dropSnapshots(labId).catch(() => undefined);
          vm.restart();
          onRestored(after);
          return;
        }
      }
      if (!state && after === "crash") return vm.restart();
      if (!state) throw new Error("there is no snapshot of this step's start (the machine was not running when it opened)");
      const t2 = performance.now();
      await vm.restoreState(state, `The machine is back as it was when step ${n + 1} began.`);
      performance.measure("fslab:snapshot-restore", { start: t2 });
      setTiming((t) => ({ ...t, resetMs: performance.now() - t0 }));
      onRestored(after);
      if (after === "crash") return;
      // the newest machine is this one again: its stored copy made the newest, once the step's
      // own gzip and store (queued on `storing`) have landed
      const resetAt = Date.now();
      storing.current = track(storing.current.then(() => stepIsNewest(labId, n, resetAt))).then(() => undefined, () => undefined);
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

  return { timing, busy, keepPassed, resetStep };
}

/**
 * Leaving the page (a reload, a closed tab) while a machine is being kept: the browser asks
 * first, so the learner's newest machine is not lost for a moment's haste (1-2 s after a pass).
 * Returns `track`: a save, compression or store in flight, counted until it settles.
 */
function useKeptBeforeLeaving(): <T>(p: Promise<T>) => Promise<T> {
  /** machines being saved, compressed and stored: until they land a reload would bring back an older one */
  const keeping = useRef(0);
  useEffect(() => {
    const ask = (e: BeforeUnloadEvent) => {
      if (keeping.current === 0 || leavingOnPurpose) return;
      e.preventDefault();
      e.returnValue = ""; // older browsers ask only when this is set
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, []);
  return useCallback(<T,>(p: Promise<T>): Promise<T> => {
    keeping.current++;
    void p.finally(() => keeping.current--).catch(() => undefined);
    return p;
  }, []);
}
