// fslab bench blk: blk-mq + mq-deadline on 1,000,000 requests, the same C natively
// (wasm/src/blk/bench_blk.c) and as wasm, their runs alternating (bench/paired.ts), in fresh
// processes (bench/processes.ts). The wasm side runs the native case through the same exports
// the page uses; only the run is timed, not building the jobs or copying results.
import type { BlkModule } from "@wasm/blk.mjs";
import { DEVICES, fioJobs, newBlkSim } from "./blk-core";
import { interleave } from "../../../../bench/paired";
import { acrossProcesses } from "../../../../bench/processes";
import { NEAR_NATIVE, withNativeBench, type BenchPart } from "../../../../bench/report";

const BLK_CASE = "mq-deadline, 1000000 requests";

function wasmBlkRunMs(m: BlkModule): number {
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

/** pairs (a run is ~0.25 s natively) */
const BLK_PAIRS = 9;

export const part: BenchPart = {
  order: 2,
  summary: "blk-mq + mq-deadline on 1,000,000 requests: natively and as wasm, in fresh processes",
  async run() {
    await acrossProcesses(
      "blk",
      "blk-mq + mq-deadline (4 jobs x iodepth 4, random 4 KiB reads, one-tag disk), same C, native and wasm runs alternating after one warm-up pair",
      (add) =>
        withNativeBench("build/native/bench_blk", "blk", async (native, module) => {
          const [n, w] = await interleave(BLK_PAIRS, [() => native.sample(BLK_CASE), () => wasmBlkRunMs(module)], 1);
          add({ name: BLK_CASE, ratio: "native against wasm, wasm/native", native: n, wasm: w, goal: NEAR_NATIVE });
        }),
    );
  },
};
