// Delete costs: the discard counts come from the model of __exfat_free_cluster, so a
// fragmented file frees with one discard per run when batched and one per cluster before.
import { beforeAll, describe, expect, it } from "vitest";
import type { ExfatModule } from "@wasm/exfat.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { deleteCost, DEFAULT_COST, SEED_80G } from "./exfat-cost";
import { DiscardPolicy } from "./events";

let m: ExfatModule;
beforeAll(async () => {
  m = await loadCoreModule("exfat");
});

describe("deleteCost", () => {
  it("a four-run file: 64 discards per cluster, 4 batched", () => {
    const [per, batched] = deleteCost(m, 64, 4, 3);
    expect(per).toMatchObject({ policy: DiscardPolicy.PerCluster, discardCalls: 64 });
    expect(batched).toMatchObject({ policy: DiscardPolicy.Batched, discardCalls: 4 });
  });

  it("the 6.15 commit's 80 GiB file: 20,971,520 discards against one, priced at its 4m46s and 1.66 s", () => {
    const [per, batched] = deleteCost(m, SEED_80G.clusters, 1, 3);
    expect(per.discardCalls).toBe(SEED_80G.clusters);
    expect(batched.discardCalls).toBe(1);
    expect(per.ms).toBeCloseTo(SEED_80G.perClusterMs, -2);
    expect(batched.ms).toBeCloseTo(SEED_80G.batchedMs, 0);
  });

  it("prices with the costs given", () => {
    const [per, batched] = deleteCost(m, 1000, 10, 3, { requestUs: 100, clusterNs: 0 });
    expect(per.ms).toBe(100);
    expect(batched.ms).toBe(1);
    expect(DEFAULT_COST.requestUs).toBeGreaterThan(13);
  });
});
