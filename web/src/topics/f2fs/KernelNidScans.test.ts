// Repeated empty bitmap scans count once when the kernel's scans are set against the model's.
import { describe, expect, it } from "vitest";
import { NidScanPhase, type NidScan } from "./events";
import { collapseRepeats } from "./KernelNidScans";

const scan = (phase: NidScanPhase, start: number, end: number, scanned: number, found: number): NidScan => ({ phase, skipped: false, sync: false, start, end, scanned, found, blocks: 0 });
const nat = scan(NidScanPhase.Nat, 3640, 7280, 3640, 3640);
const empty = scan(NidScanPhase.Bitmap, 0, 0, 455, 0);
const deferred = scan(NidScanPhase.Deferred, 3640, 3640, 0, 0);

describe("collapseRepeats", () => {
  it("counts a run of identical empty bitmap scans once, whether a sync made three background calls or four", () => {
    const three = collapseRepeats([deferred, empty, empty, nat]);
    const four = collapseRepeats([deferred, empty, empty, empty, nat]);
    expect(three.map((r) => r.scan)).toEqual(four.map((r) => r.scan));
    expect(four.map((r) => r.times)).toEqual([1, 3, 1]);
  });

  it("keeps scans that found NIDs, and differing ones, apart", () => {
    const found = scan(NidScanPhase.Bitmap, 0, 6825, 3960, 3501);
    expect(collapseRepeats([found, found]).map((r) => r.times)).toEqual([1, 1]);
    expect(collapseRepeats([empty, scan(NidScanPhase.Bitmap, 0, 0, 910, 0)])).toHaveLength(2);
    expect(collapseRepeats([empty, deferred, empty])).toHaveLength(3);
  });
});
