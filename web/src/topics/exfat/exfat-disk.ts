// An inspected exFAT image as the model's snapshot, so the cluster grid that draws the model
// draws the real disk too: the allocation bitmap's bits read from the image where the
// inspector found the bitmap file, and each entry set's runs as that file's clusters.
import { ALLOC_FAT_CHAIN, ALLOC_NO_FAT_CHAIN, EXFAT_FIRST_CLUSTER, type ExfatSnapshot } from "./exfat-core";
import type { ExfatReport } from "./inspect-report";

export function snapshotOfDisk(image: Uint8Array, r: ExfatReport): ExfatSnapshot {
  const heap = r.boot.cluster_heap_offset * 2 ** r.boot.bytes_per_sector_shift;
  const bytes = Math.ceil(r.boot.cluster_count / 8);
  const bitmap = new Uint8Array(bytes);
  // the bitmap file, run by run (it is contiguous in practice; the runs say so either way)
  let got = 0;
  for (const [first, n] of r.bitmap.runs) {
    const at = heap + (first - EXFAT_FIRST_CLUSTER) * r.cluster_size;
    const take = Math.min(n * r.cluster_size, bytes - got);
    if (at + take > image.length) throw new Error(`the allocation bitmap at cluster ${first} lies past the end of the image`);
    bitmap.set(image.subarray(at, at + take), got);
    got += take;
    if (got >= bytes) break;
  }
  let used = 0;
  for (let c = 0; c < r.boot.cluster_count; c++) used += (bitmap[c >> 3] >> (c & 7)) & 1;
  const files = r.files
    .filter((f) => f.runs.length)
    .map((f, i) => ({
      id: i + 1,
      name: f.path,
      flags: f.no_fat_chain ? ALLOC_NO_FAT_CHAIN : ALLOC_FAT_CHAIN,
      clusters: Uint32Array.from(f.runs.flatMap(([s, n]) => Array.from({ length: n }, (_, k) => s + k))),
    }));
  return { numClusters: r.boot.cluster_count + EXFAT_FIRST_CLUSTER, usedClusters: used, bitmap, files };
}

/**
 * A directory's 32-byte slots on disk, as the directory model keeps them (exfat-dir.ts
 * DirRun.slots): 0 unused (type 0x00, the end of the directory), 1 deleted (bit 7 of the
 * type clear, as exfat_remove_entries() leaves it), 2 in use. path: as the inspector names
 * the directory ("/dir"), or "/" for the root.
 */
export function slotsOfDisk(image: Uint8Array, r: ExfatReport, path: string): { slots: Uint8Array; clusters: number } {
  const runs = path === "/" ? r.root.runs : r.files.find((f) => f.dir && f.path === path)?.runs;
  if (!runs) throw new Error(`no directory ${path} on the volume`);
  const heap = r.boot.cluster_heap_offset * 2 ** r.boot.bytes_per_sector_shift;
  const per = r.cluster_size / 32;
  const clusters = runs.reduce((n, [, k]) => n + k, 0);
  const slots = new Uint8Array(clusters * per);
  let i = 0;
  for (const [first, n] of runs)
    for (let c = first; c < first + n; c++) {
      const at = heap + (c - EXFAT_FIRST_CLUSTER) * r.cluster_size;
      if (at + r.cluster_size > image.length) throw new Error(`${path}'s cluster ${c} lies past the end of the image`);
      for (let k = 0; k < per; k++, i++) {
        const type = image[at + 32 * k];
        slots[i] = type === 0 ? 0 : type & 0x80 ? 2 : 1;
      }
    }
  return { slots, clusters };
}

/** Slots as runs, "2x5 1x3 0x120": short enough to compare and to show. */
export function slotRuns(slots: Uint8Array): string {
  const out: string[] = [];
  for (let i = 0; i < slots.length; ) {
    let j = i;
    while (j < slots.length && slots[j] === slots[i]) j++;
    out.push(`${slots[i]}x${j - i}`);
    i = j;
  }
  return out.join(" ");
}
