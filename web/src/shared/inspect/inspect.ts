// Inspectors over real disk images (wasm/src/*/inspect.c): bytes in, a typed report out.
// The same call serves the CLI (`fslab inspect`), the tests and, in a worker, the page.

import type { InspectModule } from "@wasm/inspect.mjs";
import { cString } from "../wasm-mem";

export class InspectError extends Error {}

/** A run of clusters: [first cluster, count]. */
export type Run = [number, number];

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

export interface Ext4Group {
  group: number;
  first_block: number;
  clusters: number;
  block_bitmap: number;
  inode_bitmap: number;
  inode_table: number;
  free_clusters: number; // the descriptor's count
  free_inodes: number;
  used_dirs: number;
  itable_unused: number;
  inode_uninit: boolean;
  block_uninit: boolean;
  itable_zeroed: boolean;
  desc_checksum_ok?: boolean; // metadata_csum only
  bitmap_free_clusters?: number; // absent when BLOCK_UNINIT: no bitmap on disk
  block_bitmap_checksum_ok?: boolean;
  bitmap_free_inodes?: number;
  error?: string;
}

export interface Ext4Report {
  fs: "ext4";
  superblock: {
    inodes_count: number;
    blocks_count: number;
    free_blocks_count: number;
    free_inodes_count: number;
    first_data_block: number;
    blocks_per_group: number;
    clusters_per_group: number;
    inodes_per_group: number;
    inode_size: number;
    desc_size: number;
    log_groups_per_flex: number;
    volume_name: string;
    features: string[];
    checksum_ok?: boolean;
  };
  block_size: number;
  cluster_size: number; // = block_size unless bigalloc
  groups_count: number;
  groups: Ext4Group[];
  counts: {
    free_clusters_in_descriptors: number;
    free_blocks_in_descriptors: number;
    free_clusters_in_bitmaps?: number; // when every group has a bitmap on disk
    free_inodes_in_descriptors: number;
    bad_checksums: number;
  };
  /** every inode in use with extents (the first 4096): its tree's depth, leaf extents and blocks mapped */
  extent_files: Array<{ inode: number; depth: number; extents: number; blocks: number; damaged?: boolean }>;
  inodes_in_use: number;
  inodes_with_extents: number;
  /** what is wrong, in words (extent trees checked as __ext4_ext_check does): the first eight */
  damage: string[];
  damage_more: number;
}

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

export interface F2fsReport {
  fs: "f2fs";
  superblock: Record<"major_ver" | "minor_ver" | "block_count" | "section_count" | "segment_count" | "segment_count_ckpt" | "segment_count_sit" | "segment_count_nat" | "segment_count_ssa" | "segment_count_main" | "cp_blkaddr" | "sit_blkaddr" | "nat_blkaddr" | "ssa_blkaddr" | "main_blkaddr" | "root_ino" | "cp_payload", number> & { volume_name: string };
  checkpoint: Record<"pack" | "checkpoint_ver" | "user_block_count" | "valid_block_count" | "rsvd_segment_count" | "overprov_segment_count" | "free_segment_count" | "ckpt_flags" | "cp_pack_total_block_count" | "cp_pack_start_sum" | "valid_node_count" | "valid_inode_count" | "next_free_nid" | "sit_ver_bitmap_bytesize" | "nat_ver_bitmap_bytesize", number> & { flags: string[] };
  nat: { blocks: number; max_nid: number; journal_entries: number; valid_nids: number; unreadable_blocks: number; used_blocks: Run[]; valid_per_block: number[] };
  counts: { nat_matches_checkpoint: boolean };
  /** what is wrong, in words: NAT entries past the volume, journal entries past the NAT, counts that disagree */
  damage: string[];
  /** damage found beyond the first eight */
  damage_more: number;
}

export type InspectReport = ExfatReport | Ext4Report | VfatReport | F2fsReport;

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

/** What an F2FS or ext4 report says is damaged, one phrase each (empty: clean as far as it reads). */
export function listedDamage(r: F2fsReport | Ext4Report): string[] {
  return r.damage_more ? [...r.damage, `${r.damage_more} more`] : r.damage;
}

/** What any report says is damaged, one phrase each (empty: clean as far as it reads). */
export function reportDamage(r: InspectReport): string[] {
  return r.fs === "exfat" ? exfatDamage(r) : r.fs === "vfat" ? vfatDamage(r) : listedDamage(r);
}

/** Detects the filesystem in `image` and parses it; throws InspectError naming what is wrong. */
export function inspectImage(m: InspectModule, image: Uint8Array): InspectReport {
  const ptr = m._fx_malloc(Math.max(1, image.length));
  if (!ptr) throw new InspectError(`cannot hold a ${image.length}-byte image in wasm memory`);
  try {
    m.HEAPU8.set(image, ptr);
    const ret = m._fx_inspect(ptr, image.length);
    if (ret < 0) throw new InspectError(cString(m, m._fx_inspect_error()));
    return JSON.parse(cString(m, m._fx_inspect_report()));
  } finally {
    m._fx_free(ptr);
  }
}
