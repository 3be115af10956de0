// The blk core's worker: one scenario in, the same scenario under each scheduler out, with
// the rows, dispatch order and events transferred (not copied) back to the page.
import createBlk from "@wasm/blk.mjs";
import wasmUrl from "@wasm/blk.wasm?url";
import { simulateBlk, stepBlk, type BlkResult, type BlkScenario, type Scheduler } from "./blk-core";
import { compareBlkTrace, simulateBlkTrace, type BlkTrace } from "./blk-trace";
import { replayDdDecisions, type DdStart } from "./dd-kernel";

const ready = createBlk({ locateFile: () => wasmUrl });

export interface BlkRequest {
  seq: number;
  scenario: Omit<BlkScenario, "sched">;
  scheds: Scheduler[];
  /** instead of whole runs: the first `steps` steps under scheds[0], with the queues after each */
  steps?: number;
  /** instead of jobs: replay this trace (one device) on the kernel's measured service times */
  trace?: BlkTrace;
  /** with trace: instead of a replay under each scheduler, the model judged at each of the kernel's mq-deadline decisions */
  decisions?: boolean;
  /** ... from this carried state (a run that follows others) */
  start?: DdStart;
}

self.onmessage = async (e: MessageEvent<BlkRequest>) => {
  const { seq, scenario, scheds, steps, trace, decisions, start } = e.data;
  try {
    const m = await ready;
    if (trace && decisions) {
      (self as unknown as Worker).postMessage({ seq, decisions: replayDdDecisions(m, trace, undefined, undefined, start) });
      return;
    }
    if (trace) {
      const results = scheds.map((sched) => simulateBlkTrace(m, trace, sched, "kernel", { dispatchGaps: true }));
      const comparisons = results.map((r) => compareBlkTrace(trace, r));
      (self as unknown as Worker).postMessage({ seq, replay: { results, comparisons } });
      return;
    }
    if (steps) {
      const st = stepBlk(m, { ...scenario, sched: scheds[0] }, steps);
      (self as unknown as Worker).postMessage({ seq, steps: st }, [st.words.buffer, st.offsets.buffer, st.rows.buffer] as ArrayBuffer[]);
      return;
    }
    const results: BlkResult[] = scheds.map((sched) => simulateBlk(m, { ...scenario, sched }));
    const buffers = results.flatMap((r) => [r.rows.buffer, r.order.buffer, r.events.buffer]) as ArrayBuffer[];
    (self as unknown as Worker).postMessage({ seq, results }, buffers);
  } catch (err) {
    (self as unknown as Worker).postMessage({ seq, error: err instanceof Error ? err.message : String(err) });
  }
};
