// fslab bench exfat: exFAT's batched free (__exfat_free_cluster) on 20,971,520 clusters, the same
// C natively (wasm/src/exfat/bench_exfat.c) and as wasm, their runs alternating (bench/paired.ts),
// in fresh processes (bench/processes.ts).
import { CASES, wasmFreeMs } from "../exfat-free";
import { interleave } from "../paired";
import { acrossProcesses } from "../processes";
import { NEAR_NATIVE, withNativeBench, type BenchPart } from "../report";

export const part: BenchPart = {
  order: 1,
  summary: "__exfat_free_cluster on 20,971,520 clusters: the same C natively and as wasm, in fresh processes",
  async run() {
    await acrossProcesses("exfat", "exFAT free (batched discard), same C, native and wasm runs alternating after one warm-up pair", (add) =>
      withNativeBench("build/native/bench_exfat", "exfat", async (native, module) => {
        for (const c of CASES) {
          const [n, w] = await interleave(c.samples, [() => native.sample(c.name), () => wasmFreeMs(module, c.clusters, c.runs)], 1);
          add({ name: c.name, ratio: "native against wasm, wasm/native", native: n, wasm: w, goal: NEAR_NATIVE });
        }
      }),
    );
  },
};
