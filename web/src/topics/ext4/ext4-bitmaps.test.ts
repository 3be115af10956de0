// Group bitmaps read from the images the guest's mkfs.ext4 and kernel made, against the
// inspector's counts (which the inspector tests hold to dumpe2fs).
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { InspectModule } from "@wasm/inspect.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { inspectImage } from "../../shared/inspect/inspect";
import { type Ext4Report } from "./inspect-report";
import { groupBitmaps } from "./ext4-bitmaps";

let m: InspectModule;
beforeAll(async () => {
  m = await loadCoreModule("inspect");
});
const image = (name: string) => gunzipSync(readFileSync(new URL(`../../../../wasm/tests/images/${name}.img.gz`, import.meta.url)));

describe("groupBitmaps", () => {
  for (const name of ["ext4-4k", "ext4-bigalloc", "ext4-64k"]) {
    it(`${name}: each group's bits count what its bitmap says is in use`, () => {
      const bytes = image(name);
      const report = inspectImage(m, bytes) as Ext4Report;
      const groups = groupBitmaps(bytes, report);
      expect(groups).toHaveLength(report.groups_count);
      for (const [i, g] of groups.entries()) {
        const d = report.groups[i];
        if (g.bits) expect(g.clusters - g.used).toBe(d.bitmap_free_clusters);
        else expect(d.block_uninit).toBe(true);
      }
      // the volume's used clusters, summed, are what the descriptors say
      const used = groups.reduce((n, g) => n + g.used, 0);
      expect(used).toBe(report.groups.reduce((n, g) => n + g.clusters - g.free_clusters, 0));
    });
  }

  it("refuses a bitmap block past the end of the image", () => {
    const bytes = image("ext4-4k");
    const report = inspectImage(m, bytes) as Ext4Report;
    expect(() => groupBitmaps(bytes.subarray(0, report.groups[0].block_bitmap * report.block_size), report)).toThrow(/past the end/);
  });
});
