// `fslab inspect` on an ext2, ext3 or ext4 image: the inspect report (shared/inspect) as
// text, named in this topic's manifest (inspect:). Node only, like cli.ts.
import type { Ext4Report } from "./inspect-report";
import { ext4Damage } from "./inspect-report";

export function printReport(r: Ext4Report): void {
  const s = r.superblock;
  const ok = (x: boolean | undefined) => (x === undefined ? "not kept" : x ? "ok" : "BAD");
  console.log(`ext4 volume${s.volume_name ? ` "${s.volume_name}"` : ""}: ${s.blocks_count} blocks of ${r.block_size} B${r.cluster_size !== r.block_size ? ` in clusters of ${r.cluster_size} B (bigalloc)` : ""}, ${r.groups_count} group(s)`);
  console.log(`  features: ${s.features.join(" ")}`);
  console.log(`  per group: ${s.blocks_per_group} blocks, ${s.clusters_per_group} clusters, ${s.inodes_per_group} inodes; flex_bg of ${2 ** s.log_groups_per_flex}; descriptors of ${s.desc_size} B`);
  console.log(`  free: ${s.free_blocks_count} blocks, ${s.free_inodes_count} inodes (superblock); ${r.counts.free_blocks_in_descriptors} blocks (descriptors)${r.counts.free_clusters_in_bitmaps !== undefined ? `, ${r.counts.free_clusters_in_bitmaps} clusters (bitmaps)` : ""}`);
  console.log(`  checksums: superblock ${ok(s.checksum_ok)}, ${r.counts.bad_checksums} bad elsewhere`);
  console.log("");
  console.log(`  ${"group".padStart(5)} ${"first".padStart(9)} ${"bitmap".padStart(8)} ${"inodes".padStart(8)} ${"table".padStart(8)} ${"free cl".padStart(8)} ${"(bitmap)".padStart(9)} ${"free in".padStart(8)} ${"dirs".padStart(5)}  flags`);
  for (const g of r.groups) {
    const flags = [g.inode_uninit && "INODE_UNINIT", g.block_uninit && "BLOCK_UNINIT", g.itable_zeroed && "ITABLE_ZEROED", g.block_bitmap_checksum_ok === false && "BITMAP CSUM BAD", g.desc_checksum_ok === false && "DESC CSUM BAD", g.error].filter(Boolean).join(" ");
    console.log(`  ${String(g.group).padStart(5)} ${String(g.first_block).padStart(9)} ${String(g.block_bitmap).padStart(8)} ${String(g.inode_bitmap).padStart(8)} ${String(g.inode_table).padStart(8)} ${String(g.free_clusters).padStart(8)} ${String(g.bitmap_free_clusters ?? "-").padStart(9)} ${String(g.free_inodes).padStart(8)} ${String(g.used_dirs).padStart(5)}  ${flags}`);
  }
  const deepest = Math.max(0, ...r.extent_files.map((f) => f.depth));
  console.log(`  inodes: ${r.inodes_in_use} in use, ${r.inodes_with_extents} with extent trees (deepest ${deepest}), ${r.extent_files.reduce((n, f) => n + f.extents, 0)} extents`);
  for (const d of r.damage) console.log(`  !! ${d}`);
}

/** what `fslab inspect` reports as damage (status 4) */
export const damageOf = (r: Ext4Report): string[] => ext4Damage(r);
