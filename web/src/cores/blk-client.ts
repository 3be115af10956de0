// The page's handle on the blk worker: the simulation runs off the main thread.
import type { BlkResult, BlkScenario, Scheduler } from "./blk-core";

export class BlkClient {
  private worker = new Worker(new URL("./blk.worker.ts", import.meta.url), { type: "module" });
  private seq = 0;
  private pending = new Map<number, { resolve: (r: BlkResult[]) => void; reject: (e: Error) => void }>();

  constructor() {
    this.worker.onmessage = (e) => {
      const p = this.pending.get(e.data.seq);
      if (!p) return;
      this.pending.delete(e.data.seq);
      if (e.data.error) p.reject(new Error(e.data.error));
      else p.resolve(e.data.results);
    };
    this.worker.onerror = (e) => {
      const err = new Error(`blk worker failed: ${e.message || "could not load the wasm core"}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
  }

  run(scenario: Omit<BlkScenario, "sched">, scheds: Scheduler[]): Promise<BlkResult[]> {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.worker.postMessage({ seq, scenario, scheds });
    });
  }

  terminate(): void {
    this.worker.terminate();
  }
}
