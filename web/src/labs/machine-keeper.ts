// A lab's machines as its steps open and pass: the open step's start kept uncompressed in memory
// (for "Reset this step"), every kept machine gzipped into IndexedDB (for a reload), one after
// another in the order taken, and the reset itself. No React here: useStepMachine.ts wires it to
// the page (its figures, its problems, its busy line).
import { dropSnapshots, getSnapshot, putSnapshot, stepIsNewest, type SnapshotKind } from "./machine-store";
import { gunzip, gzip, HERE } from "../vm/browser/snapshot";
import type { VmHandle } from "../shared/machine";
import type { SeenEvent } from "./expect";

export interface Timing {
  snapshotMs?: number;
  snapshotBytes?: number;
  /** the step whose start the newest step snapshot holds */
  snapshotStep?: number;
  /** the newest snapshot's (the figures above): a step's start, or the machine as a step passed */
  snapshotKind?: SnapshotKind;
  snapshotOf?: number;
  /** the step's start is the machine kept as the step before passed: nothing was entered since */
  snapshotReused?: boolean;
  /** the step's start was kept as the learner came back to it, after a later step */
  snapshotAgain?: boolean;
  rawBytes?: number;
  resetMs?: number;
}

/** A snapshot's gzip failed: what a reload brings back instead. */
const notKept = (when: string, e: unknown) =>
  new Error(`The machine could not be kept ${when}: ${e instanceof Error ? e.message : e}. A reload brings back the machine kept before it.`);

/** The machine as the newest step passed, while it may still be the next step's start. */
interface PassedMachine {
  step: number;
  vm: VmHandle;
  raw: ArrayBuffer;
  /** the shell's line count as it was saved: a line entered since makes it no step's start */
  lines: number;
  gz: Promise<Blob>;
}

/** How a reset ended: the step's start restored, the lab's own machine started again, or nothing to restore. */
export type ResetOutcome = "restored" | "restarted" | "none";

export class MachineKeeper {
  /**
   * The open step's machine as it began, uncompressed: "Reset this step" restores it at once,
   * without waiting for the gzip or paying a gunzip (300-500 ms here). About 40 MiB beside the
   * emulator's 256 MiB; the compressed copy lives in IndexedDB for a reload. `raw` null: the
   * step's start is the lab's own saved machine, which the page can always start again.
   */
  private stepStart: { step: number; raw: ArrayBuffer | null } | null = null;
  /** the save of the step's start under way: a reset waits for it */
  private pendingStart: Promise<void> | null = null;
  /** snapshots being compressed and stored, in the order they were taken */
  private storing: Promise<void> = Promise.resolve();
  /** the step and machine whose start was last kept (a step opening twice keeps it once) */
  private opened: { step: number; vm: VmHandle } | null = null;
  /**
   * The furthest step opened in this page: a step opened again after a later one keeps the
   * machine as it came back to it (one step's start is kept, not every step's), and a reset
   * says so rather than "as it began".
   */
  private furthest = -1;
  private passed: PassedMachine | null = null;
  /** machines being saved, compressed and stored: until they land a reload would bring back an older one */
  private inFlight = 0;
  /** resets so far: a machine kept after the newest one makes its "Reset in" figure old news */
  private resets = 0;
  /** a reset is putting the machine back: no machine is kept meanwhile */
  private resetting = false;
  /** the newest reset, settled once it has put the machine back (or failed to) */
  private lastReset: Promise<unknown> = Promise.resolve();
  /**
   * The machine the newest kept one was taken from, with the shell's line count and the step's
   * events then: a machine left with nothing entered nor arrived since is kept already.
   */
  private newest: { vm: VmHandle; lines: number; events: number } | null = null;
  /** snapshots from their start (a save before it is queued for its store) to their end */
  private readonly taking = new Set<Promise<void>>();

