// fslab bench exfat: exFAT's batched free (__exfat_free_cluster) on 20,971,520 clusters, the same
// C natively (wasm/src/exfat/bench_exfat.c) and as wasm, their runs alternating (bench/paired.ts),
// in fresh processes (bench/processes.ts). The wasm side goes through the same exports the page
// uses; setup is not timed, only the delete is.
import type { ExfatModule } from "@wasm/exfat.mjs";
import { ExfatCore } from "./exfat-core";
import { DiscardPolicy } from "./events";
import { interleave } from "../../../../bench/paired";
import { acrossProcesses } from "../../../../bench/processes";
import { NEAR_NATIVE, withNativeBench, type BenchPart } from "../../../../bench/report";

// samples: as in bench_exfat.c; the NoFatChain free takes ~0.1 ms (a memory-bound clear of
// 2.5 MiB of bitmap), where one run's median of 15 still moved by 20%: more samples there
export const CASES = [
  { name: "free 20971520 clusters, NoFatChain", clusters: 20_971_520, runs: 1, samples: 61 },
  { name: "free 20971520 clusters, FAT chain of 1024 runs", clusters: 20_971_520, runs: 1024, samples: 15 },
];

export function wasmFreeMs(module: ExfatModule, clusters: number, runs: number): number {
  const core = ExfatCore.create(module, clusters + runs, 3);
  try {
    core.setPolicy(true, DiscardPolicy.Batched);
    const f = core.createFile("big");
    const g = core.createFile("gap");
    for (let r = 0; r < runs; r++) {
      core.append(f, Math.floor(clusters / runs));
      core.append(g, 1);
      core.takeEvents(); // a FAT chain's setup writes one FAT event per cluster: don't hoard them
    }
    const t0 = performance.now();
    core.delete(f);
    return performance.now() - t0;
  } finally {
    core.dispose();
  }
}

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
