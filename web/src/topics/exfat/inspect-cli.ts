// `fslab inspect` on an exFAT image: the inspect report (shared/inspect) as text, named in this
// topic's manifest (inspect:). Node only, like cli.ts.
import type { ExfatReport } from "./inspect-report";
import { exfatDamage } from "./inspect-report";
import { runsText } from "../../shared/inspect/print";

/** the boot sector, the bitmap and up-case table, the root, the counts, then every file and its chain */
export function printReport(r: ExfatReport): void {
  const b = r.boot;
  const ok = (x: boolean) => (x ? "ok" : "BAD");
  console.log(`exFAT volume${r.label ? ` "${r.label}"` : ""}, revision ${b.fs_revision >> 8}.${String(b.fs_revision & 0xff).padStart(2, "0")}, serial 0x${b.volume_serial.toString(16).padStart(8, "0")}`);
  console.log(`  sectors ${1 << b.bytes_per_sector_shift} B, clusters ${r.cluster_size} B, volume ${b.volume_length} sectors, boot checksum ${ok(b.checksum_ok)}`);
  console.log(`  FAT at sector ${b.fat_offset} (${b.fat_length} sectors, ${b.number_of_fats} FAT${b.number_of_fats > 1 ? "s" : ""}), cluster heap at sector ${b.cluster_heap_offset}: ${b.cluster_count} clusters`);
  console.log(`  allocation bitmap: clusters ${runsText(r.bitmap.runs)} (${r.bitmap.data_length} B)`);
  if (r.upcase) console.log(`  up-case table: clusters ${runsText(r.upcase.runs)} (${r.upcase.data_length} B), checksum ${ok(r.upcase.checksum_ok)}`);
  const rootTrouble = [r.root.chain_error, r.root.cross_link].filter(Boolean).join("; ");
  console.log(`  root directory: clusters ${runsText(r.root.runs)}${rootTrouble ? `  !! ${rootTrouble}` : ""}`);
  const c = r.counts;
  console.log(`  ${c.directories} directories, ${c.files} files, ${c.used_clusters} clusters used, ${c.free_clusters} free, ${c.deleted_entries} deleted entries`);
  console.log(`  bitmap vs chains: ${c.unmarked_clusters} unmarked, ${c.leaked_clusters} leaked, ${c.cross_linked_clusters} cross-linked`);
  console.log("");
  console.log(`  ${"path".padEnd(40)} ${"bytes".padStart(10)}  chain        clusters`);
  for (const f of r.files) {
    const kind = f.no_fat_chain ? "NoFatChain" : "FAT chain";
    const trouble = [f.error, f.chain_error, f.cross_link, f.checksum_ok ? null : "entry set checksum BAD"].filter(Boolean).join("; ");
    console.log(`  ${(f.path + (f.dir ? "/" : "")).padEnd(40)} ${String(f.data_length).padStart(10)}  ${kind.padEnd(11)}  ${runsText(f.runs)}${trouble ? `  !! ${trouble}` : ""}`);
  }
}

/** what `fslab inspect` reports as damage (status 4) */
export const damageOf = (r: ExfatReport): string[] => exfatDamage(r);
