// The f2fs core through its TypeScript API: the same numbers the CLI prints; the free-NID
// model's scans worked by hand from fs/f2fs/node.c (as in wasm/tests/test_f2fs.c).
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "../../shared/node-load";
import { benchWorkload, benchWorkloadSteps, F2fsError, FXMARK_COSTS, fxmarkTrace, fxmarkUnlink, GUEST_NAT_BLOCKS, LOCKS, TIMELINE_WINDOW_NS, timelineTotals, MAX_FREE_NIDS, NAT_ENTRY_PER_BLOCK, NID_BITMAP_BYTES, nidFrames, nidModel, nidRun, oneWriterScript, type NidOp, type NidRun } from "./f2fs-core";
import { NidScanPhase, nidScansOf } from "../../shared/events";

let m: any;
beforeAll(async () => {
  m = await loadCoreModule("f2fs");
});

describe("fxmarkUnlink", () => {
  it("one core, upstream: 27.1 us an unlink, every one a bitmap and a NAT scan under build_lock", () => {
    const r = fxmarkUnlink(m, "MWUL", 0, 1, 100);
    expect(r.seconds).toBeCloseTo(100 * 27_100e-9, 12);
    expect(r).toMatchObject({ unlinks: 100, bitmap_scans: 100, nat_scans: 100, scans_skipped: 0, nat_deferred: 0 });
  });

  it("reproduces the paper's ratios at 120 cores: ~15x MWUL, ~3x MWUM", () => {
    const at120 = (w: "MWUL" | "MWUM", clue: number) => fxmarkUnlink(m, w, clue, 120, 1000).unlinks_per_sec;
    const mwul = at120("MWUL", 7) / at120("MWUL", 0);
    const mwum = at120("MWUM", 7) / at120("MWUM", 0);
    expect(mwul).toBeGreaterThan(10);
    expect(mwul).toBeLessThan(25);
    expect(mwum).toBeGreaterThan(2.5);
    expect(mwum).toBeLessThan(4);
  });

  it("shows where MWUM waits: the shared directory's lock", () => {
    const r = fxmarkUnlink(m, "MWUM", 7, 30, 500);
    expect(r.wait_ms.dir).toBeGreaterThan(10 * (r.wait_ms.build + r.wait_ms.bitmap + r.wait_ms.list));
  });

  it("refuses what it cannot run", () => {
    expect(() => fxmarkUnlink(m, "MWUL", 0, 0, 10)).toThrow(F2fsError);
    expect(() => fxmarkUnlink(m, "MWUL", 0, 2, 10, { ...FXMARK_COSTS, heuristic_pct: 101 })).toThrow(F2fsError);
  });
});

