// The blk core's worker: scenarios under each scheduler, step-throughs, trace replays and the
// kernel's mq-deadline decisions judged by the model, off the main thread. Protocol:
// shared/worker-protocol.ts; rows, dispatch order and events are transferred, not copied.
import createBlk from "@wasm/blk.mjs";
import wasmUrl from "@wasm/blk.wasm?url";
import { serve } from "../../shared/worker-protocol";
import { simulateBlk, stepBlk, type BlkScenario, type Scheduler } from "./blk-core";
import { compareBlkTrace } from "./trace-compare";
import { simulateBlkTrace } from "./trace-replay";
import { type BlkTrace } from "./blk-trace";
import { replayDdDecisions, type DdStart } from "./dd-kernel";

const handlers = serve(createBlk({ locateFile: () => wasmUrl }), {
  /** the same scenario under each scheduler */
  run: (m, scenario: Omit<BlkScenario, "sched">, scheds: Scheduler[]) => scheds.map((sched) => simulateBlk(m, { ...scenario, sched })),
  /** the first `steps` steps of the run under `sched`, with the queues after each */
  steps: (m, scenario: Omit<BlkScenario, "sched">, sched: Scheduler, steps: number) => stepBlk(m, { ...scenario, sched }, steps),
  /** a trace from the guest replayed under each scheduler on the kernel's own service times, and compared with the kernel */
  replay(m, trace: BlkTrace, scheds: Scheduler[]) {
    const results = scheds.map((sched) => simulateBlkTrace(m, trace, sched, "kernel", { dispatchGaps: true }));
    return { results, comparisons: results.map((r) => compareBlkTrace(trace, r)) };
  },
  /** the model judged at each of the kernel's mq-deadline decisions in the trace (from a carried start state) */
  decisions: (m, trace: BlkTrace, start?: DdStart) => replayDdDecisions(m, trace, undefined, undefined, start),
});

export type BlkWorker = typeof handlers;
/** what `replay` answers */
export type BlkReplay = Awaited<ReturnType<BlkWorker["replay"]>>;
