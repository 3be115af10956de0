// fslab bench blk: blk-mq + mq-deadline on 1,000,000 requests, the same C natively
// (wasm/src/blk/bench_blk.c) and as wasm, their runs alternating (bench/paired.ts), in fresh
// processes (bench/processes.ts).
import { BLK_CASE, wasmBlkRunMs } from "../blk-dispatch";
import { interleave } from "../paired";
import { acrossProcesses } from "../processes";
import { NEAR_NATIVE, withNativeBench, type BenchPart } from "../report";

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
