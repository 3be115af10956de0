// fslab bench exfat: exFAT's batched free (__exfat_free_cluster) on 20,971,520 clusters, the same
// C natively (wasm/src/exfat/bench_exfat.c) and as wasm, their runs alternating (bench/paired.ts).
import { CASES, wasmFreeMs } from "../exfat-free";
import { interleave } from "../paired";
import { nativeRow, withNativeBench, type BenchPart } from "../report";

export const part: BenchPart = {
  order: 1,
  summary: "__exfat_free_cluster on 20,971,520 clusters: the same C natively and as wasm",
  async run() {
    await withNativeBench("build/native/bench_exfat", "exfat", async (native, module) => {
      console.log("exFAT free (batched discard), same C, native and wasm runs alternating after one warm-up pair; wasm/native per pair:");
      console.log(`  ${"case".padEnd(48)} ${"native".padStart(10)} ${"wasm".padStart(10)}  wasm/native, median of the pairs`);
      for (const c of CASES) {
        const [n, w] = await interleave(c.samples, [() => native.sample(c.name), () => wasmFreeMs(module, c.clusters, c.runs)], 1);
        console.log(nativeRow(c.name, n, w));
      }
    });
  },
};
