// The ext4 core (wasm/src/ext4): a file written at a layout, buffered or direct, and what
// its allocations cost in bitmap checksums (ext4_block_bitmap_csum_set: crc32c over the
// whole bitmap, one block, on every change).
import type { Ext4Module } from "@wasm/ext4.mjs";

export interface Ext4Layout {
  name: string;
  block_size: number;
  cluster_size: number;
}

export const LAYOUTS: Ext4Layout[] = [
  { name: "4k", block_size: 4096, cluster_size: 4096 },
  { name: "bigalloc-64k", block_size: 4096, cluster_size: 65536 },
  { name: "64k (LBS)", block_size: 65536, cluster_size: 65536 },
];

export interface Ext4Write {
  allocations: number;
  bitmap_updates: number;
  csum_bytes: number;
  clusters: number;
  bitmap_bytes: number;
  /** direct: zeros iomap writes to the device around writes smaller than a block (ext4.h) */
  zero_bytes: number;
  ms: number; // time the model took, mostly the checksums (measured, so it varies)
}

export class Ext4Error extends Error {}

export function ext4WriteFile(m: Ext4Module, layout: Ext4Layout, direct: boolean, bytes: number, bs: number, extentMax = 32 << 20): Ext4Write {
  const out = m._fx_malloc(7 * 8);
  try {
    const t0 = performance.now();
    const ret = m._fx_ext4_write_file(layout.block_size, layout.cluster_size, direct ? 1 : 0, bytes, bs, extentMax, out);
    const ms = performance.now() - t0;
    if (ret < 0) throw new Ext4Error(`layout ${layout.block_size}/${layout.cluster_size} or write size ${bs} refused`);
    const r = m.HEAPF64.subarray(out >>> 3, (out >>> 3) + 7);
    return { allocations: r[0], bitmap_updates: r[1], csum_bytes: r[2], clusters: r[3], bitmap_bytes: r[4], zero_bytes: r[6], ms };
  } finally {
    m._fx_free(out);
  }
}
