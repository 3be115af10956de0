// The page's handle on the blk worker: the simulation runs off the main thread.
import type { BlkResult, BlkScenario, Scheduler } from "./blk-core";
import { WorkerClient } from "./worker-client";

export class BlkClient {
  private client = new WorkerClient<{ scenario: Omit<BlkScenario, "sched">; scheds: Scheduler[] }, BlkResult[]>(
    new Worker(new URL("./blk.worker.ts", import.meta.url), { type: "module" }),
    "blk",
    (data) => data.results,
  );

  run(scenario: Omit<BlkScenario, "sched">, scheds: Scheduler[]): Promise<BlkResult[]> {
    return this.client.request({ scenario, scheds });
  }

  terminate(): void {
    this.client.terminate();
  }
}
