// The wasm side of the blk benchmark: the case of wasm/src/blk/bench_blk.c through the same
// exports the page uses; only the run is timed, not building the jobs or copying results.
import type { BlkModule } from "@wasm/blk.mjs";
import { DEVICES, fioJobs, newBlkSim } from "../web/src/topics/blk/blk-core";

export const BLK_CASE = "mq-deadline, 1000000 requests";

export function wasmBlkRunMs(m: BlkModule): number {
  // the native case's regions: job i at i << 20, span 1 << 20 sectors
  const jobs = fioJobs({ numjobs: 4, iodepth: 4, bs: 4096, rw: "randread", size: 250_000 * 4096 }).map((j, i) => ({ ...j, offset: i * 2 ** 20, span: 2 ** 20 }));
  const sim = newBlkSim(m, { sched: "mq-deadline", device: DEVICES.hdd, jobs, hz: 250, seed: 1 });
  try {
    const t0 = performance.now();
    if (m._fx_blk_run(sim) < 0) throw new Error("blk simulation ran out of memory");
    return performance.now() - t0;
  } finally {
    m._fx_blk_free(sim);
  }
}
