// The f2fs core's worker: sweeps of FxMark unlink runs (clue masks x core counts), lock-wait
// timelines of some of those runs, and free-NID model runs through a script, off the main
// thread. Protocol: shared/worker-protocol.ts; a model run's event stream and block arrays
// are transferred.
import createF2fs from "@wasm/f2fs.mjs";
import wasmUrl from "@wasm/f2fs.wasm?url";
import { serve } from "../../shared/worker-protocol";
import { fxmarkTrace, fxmarkUnlink, type F2fsCosts, type LockTraceOptions, type Workload } from "./fxmark";
import { nidFrames, nidRun, type NidModelOptions, type NidOp } from "./nid";

const handlers = serve(createF2fs({ locateFile: () => wasmUrl }), {
  /** one run per clue mask and core count */
  sweep: (m, workload: Workload, clues: number[], cores: number[], unlinks: number, costs: F2fsCosts, seed: number) =>
    clues.flatMap((c) => cores.map((n) => fxmarkUnlink(m, workload, c, n, unlinks, costs, seed))),
  /** one run per clue mask at `cores` cores, traced within opts' bound (fxmarkTrace) */
  traces: (m, workload: Workload, clues: number[], cores: number, unlinks: number, costs: F2fsCosts, seed: number, opts: LockTraceOptions = {}) =>
    clues.map((c) => fxmarkTrace(m, workload, c, cores, unlinks, opts, costs, seed)),
  /** a fresh free-NID model through `ops`: its records and its per-block state */
  nidRun: (m, opts: NidModelOptions, ops: NidOp[]) => nidRun(m, opts, ops),
  /** the model through a workload, a frame after each operation that scanned */
  nidFrames: (m, opts: NidModelOptions, steps: { step: string; ops: NidOp[] }[]) => nidFrames(m, opts, steps),
});

export type F2fsWorker = typeof handlers;
