// What the exFAT inspector (wasm/src/exfat/inspect.c) reports of a real image, and what of it
// is damage (shared/inspect/inspect.ts runs the inspectors).
import type { Run } from "../../shared/inspect/inspect";

export interface ExfatEntrySet {
  entry: number; // index of the file entry in its directory (32-byte slots)
  name: string;
  path: string; // the names from the root, in UTF-8 (control characters as U+FFFD)
  dir: boolean;
  attributes: number;
  secondary_count: number;
  checksum_ok: boolean;
  no_fat_chain: boolean;
  first_cluster: number;
  valid_data_length: number;
  data_length: number;
  runs: Run[];
  chain_error?: string;
  /** the first other chain it shares clusters with, named ("3 clusters also in /a.bin, from cluster 40") */
  cross_link?: string;
  error?: string;
}

export interface ExfatReport {
  fs: "exfat";
  boot: {
    partition_offset: number;
    volume_length: number; // sectors
    fat_offset: number;
    fat_length: number;
    cluster_heap_offset: number;
    cluster_count: number;
    root_cluster: number;
    volume_serial: number;
    fs_revision: number;
    volume_flags: number;
    bytes_per_sector_shift: number;
    sectors_per_cluster_shift: number;
    number_of_fats: number;
    percent_in_use: number;
    checksum_ok: boolean;
  };
  cluster_size: number;
  fat: { media: number; entry1: number };
  root: { first_cluster: number; runs: Run[]; chain_error?: string; cross_link?: string };
  label?: string;
  bitmap: { entry: number; first_cluster: number; data_length: number; runs: Run[] };
  upcase?: { entry: number; first_cluster: number; data_length: number; checksum: number; runs: Run[]; checksum_ok: boolean };
  files: ExfatEntrySet[];
  counts: {
    directories: number; // the root included, as fsck.exfat counts
    files: number;
    deleted_entries: number;
    used_clusters: number; // bits set in the allocation bitmap
    free_clusters: number;
    unmarked_clusters: number; // in a chain, not in the bitmap
    leaked_clusters: number; // in the bitmap, in no chain
    cross_linked_clusters: number;
  };
}

/**
 * What an exFAT report says is damaged, one phrase each (empty: clean as fsck.exfat checks):
 * broken, looping or cross-linked chains by path, the bitmap against the chains, checksums.
 */
export function exfatDamage(r: ExfatReport): string[] {
  const out: string[] = [];
  if (!r.boot.checksum_ok) out.push("boot region checksum is wrong");
  if (r.upcase && !r.upcase.checksum_ok) out.push("up-case table checksum is wrong");
  if (r.root.chain_error) out.push(`root directory: ${r.root.chain_error}`);
  if (r.root.cross_link) out.push(`root directory: ${r.root.cross_link}`);
  for (const f of r.files) {
    for (const why of [f.error, f.chain_error, f.cross_link]) if (why) out.push(`${f.path || `entry ${f.entry}`}: ${why}`);
    if (!f.checksum_ok && f.path) out.push(`${f.path}: entry set checksum is wrong`);
  }
  const c = r.counts;
  if (c.unmarked_clusters) out.push(`${c.unmarked_clusters} clusters in chains but free in the bitmap`);
  if (c.leaked_clusters) out.push(`${c.leaked_clusters} clusters used in the bitmap but in no chain`);
  return out;
}
