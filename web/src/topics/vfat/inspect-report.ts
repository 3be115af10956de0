// What the FAT inspector (wasm/src/vfat/inspect.c) reports of a real image, and what of it is
// damage (shared/inspect/inspect.ts runs the inspectors).
import type { Run } from "../../shared/inspect/inspect";

export interface VfatEntry {
  path: string;
  entry: number;
  short_raw: string; // the 11 bytes, hex
  short_cp437: string; // read in code page 437
  short_cp932: string;
  lcase: number;
  attr: number;
  dir: boolean;
  long_name?: string;
  lfn_entries?: number;
  lfn_first_entry?: number;
  checksum: number;
  first_cluster: number;
  size: number;
  runs: Run[];
  chain_error?: string;
  /** the first earlier chain it shares clusters with, named ("1 cluster also in /l932, from cluster 5") */
  cross_link?: string;
}

export interface VfatReport {
  fs: "vfat";
  fat_type: "FAT12" | "FAT16" | "FAT32";
  bpb: { bytes_per_sector: number; sectors_per_cluster: number; reserved_sectors: number; fats: number; root_entries: number; total_sectors: number; fat_sectors: number; root_cluster: number; volume_id: number };
  cluster_count: number;
  files: VfatEntry[];
  counts: { directories: number; files: number; free_clusters: number; cross_linked_clusters: number };
  /** FAT32's root directory chain */
  root?: { runs: Run[]; chain_error?: string; cross_link?: string };
}

/**
 * What a FAT report says is damaged, one phrase each (empty: no broken, looping or
 * cross-linked chain): by path, as fsck.vfat names them.
 */
export function vfatDamage(r: VfatReport): string[] {
  const out: string[] = [];
  for (const why of [r.root?.chain_error, r.root?.cross_link]) if (why) out.push(`root directory: ${why}`);
  for (const f of r.files) for (const why of [f.chain_error, f.cross_link]) if (why) out.push(`${f.path}: ${why}`);
  return out;
}
