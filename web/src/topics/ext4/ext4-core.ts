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

/**
 * The guest's largest page-cache folio for an ext4 file: EXT4_MAX_PAGECACHE_ORDER, the smaller
 * of MAX_PAGECACHE_ORDER (i386 without PAE, with THP: the PMD's 4 MiB, order 10) and 11 plus
 * the block size's shift less the page's.
 */
export const GUEST_MAX_FOLIO_ORDER = 10;

/** The folios a buffered write of `len` bytes at `pos` is copied into, on an uncached range
 *  (wasm/src/ext4/folio.c): each one's order, one per ext4_da_write_begin() call. */
export function ext4WriteFolios(m: Ext4Module, pos: number, len: number, maxOrder = GUEST_MAX_FOLIO_ORDER): number[] {
  if (!Number.isInteger(pos) || pos < 0 || !Number.isInteger(len) || len < 1 || len > 2 ** 31) throw new Ext4Error(`a write of ${len} bytes at ${pos} is not one the model takes`);
  // never more folios than the pages the write touches
  const cap = Math.floor((pos + len - 1) / 4096) - Math.floor(pos / 4096) + 1;
  const out = m._fx_malloc(cap * 4);
  if (!out) throw new Ext4Error("out of memory for the folio list");
  try {
    const n = m._fx_ext4_write_folios(pos, len, maxOrder, out, cap);
    if (n < 0) throw new Ext4Error(`largest folio order ${maxOrder} refused`);
    return Array.from(m.HEAPU32.subarray(out >>> 2, (out >>> 2) + n));
  } finally {
    m._fx_free(out);
  }
}
