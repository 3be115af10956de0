// The exfat core through its TypeScript API and the real wasm build: the numbers the page
// shows come from here, so these pin them to cases worked by hand from fs/exfat/fatent.c.
import { beforeAll, describe, expect, it } from "vitest";
import type { ExfatModule } from "@wasm/exfat.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { ExfatCore, ExfatError, ALLOC_FAT_CHAIN, ALLOC_NO_FAT_CHAIN, runsOf } from "./exfat-core";
import { ExfatLab } from "./exfat-scenario";
import { countOf, unitsOf } from "../../shared/events";
import { DiscardPolicy, EV } from "./events";

let module: ExfatModule;
beforeAll(async () => {
  module = await loadCoreModule("exfat");
});

describe("ExfatCore", () => {
  it("a lone file is one NoFatChain run starting at cluster 2", () => {
    const core = ExfatCore.create(module, 64);
    const id = core.createFile("a");
    core.append(id, 8);
    const snap = core.snapshot();
    expect(snap.files[0].flags).toBe(ALLOC_NO_FAT_CHAIN);
    expect(Array.from(snap.files[0].clusters)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(snap.bitmap[0]).toBe(0xff);
    expect(snap.usedClusters).toBe(8);
    const ev = core.takeEvents();
    expect(unitsOf(ev, EV.EXFAT_BITMAP_SET)).toBe(8);
    expect(countOf(ev, EV.EXFAT_BITMAP_SET)).toBe(1); // one run record
    expect(countOf(ev, EV.EXFAT_FAT_WRITE)).toBe(0);
    core.dispose();
  });

  it("names the error when the volume is full", () => {
    const core = ExfatCore.create(module, 64);
    const id = core.createFile("big");
    expect(() => core.append(id, 65)).toThrow(ExfatError);
    expect(() => core.append(id, 65)).toThrow(/append to big: no space left/);
    expect(() => core.delete(42)).toThrow(/no such file/);
    core.dispose();
  });
});

describe("ExfatLab (the lab's buttons)", () => {
  it("a fragmented file of 20 clusters in 4 runs: 20 discards per cluster, 4 batched", () => {
    const lab = new ExfatLab(ExfatCore.create(module, 512));
    const id = lab.createFragmented(20, 4);
    const file = lab.snapshot().files.find((f) => f.id === id)!;
    expect(file.flags).toBe(ALLOC_FAT_CHAIN);
    expect(runsOf(file.clusters)).toBe(4);
    // frag1 takes 2..6, its log 7, frag1 8..12, log 13, ...
    expect(Array.from(file.clusters.slice(4, 7))).toEqual([6, 8, 9]);

    const r = lab.delete(id, DiscardPolicy.PerCluster);
    expect(r.discards).toHaveLength(20);
    expect(r.discards.every((d) => d.count === 1 && d.policy === DiscardPolicy.PerCluster)).toBe(true);
    expect(r.otherPolicyDiscards).toBe(4);
    expect(unitsOf(r.events, EV.EXFAT_BITMAP_CLEAR)).toBe(20);
    lab.core.dispose();
  });

  it("both policies leave the same bitmap: only the discards differ", () => {
    const a = new ExfatLab(ExfatCore.create(module, 512));
    const b = new ExfatLab(ExfatCore.create(module, 512));
    const ids = [a, b].map((lab) => {
      lab.createContiguous(24);
      return lab.createFragmented(30, 5);
    });
    const ra = a.delete(ids[0], DiscardPolicy.PerCluster);
    const rb = b.delete(ids[1], DiscardPolicy.Batched);
    expect(ra.discards.length).toBe(30);
    expect(rb.discards.map((d) => [d.start, d.count])).toEqual([
      [26, 6], [33, 6], [40, 6], [47, 6], [54, 6],
    ]);
    expect(a.snapshot().bitmap).toEqual(b.snapshot().bitmap);
    a.core.dispose();
    b.core.dispose();
  });

  it("a contiguous file costs one batched discard covering all of it", () => {
    const lab = new ExfatLab(ExfatCore.create(module, 512));
    const id = lab.createContiguous(24);
    const r = lab.delete(id, DiscardPolicy.Batched);
    expect(r.discards).toEqual([{ start: 2, count: 24, policy: DiscardPolicy.Batched }]);
    expect(r.otherPolicyDiscards).toBe(24);
    lab.core.dispose();
  });
});
