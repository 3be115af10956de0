// The page's handle on the f2fs worker: FxMark sweeps, their lock-wait timelines and
// free-NID model runs share it.
import type { F2fsCosts, FxmarkResult, LockTrace, LockTraceOptions, NidFrame, NidModelOptions, NidOp, NidRun, Workload } from "./f2fs-core";
import { WorkerClient } from "../../shared/worker-client";

type Request =
  | { kind: "sweep"; workload: Workload; clues: number[]; cores: number[]; unlinks: number; costs: F2fsCosts; seed: number }
  | { kind: "trace"; workload: Workload; clues: number[]; cores: number; unlinks: number; costs: F2fsCosts; seed: number; opts: LockTraceOptions }
  | { kind: "nid"; opts: NidModelOptions; ops: NidOp[] }
  | { kind: "frames"; opts: NidModelOptions; steps: { step: string; ops: NidOp[] }[] };

export class F2fsClient {
  private client = new WorkerClient<Request, { results?: FxmarkResult[]; traces?: LockTrace[]; run?: NidRun; frames?: NidFrame[] }>(
    new Worker(new URL("./f2fs.worker.ts", import.meta.url), { type: "module" }),
    "f2fs",
    (data) => data,
  );

  async sweep(workload: Workload, clues: number[], cores: number[], unlinks: number, costs: F2fsCosts, seed: number): Promise<FxmarkResult[]> {
    return (await this.client.request({ kind: "sweep", workload, clues, cores, unlinks, costs, seed })).results!;
  }

  /** one run per clue mask at `cores` cores, traced within opts' bound (fxmarkTrace) */
  async traces(workload: Workload, clues: number[], cores: number, unlinks: number, costs: F2fsCosts, seed: number, opts: LockTraceOptions = {}): Promise<LockTrace[]> {
    return (await this.client.request({ kind: "trace", workload, clues, cores, unlinks, costs, seed, opts })).traces!;
  }

  /** a fresh free-NID model through `ops`: its records and its per-block state */
  async nidRun(opts: NidModelOptions, ops: NidOp[]): Promise<NidRun> {
    return (await this.client.request({ kind: "nid", opts, ops })).run!;
  }

  /** the model through a workload, a frame after each operation that scanned */
  async nidFrames(opts: NidModelOptions, steps: { step: string; ops: NidOp[] }[]): Promise<NidFrame[]> {
    return (await this.client.request({ kind: "frames", opts, steps })).frames!;
  }

  terminate(): void {
    this.client.terminate();
  }
}
