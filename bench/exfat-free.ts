// The wasm side of the exFAT free benchmark: the same cases as wasm/src/exfat/bench_exfat.c,
// through the same exports the page uses. Setup is not timed; only the delete is.
import type { ExfatModule } from "@wasm/exfat.mjs";
import { ExfatCore } from "../web/src/topics/exfat/exfat-core";
import { DiscardPolicy } from "../web/src/topics/exfat/events";

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
