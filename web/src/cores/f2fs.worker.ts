// The f2fs core's worker: a sweep of FxMark unlink runs (clue masks x core counts), or a
// free-NID model run through a script, off the main thread. Sweep results are small objects,
// posted back as they are; a model run's event stream and block arrays are transferred.
import createF2fs from "@wasm/f2fs.mjs";
import wasmUrl from "@wasm/f2fs.wasm?url";
import { fxmarkUnlink, nidFrames, nidRun, type F2fsCosts, type FxmarkResult, type NidModelOptions, type NidOp, type Workload } from "./f2fs-core";

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

self.onmessage = async (e: MessageEvent<F2fsSweep | F2fsNidRequest | F2fsFramesRequest>) => {
  const { seq } = e.data;
  try {
    const m = await ready;
    if (e.data.kind === "frames") {
      const frames = nidFrames(m, e.data.opts, e.data.steps);
      (self as unknown as Worker).postMessage({ seq, frames }, frames.flatMap((f) => [f.state.loaded.buffer, f.state.freeCount.buffer]) as ArrayBuffer[]);
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
