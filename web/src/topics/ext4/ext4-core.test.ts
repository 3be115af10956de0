// The ext4 model through its TypeScript API: counts the native tests work by hand.
import { beforeAll, describe, expect, it } from "vitest";
import type { Ext4Module } from "@wasm/ext4.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { Ext4Error, LAYOUTS, ext4WriteFile } from "./ext4-core";

let m: Ext4Module;
beforeAll(async () => {
  m = await loadCoreModule("ext4");
});

describe("ext4WriteFile", () => {
  it("direct 64 KiB writes checksum a 64 KiB bitmap per allocation with LBS, a 4 KiB one with bigalloc", () => {
    const [, big, lbs] = LAYOUTS.map((l) => ext4WriteFile(m, l, true, 64 << 20, 65536));
    expect(big.allocations).toBe(1024);
    expect(lbs.allocations).toBe(1024);
    expect(lbs.csum_bytes / big.csum_bytes).toBeCloseTo((65536 + 64) / (4096 + 64), 6);
  });

  it("buffered writes allocate per writeback extent, so the checksums hardly count", () => {
    const lbs = ext4WriteFile(m, LAYOUTS[2], false, 64 << 20, 4096);
    expect(lbs.allocations).toBe(2);
    expect(lbs.csum_bytes).toBe(2 * (65536 + 64));
  });

  it("direct writes smaller than a 64 KiB block send zeros to the block's end: 8.5x the data at 4 KiB, as the guest measured", () => {
    const [k4, big, lbs] = LAYOUTS;
    const device = (l: typeof k4, bs: number) => ((1 << 20) + ext4WriteFile(m, l, true, 1 << 20, bs).zero_bytes) / 1024;
    // KiB the guest's loop device wrote for 1 MiB by dd oflag=direct (e2e/guest.e2e.ts measures it live)
    expect([4096, 16384, 65536].map((bs) => device(lbs, bs))).toEqual([8704, 2560, 1024]);
    expect([4096, 16384, 65536].map((bs) => device(big, bs))).toEqual([1024, 1024, 1024]);
    expect([4096, 16384, 65536].map((bs) => device(k4, bs))).toEqual([1024, 1024, 1024]);
    expect(ext4WriteFile(m, lbs, false, 1 << 20, 4096).zero_bytes).toBe(0); // buffered: the page cache, not iomap
  });

  it("refuses a cluster smaller than its block", () => {
    expect(() => ext4WriteFile(m, { name: "x", block_size: 4096, cluster_size: 2048 }, true, 1 << 20, 4096)).toThrow(Ext4Error);
  });
});
