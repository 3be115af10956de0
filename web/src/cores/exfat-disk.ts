// An inspected exFAT image as the model's snapshot, so the cluster grid that draws the model
// draws the real disk too: the allocation bitmap's bits read from the image where the
// inspector found the bitmap file, and each entry set's runs as that file's clusters.
import { ALLOC_FAT_CHAIN, ALLOC_NO_FAT_CHAIN, EXFAT_FIRST_CLUSTER, type ExfatSnapshot } from "./exfat-core";
import type { ExfatReport } from "./inspect";

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
