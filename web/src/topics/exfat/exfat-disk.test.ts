// The real disk as the model's snapshot: the images the guest's mkfs.exfat and kernel made.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { InspectModule } from "@wasm/inspect.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { inspectImage } from "../../shared/inspect/inspect";
import { type ExfatReport } from "./inspect-report";
import { slotRuns, slotsOfDisk, snapshotOfDisk } from "./exfat-disk";

let m: InspectModule;
beforeAll(async () => {
  m = await loadCoreModule("inspect");
});
const image = (name: string) => gunzipSync(readFileSync(new URL(`../../../../wasm/tests/images/${name}.img.gz`, import.meta.url)));

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

describe("slotsOfDisk", () => {
  it("exfat-4k's /many: one in-use slot per entry of its 61 entry sets, then never-used slots to the end", () => {
    const bytes = image("exfat-4k");
    const r = inspectImage(m, bytes) as ExfatReport;
    const d = slotsOfDisk(bytes, r, "/many");
    const sets = r.files.filter((f) => f.path.startsWith("/many/") && f.path.split("/").length === 3);
    expect(sets).toHaveLength(61); // 60 files and nested/
    const used = sets.reduce((n, f) => n + f.secondary_count + 1, 0);
    expect(d.slots.filter((s) => s === 2)).toHaveLength(used);
    expect(d.slots.filter((s) => s === 1)).toHaveLength(0);
    expect(d.clusters * 128).toBe(d.slots.length);
    // in use from the start, then the end-of-directory marker and nothing after it
    expect(slotRuns(d.slots)).toBe(`2x${used} 0x${d.slots.length - used}`);
  });

  it("the root: the 10 removed gone-N files are deleted slots, as the inspector counts them", () => {
    const bytes = image("exfat-4k");
    const r = inspectImage(m, bytes) as ExfatReport;
    const d = slotsOfDisk(bytes, r, "/");
    expect(d.slots.filter((s) => s === 1)).toHaveLength(r.counts.deleted_entries);
  });

  it("says so when the directory is not there", () => {
    const bytes = image("exfat-4k");
    const r = inspectImage(m, bytes) as ExfatReport;
    expect(() => slotsOfDisk(bytes, r, "/nope")).toThrow(/no directory \/nope/);
  });
});