  constructor(
    private readonly labId: string,
    /** a figure of the newest kept machine changed */
    private readonly onTiming: (patch: Partial<Timing>) => void,
    /**
     * How many times the lab moved to another tab (one-tab.ts labMoves). That tab went on from the
     * machine stored newest then: a store begun before a move and not yet written is dropped,
     * lest it land over that one.
     */
    private readonly moves: () => number = () => 0,
  ) {}

  /** whether a machine is still being saved, compressed or stored (leaving now would lose it) */
  get keeping(): boolean {
    return this.inFlight > 0;
  }

  /** Settles once a reset under way has put the machine back (or failed to). */
  async whenReset(): Promise<void> {
    await this.lastReset.catch(() => undefined);
  }

  /**
   * Settles once every machine taken so far is stored (or failed to be): those still being saved
   * (not yet queued for their store), then the queue of stores.
   */
  async whenKept(): Promise<void> {
    while (this.taking.size) await Promise.allSettled([...this.taking]);
    await this.storing;
  }

  /** whether the lab moved to another tab since now (a store begun now is then dropped) */
  private movedSince(): () => boolean {
    const then = this.moves();
    return () => this.moves() !== then;
  }

  /** count `p` as keeping a machine until it settles */
  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight++;
    void p.finally(() => this.inFlight--).catch(() => undefined);
    return p;
  }

  /**
   * A machine kept with `resets` resets before it, now stored: the reset's figure is old news
   * once a machine taken after it is kept; a reset since it was taken stays the line's news.
   */
  private resetNews(resets: number): Partial<Timing> {
    return this.resets === resets ? { resetMs: undefined } : {};
  }

  /** run `store` after the snapshots queued before it (their figures must not land over its own) */
  private queue(store: () => Promise<void>): Promise<void> {
    const stored = this.storing.then(store);
    this.storing = this.track(stored).catch(() => undefined);
    return stored;
  }

  /**
   * Keep the machine as it is now: in memory as the step's start (`kind` "step"), and in
   * IndexedDB. `stepEvents`: the events the page parsed since the step opened (stored with a
   * machine left mid-step, whose step goes on after a reload).
   */
  snapshot(vm: VmHandle, kind: SnapshotKind, at: number, stepEvents: readonly SeenEvent[] = []): Promise<void> {
    const p = this.take(vm, kind, at, stepEvents);
    this.taking.add(p);
    void p.finally(() => this.taking.delete(p)).catch(() => undefined);
    return p;
  }

  private async take(vm: VmHandle, kind: SnapshotKind, at: number, stepEvents: readonly SeenEvent[]): Promise<void> {
    const t0 = performance.now();
    const takenAt = Date.now(); // when the machine was in this state, not when the store finished
    const resets = this.resets;
    const moved = this.movedSince();
    // the shell as the save begins: a line entered from now on may be in the machine or not,
    // and makes the count differ either way (the next step's start is then saved anew)
    const lines = vm.shellLines();
    const shellBusy = vm.shellBusy();
    const was = this.newest;
    const mine = (this.newest = { vm, lines, events: stepEvents.length });
    /** not kept after all: a machine left later is kept again */
    const unkept = () => void (this.newest === mine && (this.newest = was));
    const events = kind === "left" ? [...stepEvents] : undefined;
    const saving = this.track(vm.saveState()); // now: the machine as it is at this moment
    // a reset waits for the step's machine to be saved, not for its gzip and store
    if (kind === "step") this.pendingStart = saving.then(() => undefined, () => undefined);
    const state = await saving.catch((e) => {
      unkept();
      throw e;
    });
    performance.measure("fslab:snapshot-save", { start: t0 }); // for npm run bench snapshots
    if (kind === "step") this.stepStart = { step: at, raw: state };
    // compressed and stored one after another, in the order taken (the store also keeps the
    // newer of two: progress.ts), so an older snapshot that takes longer never lands over a newer one
    const zipping = this.storing.then(() => gzip(state));
    zipping.catch(() => undefined); // its failure is said below, once
    // a command still running goes on changing the machine: no next step starts from this one
    if (kind === "latest") this.passed = shellBusy ? null : { step: at, vm, raw: state, lines, gz: zipping };
    await this.queue(async () => {
      try {
        const t1 = performance.now();
        const gz = await zipping.catch((e) => {
          unkept();
          if (this.passed?.gz === zipping) this.passed = null; // nothing to reuse
          throw notKept(kind === "step" ? `as step ${at + 1} began` : kind === "latest" ? `as step ${at + 1} passed` : "as you left the page", e);
        });
        performance.measure("fslab:snapshot-gzip", { start: t1 });
        if (moved()) return unkept();
        await putSnapshot(kind, { lab: this.labId, step: at, ...HERE, savedAt: takenAt, gz, rawBytes: state.byteLength, ...(events ? { stepEvents: events } : {}) }).catch((e) => {
          unkept();
          throw e;
        });
        // said once it is stored: a reload from now on brings it back
        this.onTiming({ snapshotMs: performance.now() - t0, snapshotBytes: gz.size, rawBytes: state.byteLength, snapshotKind: kind, snapshotOf: at, snapshotReused: false, snapshotAgain: kind === "step" && at < this.furthest, ...this.resetNews(resets) });
      } finally {
        // kept in memory for a reset, and (unless the browser refused) stored for a reload
        if (kind === "step") this.onTiming({ snapshotStep: at });
      }
    });
  }

  /**
   * Step `n` is open on `vm`: keep its start, unless it is kept already (the same step again, or
   * the machine just started from this very step's snapshot). `restoredStep`: the step whose
   * snapshot the machine was started from, if it was; `events`: the step's events so far (those
   * a machine left mid-step brought back).
   */
  stepOpened(vm: VmHandle, n: number, restoredStep: number | null, events = 0): Promise<void> {
    if (this.opened?.step === n && this.opened.vm === vm) return Promise.resolve();
    const first = this.opened === null;
    const freshVm = this.opened?.vm !== vm;
    this.opened = { step: n, vm };
    this.furthest = Math.max(this.furthest, n);
    // the machine as it stands now is kept (or is the lab's own): a left page keeps only what comes after
    this.newest = { vm, lines: vm.shellLines(), events };
    if (freshVm && n === 0 && vm.origin === "saved") {
      // the lab's own saved machine, just started, is step 1's start: nothing to keep. (A copy
      // would be the state the page has just loaded, and save_state, 100-230 ms on the page's
      // thread, would hold up the learner's first command at the prompt.)
      this.stepStart = { step: 0, raw: null };
      this.onTiming({ snapshotStep: 0 });
      return Promise.resolve();
    }
    if (first && vm.origin === "snapshot" && restoredStep === n) {
      this.onTiming({ snapshotStep: n }); // its snapshot is stored already
      return Promise.resolve();
    }
    const p = this.passed;
    this.passed = null;
    if (p && p.vm === vm && p.step === n - 1 && vm.shellLines() === p.lines && !vm.shellBusy()) return this.reusePassed(p, n);
    return this.snapshot(vm, "step", n);
  }

  /**
   * The learner left the page mid-step (useStepMachine: hidden, the shell at its prompt): the
   * machine as it is, kept as the newest, so a reload or a closed tab brings back what they did
   * in the step (the step's start stays kept for a reset). Not when nothing was entered nor
   * arrived since the newest kept machine, nor while a reset puts the machine back, nor in trouble.
   */
  keepLeft(vm: VmHandle, n: number, stepEvents: readonly SeenEvent[]): Promise<void> {
    const k = this.newest;
    // nor a machine in trouble (an oops, a full disk): a reload would bring it back without the notice
    if (this.resetting || vm.troubled() || this.opened?.step !== n || this.opened.vm !== vm) return Promise.resolve();
    if (k && k.vm === vm && k.lines === vm.shellLines() && k.events === stepEvents.length) return Promise.resolve();
    return this.snapshot(vm, "left", n, stepEvents);
  }

  /**
   * Next with nothing entered since the step before passed: the machine kept then is step `n`'s
   * start (saving it again would cost the page's thread a save and a worker a gzip of the same
   * machine, 1-2 s of CPU). Its stored copy is stored again as this step's start.
   */
  private reusePassed(p: PassedMachine, n: number): Promise<void> {
    this.stepStart = { step: n, raw: p.raw };
    this.pendingStart = null;
    const at = Date.now();
    const resets = this.resets;
    const moved = this.movedSince();
    return this.queue(async () => {
      try {
        const gz = await p.gz.catch((e) => {
          throw notKept(`as step ${n + 1} began`, e);
        });
        if (moved()) return;
        await putSnapshot("step", { lab: this.labId, step: n, ...HERE, savedAt: at, gz, rawBytes: p.raw.byteLength });
        this.onTiming({ snapshotMs: 0, snapshotBytes: gz.size, rawBytes: p.raw.byteLength, snapshotKind: "step", snapshotOf: n, snapshotReused: true, ...this.resetNews(resets) });
      } finally {
        this.onTiming({ snapshotStep: n }); // kept in memory for a reset either way
      }
    });
  }

  /**
   * The machine back as the open step `n` began: from memory, else from IndexedDB (after a
   * reload), else (step 1, or after a crash) the lab's own saved machine started again. A reset
   * makes the step's stored start the newest machine again; after a crash the stored machines
   * stay as they are. Throws when there is nothing to go back to (and it is not a crash).
   */
  async reset(vm: VmHandle, n: number, after?: "crash"): Promise<ResetOutcome> {
    this.resetting = true;
    const putting = this.putBack(vm, n, after);
    this.lastReset = putting;
    try {
      return await putting;
    } finally {
      this.resetting = false;
    }
  }

  private async putBack(vm: VmHandle, n: number, after?: "crash"): Promise<ResetOutcome> {
    const moved = this.movedSince();
    this.passed = null; // the machine goes back: the one kept as the step passed is no longer the newest
    await this.pendingStart;
    const t0 = performance.now();
    const restartOwn = async () => {
      // step 1 from the lab's own saved machine: that machine again, and nothing stored of this one
      if (!moved()) await dropSnapshots(this.labId).catch(() => undefined);
      vm.restart();
      return "restarted" as const;
    };
    if (this.stepStart?.step === n && this.stepStart.raw === null) return restartOwn();
    let state = this.stepStart?.step === n ? this.stepStart.raw : null;
    if (!state) {
      // after a reload: the step's compressed copy from IndexedDB
      const s = await getSnapshot(this.labId, "step");
      if (s?.step === n) {
        const t1 = performance.now();
        state = await gunzip(s.gz);
        performance.measure("fslab:snapshot-gunzip", { start: t1 }); // for npm run bench snapshots
      } else if (!s && n === 0) return restartOwn(); // step 1 began on the lab's own machine, none of it stored
    }
    if (!state && after === "crash") {
      vm.restart();
      return "none";
    }
    if (!state) throw new Error("there is no snapshot of this step's start (the machine was not running when it opened)");
    const t2 = performance.now();
    const when = n < this.furthest ? `you came back to step ${n + 1} (the page keeps the open step's start, not each step's)` : `step ${n + 1} began`;
    await vm.restoreState(state, `The machine is back as it was when ${when}.`);
    performance.measure("fslab:snapshot-restore", { start: t2 });
    this.resets++;
    // the step's start: kept, and made the newest below; after a crash the stored machines stay
    // as they are, so the machine now is not the newest stored one: a page left keeps it
    this.newest = after === "crash" ? null : { vm, lines: vm.shellLines(), events: 0 };
    // the machine kept as the step passed (if that was the line's news) is no longer the one running
    this.onTiming({ resetMs: performance.now() - t0, snapshotBytes: undefined, snapshotReused: false });
    if (after !== "crash") {
      // the newest machine is this one again: its stored copy made the newest, once the step's
      // own gzip and store (queued before it) have landed
      const resetAt = Date.now();
      void this.queue(async () => void (moved() || (await stepIsNewest(this.labId, n, resetAt)))).catch(() => undefined);
    }
    return "restored";
  }
}
