// `fslab inspect` on a FAT12, FAT16 or FAT32 image: the inspect report (shared/inspect) as
// text, named in this topic's manifest (inspect:). Node only, like cli.ts.
import type { VfatReport } from "./inspect-report";
import { vfatDamage } from "./inspect-report";
import { runsText, chainTrouble } from "../../shared/inspect/print";

export function printReport(r: VfatReport): void {
  const b = r.bpb;
  console.log(`${r.fat_type} volume 0x${b.volume_id.toString(16).padStart(8, "0")}: ${r.cluster_count} clusters of ${b.sectors_per_cluster * b.bytes_per_sector} B, ${b.fats} FATs of ${b.fat_sectors} sectors, ${r.counts.free_clusters} clusters free`);
  console.log(`  ${r.counts.directories} directories, ${r.counts.files} files; ${r.counts.cross_linked_clusters} cross-linked clusters`);
  if (r.root) console.log(`  root directory: clusters ${runsText(r.root.runs)}${chainTrouble(r.root)}`);
  console.log("");
  console.log(`  ${"path".padEnd(36)} ${"8.3 bytes".padEnd(22)} ${"as cp437".padEnd(13)} ${"as cp932".padEnd(13)} lfn  clusters`);
  for (const f of r.files) {
    const lfn = f.long_name !== undefined ? String(f.lfn_entries) : "-";
    console.log(`  ${(f.path + (f.dir ? "/" : "")).padEnd(36)} ${f.short_raw.padEnd(22)} ${f.short_cp437.padEnd(13)} ${f.short_cp932.padEnd(13)} ${lfn.padStart(3)}  ${runsText(f.runs)}${chainTrouble(f)}`);
  }
}

/** what `fslab inspect` reports as damage (status 4) */
export const damageOf = (r: VfatReport): string[] => vfatDamage(r);
