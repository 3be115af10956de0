// The blk core's worker: one scenario in, the same scenario under each scheduler out, with
// the rows, dispatch order and events transferred (not copied) back to the page.
import createBlk from "@wasm/blk.mjs";
import wasmUrl from "@wasm/blk.wasm?url";
import { simulateBlk, stepBlk, type BlkResult, type BlkScenario, type Scheduler } from "./blk-core";

const ready = createBlk({ locateFile: () => wasmUrl });

export interface BlkRequest {
  seq: number;
  scenario: Omit<BlkScenario, "sched">;
  scheds: Scheduler[];
  /** instead of whole runs: the first `steps` steps under scheds[0], with the queues after each */
  steps?: number;
}

self.onmessage = async (e: MessageEvent<BlkRequest>) => {
  const { seq, scenario, scheds, steps } = e.data;
  try {
    const m = await ready;
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
