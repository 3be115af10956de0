// What the ext4 inspector (wasm/src/ext4/inspect.c) reports of a real image, and what of it is
// damage (shared/inspect/inspect.ts runs the inspectors).
import { listedDamage } from "../../shared/inspect/inspect";

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

/** What an ext4 report says is damaged, one phrase each (empty: clean as far as it reads). */
export const ext4Damage = (r: Ext4Report): string[] => listedDamage(r);
