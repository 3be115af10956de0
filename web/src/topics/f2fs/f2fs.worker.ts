// The f2fs core's worker: a sweep of FxMark unlink runs (clue masks x core counts), lock-wait
// timelines of some of those runs, or a free-NID model run through a script, off the main
// thread. Sweep results and timelines (a few thousand spans, bounded by LockTraceOptions) are
// posted back as they are; a model run's event stream and block arrays are transferred.
import createF2fs from "@wasm/f2fs.mjs";
import wasmUrl from "@wasm/f2fs.wasm?url";
import { fxmarkTrace, fxmarkUnlink, nidFrames, nidRun, type F2fsCosts, type FxmarkResult, type LockTraceOptions, type NidModelOptions, type NidOp, type Workload } from "./f2fs-core";

const ready = createF2fs({ locateFile: () => wasmUrl });

export interface F2fsSweep {
  seq: number;
  kind?: "sweep";
  workload: Workload;
  clues: number[];
  cores: number[];
  unlinks: number;
  costs: F2fsCosts;
  seed: number;
}

export interface F2fsTraceRequest {
  seq: number;
  kind: "trace";
  workload: Workload;
  clues: number[];
  cores: number;
  unlinks: number;
  costs: F2fsCosts;
  seed: number;
  opts: LockTraceOptions;
}

export interface F2fsNidRequest {
  seq: number;
  kind: "nid";
  opts: NidModelOptions;
  ops: NidOp[];
}

export interface F2fsFramesRequest {
  seq: number;
  kind: "frames";
  opts: NidModelOptions;
  steps: { step: string; ops: NidOp[] }[];
}

self.onmessage = async (e: MessageEvent<F2fsSweep | F2fsTraceRequest | F2fsNidRequest | F2fsFramesRequest>) => {
  const { seq } = e.data;
  try {
    const m = await ready;
    if (e.data.kind === "frames") {
      const frames = nidFrames(m, e.data.opts, e.data.steps);
      (self as unknown as Worker).postMessage({ seq, frames }, frames.flatMap((f) => [f.state.loaded.buffer, f.state.freeCount.buffer]) as ArrayBuffer[]);
      return;
    }
    if (e.data.kind === "trace") {
      const { workload, clues, cores, unlinks, costs, seed, opts } = e.data;
      const traces = clues.map((c) => fxmarkTrace(m, workload, c, cores, unlinks, opts, costs, seed));
      (self as unknown as Worker).postMessage({ seq, traces });
      return;
    }
    if (e.data.kind === "nid") {
      const run = nidRun(m, e.data.opts, e.data.ops);
      const b = run.state.blocks;
      (self as unknown as Worker).postMessage({ seq, run }, [run.events.buffer, b.loaded.buffer, b.freeCount.buffer, b.bitmap.buffer, b.listed.buffer, b.used.buffer, b.dirty.buffer]);
      return;
    }
    const { workload, clues, cores, unlinks, costs, seed } = e.data;
    const results: FxmarkResult[] = clues.flatMap((c) => cores.map((n) => fxmarkUnlink(m, workload, c, n, unlinks, costs, seed)));
    (self as unknown as Worker).postMessage({ seq, results });
  } catch (err) {
    (self as unknown as Worker).postMessage({ seq, error: err instanceof Error ? err.message : String(err) });
  }
};
