// fslab inspect <image> [--json]: what the inspectors read in a real image (exFAT, ext2/3/4, F2FS, FAT/VFAT).
import { readFileSync, statSync } from "node:fs";
import { UsageError } from "../../web/src/shared/cli-args";
import { loadCoreModule } from "../../web/src/shared/node-load";
import { loadInspectPrinter, loadTopics } from "../../web/src/topics/node-index";
import { exfatDamage, listedDamage, inspectImage, vfatDamage, type F2fsReport, type Run } from "../../web/src/shared/inspect/inspect";

/** runs as text for reading: the first 16, then how many more (--json has them all) */
const FOLD_RUNS = 16;
const runs = (rs: Run[]) => {
  if (!rs.length) return "-";
  const shown = rs.slice(0, FOLD_RUNS).map(([s, n]) => (n > 1 ? `${s}-${s + n - 1}` : `${s}`)).join(",");
  return rs.length > FOLD_RUNS ? `${shown}, … and ${rs.length - FOLD_RUNS} more runs` : shown;
};

function printF2fs(r: F2fsReport): void {
  const s = r.superblock, c = r.checkpoint;
  console.log(`F2FS ${s.major_ver}.${s.minor_ver} volume${s.volume_name ? ` "${s.volume_name}"` : ""}: ${s.block_count} blocks of 4096 B, ${s.segment_count} segments (main area ${s.segment_count_main})`);
  console.log(`  checkpoint pack ${c.pack}, version ${c.checkpoint_ver}: ${c.flags.join(" ")}`);
  console.log(`  ${c.valid_block_count} of ${c.user_block_count} blocks valid, ${c.free_segment_count} segments free; ${c.valid_node_count} nodes, ${c.valid_inode_count} inodes; next free NID ${c.next_free_nid}`);
  console.log(`  NAT: ${r.nat.blocks} blocks (NIDs 0..${r.nat.max_nid - 1}), ${r.nat.journal_entries} entries in the checkpoint's journal`);
  console.log(`  valid NIDs: ${r.nat.valid_nids} (${r.counts.nat_matches_checkpoint ? "matches" : "DOES NOT MATCH"} the checkpoint's valid_node_count); NAT blocks in use: ${runs(r.nat.used_blocks)}`);
  for (const d of r.damage) console.log(`  !! ${d}`);
}

export async function inspectCommand(args: string[]): Promise<number> {
  const usage = "usage: fslab inspect <image> [--json]";
  const json = args.includes("--json");
  const unknown = args.find((a) => a.startsWith("--") && a !== "--json");
  if (unknown) throw new UsageError(`unknown option ${unknown}`, usage);
  const files = args.filter((a) => !a.startsWith("--"));
  if (files.length !== 1) throw new UsageError(files.length ? `one image at a time (given ${files.length})` : "no image given", usage);
  let bytes: Uint8Array;
  try {
    if (statSync(files[0]).isDirectory()) throw new Error(`${files[0]} is a directory, not an image`);
    bytes = readFileSync(files[0]);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code ? code : (e as Error).message;
    throw new Error(code ? `cannot read ${files[0]}: ${why}` : why);
  }
  const report = inspectImage(await loadCoreModule("inspect"), bytes);
  // the text is the format's topic's (its manifest's inspect:), or still printed here
  const topics = await loadTopics();
  if (json) console.log(JSON.stringify(report, null, 2));
  else if (topics.some((t) => t.inspect?.fs === report.fs)) (await loadInspectPrinter(topics, report.fs))(report);
  else if (report.fs === "f2fs") printF2fs(report);
  // like fsck: what could be read is printed; damage found gives a line on stderr and status 4
  const damage =
    report.fs === "exfat" ? exfatDamage(report) : report.fs === "vfat" ? vfatDamage(report) : listedDamage(report);
  if (damage.length) {
    console.error(`fslab inspect: ${files[0]} is damaged: ${damage.slice(0, 3).join("; ")}${damage.length > 3 ? `; and ${damage.length - 3} more` : ""}`);
    return 4;
  }
  return 0;
}
