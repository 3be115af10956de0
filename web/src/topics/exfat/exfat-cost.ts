// What a delete costs under each discard policy: the model counts the discard requests
// (__exfat_free_cluster), a two-parameter cost turns counts into time. The defaults are
// fitted to the measurement behind Linux 6.15's change (rm of an 80 GiB file of
// 4 KiB clusters: 4m46s one discard per cluster, 1.66 s batched, one request):
//   batched     1 request  + 20,971,520 clusters x 79.2 ns  = 1.66 s
//   per cluster 20,971,520 requests x 13.56 us + the same    = 286 s
import type { ExfatModule } from "@wasm/exfat.mjs";
import { ExfatCore } from "./exfat-core";
import { ExfatLab } from "./exfat-scenario";
import { DiscardPolicy } from "./events";

export const SEED_80G = { clusters: 20_971_520, perClusterMs: 286_000, batchedMs: 1_660 };
export const DEFAULT_COST = {
  clusterNs: (SEED_80G.batchedMs * 1e6) / SEED_80G.clusters,
  requestUs: ((SEED_80G.perClusterMs - SEED_80G.batchedMs) * 1e3) / (SEED_80G.clusters - 1),
};

/** A delete's modelled time: its discard requests and the clusters it frees, at the given costs. */
export function priceMs(discardCalls: number, clusters: number, cost = DEFAULT_COST): number {
  return (discardCalls * cost.requestUs) / 1e3 + (clusters * cost.clusterNs) / 1e6;
}

export interface DeleteCost {
  policy: DiscardPolicy;
  discardCalls: number;
  ms: number;
}

/** Deletes a file of `clusters` clusters in `runs` pieces under both policies. */
export function deleteCost(m: ExfatModule, clusters: number, runs: number, sectPerClusBits: number, cost = DEFAULT_COST): DeleteCost[] {
  const core = ExfatCore.create(m, clusters + runs, sectPerClusBits);
  try {
    core.recordEvents(false);
    const lab = new ExfatLab(core);
    const id = runs > 1 ? lab.createFragmented(clusters, runs) : lab.createContiguous(clusters);
    return [DiscardPolicy.PerCluster, DiscardPolicy.Batched].map((policy) => {
      const copy = core.clone();
      try {
        copy.recordEvents(false);
        copy.setPolicy(true, policy);
        const before = copy.discardCalls;
        copy.delete(id);
        const discardCalls = copy.discardCalls - before;
        return { policy, discardCalls, ms: priceMs(discardCalls, clusters, cost) };
      } finally {
        copy.dispose();
      }
    });
  } finally {
    core.dispose();
  }
}
