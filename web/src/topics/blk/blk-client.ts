// The page's handle on the blk worker: the simulation runs off the main thread.
import type { BlkResult, BlkScenario, BlkSteps, Scheduler } from "./blk-core";
import type { BlkTrace, TraceComparison } from "./blk-trace";
import type { DdReplay, DdStart } from "./dd-kernel";

export interface BlkReplay {
  results: BlkResult[];
  comparisons: TraceComparison[];
}
import { WorkerClient } from "../../shared/worker-client";

export class BlkClient {
  private client = new WorkerClient<
    { scenario?: Omit<BlkScenario, "sched">; scheds: Scheduler[]; steps?: number; trace?: BlkTrace; decisions?: boolean; start?: DdStart },
    BlkResult[] | BlkSteps | BlkReplay | DdReplay
  >(
    new Worker(new URL("./blk.worker.ts", import.meta.url), { type: "module" }),
    "blk",
    (data) => data.results ?? data.steps ?? data.replay ?? data.decisions,
  );

  run(scenario: Omit<BlkScenario, "sched">, scheds: Scheduler[]): Promise<BlkResult[]> {
    return this.client.request({ scenario, scheds }) as Promise<BlkResult[]>;
  }

  /** The first `steps` steps of the run under `sched`, with the queues after each. */
  steps(scenario: Omit<BlkScenario, "sched">, sched: Scheduler, steps: number): Promise<BlkSteps> {
    return this.client.request({ scenario, scheds: [sched], steps }) as Promise<BlkSteps>;
  }

  /** A trace from the guest replayed under each scheduler on the kernel's own service times, and compared with the kernel. */
  replay(trace: BlkTrace, scheds: Scheduler[]): Promise<BlkReplay> {
    return this.client.request({ trace, scheds }) as Promise<BlkReplay>;
  }

  /** The model judged at each of the kernel's mq-deadline decisions in the trace (dd-kernel.ts replayDdDecisions). */
  decisions(trace: BlkTrace, start?: DdStart): Promise<DdReplay> {
    return this.client.request({ trace, scheds: [], decisions: true, start }) as Promise<DdReplay>;
  }

  terminate(): void {
    this.client.terminate();
  }
}
