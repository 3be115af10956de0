// The page's handle on the f2fs worker.
import type { F2fsCosts, FxmarkResult, Workload } from "./f2fs-core";
import { WorkerClient } from "./worker-client";

export class F2fsClient {
  private client = new WorkerClient<{ workload: Workload; clues: number[]; cores: number[]; unlinks: number; costs: F2fsCosts; seed: number }, FxmarkResult[]>(
    new Worker(new URL("./f2fs.worker.ts", import.meta.url), { type: "module" }),
    "f2fs",
    (data) => data.results,
  );

  sweep(workload: Workload, clues: number[], cores: number[], unlinks: number, costs: F2fsCosts, seed: number): Promise<FxmarkResult[]> {
    return this.client.request({ workload, clues, cores, unlinks, costs, seed });
  }

  terminate(): void {
    this.client.terminate();
  }
}
