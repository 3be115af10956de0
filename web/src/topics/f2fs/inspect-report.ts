// What the F2FS inspector (wasm/src/f2fs/inspect.c) reports of a real image, and what of it is
// damage (shared/inspect/inspect.ts runs the inspectors).
import { listedDamage, type Run } from "../../shared/inspect/inspect";

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

/** What an F2FS report says is damaged, one phrase each (empty: clean as far as it reads). */
export const f2fsDamage = (r: F2fsReport): string[] => listedDamage(r);
