// fslab inspect <image> [--json]: what the inspector reads in a real image.
import { readFileSync } from "node:fs";
import { loadCoreModule } from "../../web/src/cores/node-load";
import { inspectImage, type ExfatReport, type Run } from "../../web/src/cores/inspect";

const runs = (rs: Run[]) => (rs.length ? rs.map(([s, n]) => (n > 1 ? `${s}-${s + n - 1}` : `${s}`)).join(",") : "-");

function printExfat(r: ExfatReport): void {
  const b = r.boot;
  const ok = (x: boolean) => (x ? "ok" : "BAD");
  console.log(`exFAT volume${r.label ? ` "${r.label}"` : ""}, revision ${b.fs_revision >> 8}.${String(b.fs_revision & 0xff).padStart(2, "0")}, serial 0x${b.volume_serial.toString(16).padStart(8, "0")}`);
  console.log(`  sectors ${1 << b.bytes_per_sector_shift} B, clusters ${r.cluster_size} B, volume ${b.volume_length} sectors, boot checksum ${ok(b.checksum_ok)}`);
  console.log(`  FAT at sector ${b.fat_offset} (${b.fat_length} sectors, ${b.number_of_fats} FAT${b.number_of_fats > 1 ? "s" : ""}), cluster heap at sector ${b.cluster_heap_offset}: ${b.cluster_count} clusters`);
  console.log(`  allocation bitmap: clusters ${runs(r.bitmap.runs)} (${r.bitmap.data_length} B)`);
  if (r.upcase) console.log(`  up-case table: clusters ${runs(r.upcase.runs)} (${r.upcase.data_length} B), checksum ${ok(r.upcase.checksum_ok)}`);
  console.log(`  root directory: clusters ${runs(r.root.runs)}`);
  const c = r.counts;
  console.log(`  ${c.directories} directories, ${c.files} files, ${c.used_clusters} clusters used, ${c.free_clusters} free, ${c.deleted_entries} deleted entries`);
  console.log(`  bitmap vs chains: ${c.unmarked_clusters} unmarked, ${c.leaked_clusters} leaked, ${c.cross_linked_clusters} cross-linked`);
  console.log("");
  console.log(`  ${"path".padEnd(40)} ${"bytes".padStart(10)}  chain        clusters`);
  for (const f of r.files) {
    const kind = f.no_fat_chain ? "NoFatChain" : "FAT chain";
    const trouble = [f.error, f.chain_error, f.checksum_ok ? null : "entry set checksum BAD"].filter(Boolean).join("; ");
    console.log(`  ${(f.path + (f.dir ? "/" : "")).padEnd(40)} ${String(f.data_length).padStart(10)}  ${kind.padEnd(11)}  ${runs(f.runs)}${trouble ? `  !! ${trouble}` : ""}`);
  }
}

export async function inspectCommand(args: string[]): Promise<number> {
  const json = args.includes("--json");
  const files = args.filter((a) => !a.startsWith("--"));
  if (files.length !== 1) throw new Error("usage: fslab inspect <image> [--json]");
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(files[0]);
  } catch (e) {
    throw new Error(`cannot read ${files[0]}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  const report = inspectImage(await loadCoreModule("exfat"), bytes);
  if (json) console.log(JSON.stringify(report, null, 2));
  else printExfat(report);
  return 0;
}
