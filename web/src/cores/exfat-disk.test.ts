// The real disk as the model's snapshot: the images the guest's mkfs.exfat and kernel made.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "./node-load";
import { inspectImage, type ExfatReport } from "./inspect";
import { snapshotOfDisk } from "./exfat-disk";

let m: any;
beforeAll(async () => {
  m = await loadCoreModule("inspect");
});
const image = (name: string) => gunzipSync(readFileSync(new URL(`../../../wasm/tests/images/${name}.img.gz`, import.meta.url)));

describe("snapshotOfDisk", () => {
  for (const name of ["exfat-4k", "exfat-512"]) {
    it(`${name}: the bitmap's bits are the inspector's used count, and every file's clusters are marked used`, () => {
      const bytes = image(name);
      const r = inspectImage(m, bytes) as ExfatReport;
      const s = snapshotOfDisk(bytes, r);
      expect(s.usedClusters).toBe(r.counts.used_clusters);
      expect(s.numClusters).toBe(r.boot.cluster_count + 2);
      expect(s.files.length).toBeGreaterThan(0);
      for (const f of s.files) for (const c of f.clusters) expect((s.bitmap[(c - 2) >> 3] >> ((c - 2) & 7)) & 1).toBe(1);
    });
  }

  it("refuses an image cut before its bitmap", () => {
    const bytes = image("exfat-4k");
    const r = inspectImage(m, bytes) as ExfatReport;
    expect(() => snapshotOfDisk(bytes.subarray(0, r.boot.cluster_heap_offset * 512), r)).toThrow(/past the end/);
  });
});
