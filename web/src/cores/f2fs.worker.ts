// The f2fs core's worker: a sweep of FxMark unlink runs (clue masks x core counts) off the
// main thread; results are small objects, posted back as they are.
import createF2fs from "@wasm/f2fs.mjs";
import wasmUrl from "@wasm/f2fs.wasm?url";
import { fxmarkUnlink, type F2fsCosts, type FxmarkResult, type Workload } from "./f2fs-core";

const ready = createF2fs({ locateFile: () => wasmUrl });

export interface F2fsSweep {
  seq: number;
  workload: Workload;
  clues: number[];
  cores: number[];
  unlinks: number;
  costs: F2fsCosts;
  seed: number;
}

self.onmessage = async (e: MessageEvent<F2fsSweep>) => {
  const { seq, workload, clues, cores, unlinks, costs, seed } = e.data;
  try {
    const m = await ready;
    const results: FxmarkResult[] = clues.flatMap((c) => cores.map((n) => fxmarkUnlink(m, workload, c, n, unlinks, costs, seed)));
    (self as unknown as Worker).postMessage({ seq, results });
  } catch (err) {
    (self as unknown as Worker).postMessage({ seq, error: err instanceof Error ? err.message : String(err) });
  }
};
