// The f2fs core through its TypeScript API: the same numbers the CLI prints.
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "./node-load";
import { F2fsError, FXMARK_COSTS, fxmarkUnlink } from "./f2fs-core";

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
