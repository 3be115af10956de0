// Replaying a delete: the model's own events for a four-run file, stepped forwards and back.
import { beforeAll, describe, expect, it } from "vitest";
import type { ExfatModule } from "@wasm/exfat.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { ExfatCore, EXFAT_FIRST_CLUSTER } from "./exfat-core";
import { ExfatLab } from "./exfat-scenario";
import { DiscardPolicy } from "./events";
import { deleteCost } from "./exfat-cost";
import { DeleteReplay } from "./exfat-replay";

let m: ExfatModule;
beforeAll(async () => {
  m = await loadCoreModule("exfat");
});

const used = (bitmap: Uint8Array, clusters: number) => {
  let n = 0;
  for (let b = 0; b < clusters; b++) n += (bitmap[b >> 3] >> (b & 7)) & 1;
  return n;
};

function replayOf(policy: DiscardPolicy) {
  const core = ExfatCore.create(m, 128, 3);
  const lab = new ExfatLab(core);
  const id = lab.createFragmented(64, 4);
  const before = core.snapshot().bitmap.slice();
  const result = lab.delete(id, policy);
  const after = core.snapshot().bitmap.slice();
  core.dispose();
  return { replay: new DeleteReplay(before, result.events), before, after };
}

describe("DeleteReplay", () => {
  it("per cluster: 64 clears and 64 discards, one cluster at a time; the end is the model's bitmap after the delete", () => {
    const { replay, before, after } = replayOf(DiscardPolicy.PerCluster);
    expect(replay.total).toBe(128);
    const inUse = used(before, 128); // the file's 64 and the spacers between its runs
    expect(used(after, 128)).toBe(inUse - 64);
    replay.seek(2); // the first cluster's clear, then its discard
    expect(used(replay.bitmap, 128)).toBe(inUse - 1);
    expect(replay.discardsSoFar).toBe(1);
    expect(replay.discards()).toEqual([expect.objectContaining({ count: 1, policy: DiscardPolicy.PerCluster })]);
    replay.seek(replay.total);
    expect(replay.bitmap).toEqual(after);
    expect(replay.discardsSoFar).toBe(64);
    replay.seek(0); // and back: every bit restored
    expect(replay.bitmap).toEqual(before);
    expect(replay.discardsSoFar).toBe(0);
  });

  it("batched: one discard per run, each after its run's clears; the cost at the end is exfat-cost's price", () => {
    const { replay, after } = replayOf(DiscardPolicy.Batched);
    replay.seek(replay.total);
    expect(replay.bitmap).toEqual(after);
    const d = replay.discards();
    expect(d.map((x) => x.count)).toEqual([16, 16, 16, 16]);
    expect(d.every((x) => x.start >= EXFAT_FIRST_CLUSTER)).toBe(true);
    const [, batched] = deleteCost(m, 64, 4, 3);
    expect(replay.costMs[replay.total]).toBeCloseTo(batched.ms, 9);
    const [per] = deleteCost(m, 64, 4, 3);
    expect(replayOf(DiscardPolicy.PerCluster).replay.costMs.at(-1)).toBeCloseTo(per.ms, 9);
  });
});
