import { describe, expect, it } from "vitest";
import { DiscardPolicy, type ExfatDiscard } from "./events";
import { deletesOf, discardVerdict } from "./KernelDiscards";

const perCluster = (start: number, n: number): ExfatDiscard[] => Array.from({ length: n }, (_, i) => ({ start: start + i, count: 1, policy: DiscardPolicy.PerCluster }));
const batched = (runs: [number, number][]): ExfatDiscard[] => runs.map(([start, count]) => ({ start, count, policy: DiscardPolicy.Batched }));

// the lab's step 2: a four-run file of 16-cluster runs deleted per cluster, then again batched
const runs: [number, number][] = [[10, 16], [27, 16], [44, 16], [61, 16]];
const kernel = [...runs.flatMap(([s, n]) => perCluster(s, n)), ...batched(runs)];

describe("discardVerdict: the exfat-clusters view's answer to a lab's expect", () => {
  const groups = deletesOf(kernel);

  it("waits while there are no deletes, or the model has not made one yet", () => {
    expect(discardVerdict([], () => undefined).state).toBe("waiting");
    expect(discardVerdict(groups, (g) => (g[0].policy === DiscardPolicy.PerCluster ? g : undefined))).toEqual({
      state: "waiting",
      detail: "the model is deleting the same file as the kernel's delete 2",
    });
  });

  it("agrees when every delete's requests are the model's, in number and length", () => {
    expect(groups.map((g) => g.length)).toEqual([64, 4]);
    // the model places the file elsewhere: what must match is the requests' lengths
    const model = (g: ExfatDiscard[]) => g.map((d) => ({ ...d, start: d.start + 1000 }));
    expect(discardVerdict(groups, model)).toEqual({ state: "agree", detail: "all 2 deletes: the model sent the kernel's 68 requests, of the same lengths" });
  });

  it("names the delete where the model sent other requests", () => {
    // a model that batched the old way's delete would send 4, not 64
    const model = (g: ExfatDiscard[]) => (g[0].policy === DiscardPolicy.PerCluster ? batched(runs) : g);
    const v = discardVerdict(groups, model);
    expect(v.state).toBe("disagree");
    expect(v.detail).toMatch(/^delete 1: the kernel sent 64 requests \(1,1,.*\), the model 4 \(16,16,16,16\)$/);
  });
});
