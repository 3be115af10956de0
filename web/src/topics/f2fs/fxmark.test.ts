// The f2fs core's FxMark model through its TypeScript API (fxmark.ts): the same numbers the CLI prints.
import type { F2fsModule } from "@wasm/f2fs.mjs";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "../../shared/node-load";
import { F2fsError } from "./f2fs-error";
import { FXMARK_COSTS, fxmarkTrace, fxmarkUnlink, LOCKS, TIMELINE_WINDOW_NS, timelineTotals } from "./fxmark";

let m: F2fsModule;
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
