// `fslab inspect` on an F2FS image: the inspect report (shared/inspect) as text, named in this
// topic's manifest (inspect:). Node only, like cli.ts.
import type { F2fsReport } from "./inspect-report";
import { f2fsDamage } from "./inspect-report";
import { runsText } from "../../shared/inspect/print";

export function printReport(r: F2fsReport): void {
  const s = r.superblock, c = r.checkpoint;
  console.log(`F2FS ${s.major_ver}.${s.minor_ver} volume${s.volume_name ? ` "${s.volume_name}"` : ""}: ${s.block_count} blocks of 4096 B, ${s.segment_count} segments (main area ${s.segment_count_main})`);
  console.log(`  checkpoint pack ${c.pack}, version ${c.checkpoint_ver}: ${c.flags.join(" ")}`);
  console.log(`  ${c.valid_block_count} of ${c.user_block_count} blocks valid, ${c.free_segment_count} segments free; ${c.valid_node_count} nodes, ${c.valid_inode_count} inodes; next free NID ${c.next_free_nid}`);
  console.log(`  NAT: ${r.nat.blocks} blocks (NIDs 0..${r.nat.max_nid - 1}), ${r.nat.journal_entries} entries in the checkpoint's journal`);
  console.log(`  valid NIDs: ${r.nat.valid_nids} (${r.counts.nat_matches_checkpoint ? "matches" : "DOES NOT MATCH"} the checkpoint's valid_node_count); NAT blocks in use: ${runsText(r.nat.used_blocks)}`);
  for (const d of r.damage) console.log(`  !! ${d}`);
}

/** what `fslab inspect` reports as damage (status 4) */
export const damageOf = (r: F2fsReport): string[] => f2fsDamage(r);
