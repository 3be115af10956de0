// The f2fs core's free-NID model through its TypeScript API (nid.ts): scans worked by hand from
// fs/f2fs/node.c (as in wasm/tests/test_f2fs.c), and the records the guest kernel traced.
import type { F2fsModule } from "@wasm/f2fs.mjs";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "../../shared/node-load";
import { benchWorkload, benchWorkloadSteps, GUEST_NAT_BLOCKS, MAX_FREE_NIDS, NAT_ENTRY_PER_BLOCK, NID_BITMAP_BYTES, nidFrames, nidModel, nidRun, oneWriterScript, type NidRun } from "./nid";
import { F2fsError } from "./f2fs-error";
import { NidScanPhase, nidScansOf } from "./events";

let m: F2fsModule;
beforeAll(async () => {
  m = await loadCoreModule("f2fs");
});

describe("the free-NID model", () => {
  const popcount = (bytes: Uint8Array) => bytes.reduce((n, b) => n + [...b.toString(2)].filter((c) => c === "1").length, 0);

  it("mounts a 4-block NAT with one NAT entry scan, and a create takes the list's head", () => {
    const nm = nidModel(m, { natBlocks: 4 });
    try {
      // 4 x 455 entries read; 0-3 are never free: 1816 NIDs, and the 8-block walk wraps to 0
      expect(nidScansOf(nm.takeEvents())).toEqual([{ phase: NidScanPhase.Nat, skipped: false, sync: true, start: 0, end: 0, scanned: 1820, found: 1816, blocks: 8 }]);
      let s = nm.state();
      expect(s).toMatchObject({ natBlocks: 4, maxNid: 1820, free: 1816, availableNids: 1816, nextScanNid: 0, natScanDeferred: false });
      expect(Array.from(s.blocks.loaded)).toEqual([1, 1, 1, 1]);
      expect(Array.from(s.blocks.freeCount)).toEqual([451, 455, 455, 455]);
      expect(nm.freeList(3)).toEqual(Uint32Array.from([4, 5, 6]));
      expect(nm.alloc()).toBe(4);
      s = nm.state();
      expect(s.blocks.freeCount[0]).toBe(450);
      expect(s.blocks.bitmap[0]).toBe(0b1110_0000); // NIDs 5-7 of block 0's first byte
      expect(() => nm.free(5)).toThrow(F2fsError); // no node there
      nm.free(4); // back only with the checkpoint
      expect(nm.state().free).toBe(1815);
      nm.checkpoint();
      expect(nm.state().free).toBe(1816);
      expect(nm.freeList().at(-1)).toBe(4);
      nm.run([{ op: "alloc", n: 1816 }]);
      expect(() => nm.alloc()).toThrow(/no free NID/);
      expect(nm.takeEvents().length).toBe(0); // none of it scanned
    } finally {
      nm.dispose();
    }
  });

  it("after the shrinker, upstream's bitmap scan starts at block 0 and the heuristic's where the last one stopped", () => {
    const bitmapStarts = (clue: number) => {
      const nm = nidModel(m, { natBlocks: 16, clue });
      try {
        // all allocated, all freed, the list trimmed: 4..3639 stay only in the bitmap
        nm.run([{ op: "alloc", n: 7276 }, { op: "checkpoint" }, { op: "unlink", nid: 4, count: 7276 }, { op: "checkpoint" }, { op: "shrink" }]);
        expect(nm.state().free).toBe(MAX_FREE_NIDS);
        nm.takeEvents();
        nm.run([{ op: "alloc", n: 3186 }, { op: "background" }, { op: "alloc", n: 3186 }, { op: "background" }]);
        return nidScansOf(nm.takeEvents()).map((s) => [s.start, s.end, s.scanned, s.found]);
      } finally {
        nm.dispose();
      }
    };
    // the first stops in block 7 at MAX_FREE_NIDS; the second walks blocks 6 and 7
    expect(bitmapStarts(0)).toEqual([[0, 3185, 3190, 3186], [0, 0, 910, 450]]);
    expect(bitmapStarts(2)).toEqual([[0, 3185, 3190, 3186], [3185, 3185, 910, 450]]);
  });

  it("lazy NAT update: a background call records the deferred scan and reads no NAT entry; the checkpoint reads them", () => {
    const nm = nidModel(m, { natBlocks: 32, clue: 4 });
    try {
      nm.resetCounters();
      nm.takeEvents();
      nm.run([{ op: "alloc", n: 3182 }, { op: "background" }]);
      expect(nidScansOf(nm.takeEvents()).map((s) => [s.phase, s.start, s.end, s.scanned])).toEqual([[NidScanPhase.Bitmap, 0, 0, 455], [NidScanPhase.Deferred, 3640, 3640, 0]]);
      expect(nm.state()).toMatchObject({ natScanDeferred: true, counters: { nat_deferred: 1, nat_scans: 0, nids_scanned: 455 } });
      nm.checkpoint();
      expect(nidScansOf(nm.takeEvents())).toEqual([{ phase: NidScanPhase.Nat, skipped: false, sync: false, start: 3640, end: 7280, scanned: 3640, found: 3640, blocks: 8 }]);
      expect(nm.state().natScanDeferred).toBe(false);
    } finally {
      nm.dispose();
    }
  });

  it("keeps per-block state a view can draw: counts match the bitmaps and the list", () => {
    const r = nidRun(m, { natBlocks: 64, clue: 0 }, [{ op: "alloc", n: 5000 }, { op: "sync" }, { op: "unlink", nid: 1000, count: 2000 }, { op: "sync" }, { op: "alloc", n: 300 }]);
    const b = r.state.blocks;
    expect(b.loaded.length).toBe(64);
    expect(b.bitmap.length).toBe(64 * NID_BITMAP_BYTES);
    for (let i = 0; i < 64; i++) expect(popcount(b.bitmap.subarray(i * NID_BITMAP_BYTES, (i + 1) * NID_BITMAP_BYTES))).toBe(b.freeCount[i]);
    expect(b.listed.reduce((a, x) => a + x, 0)).toBe(r.state.free);
    expect(b.used.reduce((a, x) => a + x, 0)).toBe(r.state.validNodes + 2); // + the node and meta inodes
    expect(r.state.validNodes).toBe(1 + 5000 - 2000 + 300);
  });

  it("runs fslab-bench's f2fs-clue workload: what the guest test claims of the kernel", () => {
    const run = (clue: number) => nidRun(m, { clue }, benchWorkload(8000, GUEST_NAT_BLOCKS * NAT_ENTRY_PER_BLOCK));
    const [up, opt, heur, lazy] = [0, 1, 2, 4].map(run);
    for (const r of [up, heur, lazy]) {
      expect(r.scans.filter((s) => s.phase === NidScanPhase.Bitmap && !s.skipped)).toHaveLength(r.counters.bitmap_scans);
      expect(r.scans.filter((s) => s.phase === NidScanPhase.Deferred)).toHaveLength(r.counters.nat_deferred);
      expect(r.state.availableNids).toBe(GUEST_NAT_BLOCKS * NAT_ENTRY_PER_BLOCK - 4); // all freed again
    }
    expect(Array.from(opt.events)).toEqual(Array.from(up.events)); // one caller: the optimistic bit changes nothing
    expect(up.counters.nat_deferred).toBe(0);
    expect(up.counters.nat_scans).toBeGreaterThan(0);
    expect(lazy.counters.nat_deferred).toBeGreaterThan(0);
    const bitmap = (r: NidRun) => r.scans.filter((s) => s.phase === NidScanPhase.Bitmap);
    expect(bitmap(up).every((s) => s.start === 0)).toBe(true);
    expect(bitmap(up).some((s) => s.end !== 0)).toBe(true);
    const h = bitmap(heur);
    for (let k = 1; k < h.length; k++) expect(h[k].start).toBe(h[k - 1].end);
    expect(h.some((s) => s.start !== 0)).toBe(true);
  });

  // Recorded on the guest (Linux 7.2 + our patch, a 256 MiB loop device, mkfs.f2fs -q -f)
  // with the f2fs_free_nid_scan tracepoint on from before the mount, one shell, one writer:
  //   mount; echo $CLUE > clue; mkdir a; 4000 x `: > a/f$i`, sync after every 500; sync
  //   rm -rf a; sync; echo 3 > /proc/sys/vm/drop_caches
  //   mkdir b; 4000 x `: > b/f$i`, sync after every 500; sync
  // Under clue 4 that sync calls f2fs_balance_fs_bg three times: the first walks the bitmap
  // and defers the NAT scan, the other two skip the empty walk (clue_walks_avoided 2).
  it("gives the records the guest kernel traced for the same steps, under clue 0, 2, 4 and 7", () => {
    const ops = oneWriterScript(4000, 500); // the f2fs-clue lab's steps
    const kernel = (lazy: boolean) => [
      [NidScanPhase.Nat, 0, 3640, 3640, 3636], // the mount's
      [NidScanPhase.Bitmap, 0, 0, 455, 0], // the sync after 3500 files: 135 NIDs listed
      ...(lazy ? [[NidScanPhase.Deferred, 3640, 3640, 0, 0]] : []),
      [NidScanPhase.Nat, 3640, 7280, 3640, 3640], // lazy: at that sync's checkpoint
      [NidScanPhase.Bitmap, 0, 6825, 3960, 3501], // the second 4000: the list trimmed, then empty
    ];
    for (const clue of [0, 2, 4, 7]) {
      const r = nidRun(m, { clue }, ops);
      expect(r.scans.map((s) => [s.phase, s.start, s.end, s.scanned, s.found]), `clue ${clue}`).toEqual(kernel((clue & 4) !== 0));
      expect(r.counters.walks_avoided, `clue ${clue}`).toBe(clue & 4 ? 2 : 0);
    }
  });

  it("refuses what it cannot model, naming the op", () => {
    expect(() => nidModel(m, { natBlocks: 0 })).toThrow(F2fsError);
    expect(() => nidModel(m, { clue: 8 })).toThrow(F2fsError);
    const nm = nidModel(m, { natBlocks: 1 });
    try {
      expect(() => nm.run([{ op: "checkpoint" }, { op: "alloc", n: 452 }])).toThrow(/op 1 .*"alloc"/);
      expect(() => nm.setClue(8)).toThrow(F2fsError);
    } finally {
      nm.dispose();
    }
  });
});

describe("nidFrames", () => {
  it("keeps every scan of the run, one frame per operation that scanned, the mount first", async () => {
    const m = await loadCoreModule("f2fs");
    for (const clue of [0, 2, 4]) {
      const steps = benchWorkloadSteps(8000, 512 * NAT_ENTRY_PER_BLOCK);
      const frames = nidFrames(m, { clue }, steps);
      const whole = nidRun(m, { clue }, steps.flatMap((s) => s.ops));
      expect(frames.flatMap((f) => f.scans)).toEqual(whole.scans);
      expect(frames[0]).toMatchObject({ step: "mount", op: null });
      expect(frames[0].scans[0].phase).toBe(NidScanPhase.Nat);
      const last = frames.at(-1)!.state;
      expect(last.loaded).toHaveLength(512);
      // the last frame's counters are the run's at that point: nothing scans after it
      expect(last.counters.nids_scanned).toBe(whole.counters.nids_scanned);
    }
  });
});