describe("fxmarkTrace: lock-wait timelines", () => {
  it("2 cores, MWUM upstream, by hand: core 1 waits for the directory from its arrival until core 0 lets go", () => {
    const t = fxmarkTrace(m, "MWUM", 0, 2, 2, { untilNs: Infinity });
    const [c0, c1] = t.cores;
    // path walk 3000; i_rwsem; f2fs_unlink 4000; build_lock: check 100 + bitmap 8000 + NAT 12000
    expect(c0.spans.slice(0, 3)).toEqual([
      { lock: "dir", kind: "hold", depth: 0, from: 3000, to: 27_100 },
      { lock: "build", kind: "hold", depth: 1, from: 7000, to: 27_100 },
      { lock: "dir", kind: "wait", depth: 0, from: 30_100, to: 51_200 },
    ]);
    expect(c1.spans[0]).toEqual({ lock: "dir", kind: "wait", depth: 0, from: 3000, to: c0.spans[0].to });
    expect(c1.spans[1]).toEqual({ lock: "dir", kind: "hold", depth: 0, from: 27_100, to: 51_200 });
    expect(c1.doneNs).toBe(3000 + 4 * 24_100);
  });

  it("leaves the run's numbers as fxmarkUnlink gives them, and over a whole run its waits add up to them", () => {
    for (const [w, clue, cores] of [["MWUL", 0, 8], ["MWUL", 7, 30], ["MWUM", 0, 16], ["MWUM", 1, 120]] as const) {
      const t = fxmarkTrace(m, w, clue, cores, 50, { untilNs: Infinity, every: 1, maxSpans: 400 });
      expect(t.result).toEqual(fxmarkUnlink(m, w, clue, cores, 50));
      expect(t.dropped).toBe(0);
      expect(t.cores.map((c) => c.core)).toEqual(Array.from({ length: cores }, (_, i) => i));
      for (const l of LOCKS) {
        const waited = t.cores.reduce((n, c) => n + c.spans.filter((s) => s.kind === "wait" && s.lock === l).reduce((a, s) => a + s.to - s.from, 0), 0);
        expect(waited / 1e6).toBeCloseTo(t.result.wait_ms[l], 9);
        expect(timelineTotals(t).reduce((n, c) => n + c.wait_us[l], 0) / 1e3).toBeCloseTo(t.result.wait_ms[l], 6);
      }
      for (const c of t.cores) {
        // at one depth a core's spans never overlap
        for (const d of [0, 1]) {
          const at = c.spans.filter((s) => s.depth === d);
          at.forEach((s, i) => i && expect(s.from).toBeGreaterThanOrEqual(at[i - 1].to));
        }
      }
      // over the whole run a core's time is waiting, holding or its own work
      for (const x of timelineTotals(t)) {
        const c = t.cores.find((y) => y.core === x.core)!;
        expect(x.working_us + x.holding_us + LOCKS.reduce((n, l) => n + x.wait_us[l], 0)).toBeCloseTo(c.doneNs / 1e3, 6);
      }
    }
  });

  it("keeps its bound: at most 16 rows, a window, maxSpans per core", () => {
    const t = fxmarkTrace(m, "MWUL", 7, 120, 200);
    expect(t.every).toBe(8);
    expect(t.cores.map((c) => c.core)).toEqual([0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112]);
    expect(t.cores.map((c) => c.socket)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]);
    for (const c of t.cores) for (const s of c.spans) expect(s.from < TIMELINE_WINDOW_NS && s.to >= 0).toBe(true);
    const few = fxmarkTrace(m, "MWUL", 7, 8, 200, { maxSpans: 3 });
    expect(few.cores.every((c) => c.spans.length <= 3)).toBe(true);
    const all = fxmarkTrace(m, "MWUL", 7, 8, 200);
    expect(few.dropped).toBe(all.cores.reduce((n, c) => n + Math.max(0, c.spans.length - 3), 0));
    expect(() => fxmarkTrace(m, "MWUL", 0, 120, 10, { every: 1, maxSpans: 1 << 14 })).toThrow(/at most 2\^20/);
    expect(() => fxmarkTrace(m, "MWUL", 0, 0, 10)).toThrow(F2fsError);
  });

  it("upstream's 8 cores wait for build_lock most of the first 250 us; CLUE's mostly work", () => {
    const share = (clue: number) => {
      const tot = timelineTotals(fxmarkTrace(m, "MWUL", clue, 8, 2000));
      return tot.reduce((n, c) => n + c.wait_us.build, 0) / (8 * TIMELINE_WINDOW_NS / 1e3);
    };
    expect(share(0)).toBeGreaterThan(0.6);
    expect(share(7)).toBe(0); // no build_lock on CLUE's unlink path
  });
});

describe("the free-NID model", () => {
  const popcount = (bytes: Uint8Array) => bytes.reduce((n, b) => n + [...b.toString(2)].filter((c) => c === "1").length, 0);

  it("mounts a 4-block NAT with one NAT entry scan, and a create takes the list's head", () => {
    const nm = nidModel(m, { natBlocks: 4 });
    try {
      // 4 x 455 entries read; 0-3 are never free: 1816 NIDs, and the 8-block walk wraps to 0
      expect(nidScansOf(nm.takeEvents())).toEqual([{ phase: NidScanPhase.Nat, skipped: false, start: 0, end: 0, scanned: 1820, found: 1816 }]);
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
      expect(nidScansOf(nm.takeEvents())).toEqual([{ phase: NidScanPhase.Nat, skipped: false, start: 3640, end: 7280, scanned: 3640, found: 3640 }]);
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
  // Under clue 4 a short list shows each of a sync's f2fs_balance_fs_bg calls (3 here).
  it("gives the records the guest kernel traced for the same steps, under clue 0, 2, 4 and 7", () => {
    const ops = oneWriterScript(4000, 500); // the f2fs-clue lab's steps
    const kernel = (lazy: boolean) => [
      [NidScanPhase.Nat, 0, 3640, 3640, 3636], // the mount's
      [NidScanPhase.Bitmap, 0, 0, 455, 0], // the sync after 3500 files: 135 NIDs listed
      ...(lazy ? [[NidScanPhase.Deferred, 3640, 3640, 0, 0], [NidScanPhase.Bitmap, 0, 0, 455, 0], [NidScanPhase.Bitmap, 0, 0, 455, 0]] : []),
      [NidScanPhase.Nat, 3640, 7280, 3640, 3640], // lazy: at that sync's checkpoint
      [NidScanPhase.Bitmap, 0, 6825, 3960, 3501], // the second 4000: the list trimmed, then empty
    ];
    for (const clue of [0, 2, 4, 7]) {
      const r = nidRun(m, { clue }, ops);
      expect(r.scans.map((s) => [s.phase, s.start, s.end, s.scanned, s.found]), `clue ${clue}`).toEqual(kernel((clue & 4) !== 0));
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
