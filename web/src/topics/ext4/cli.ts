// fslab simulate ext4: the ext4 models on the command line (the same wasm build as the page).
// Listed in this topic's manifest (topic.ts); bin/commands/main.ts finds it there.
import { parseArgs } from "node:util";
import { loadCoreModule } from "../../shared/node-load";
import { size, UsageError } from "../../shared/cli-args";
import { LAYOUTS, ext4WriteFile } from "./ext4-core";

async function simulateExt4Command(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({ args: argv, options: { size: { type: "string", default: "256M" }, json: { type: "boolean", default: false } } });
  const bytes = size(v.size!, "--size");
  if (bytes < 65536 || bytes > 2 ** 40) throw new UsageError(`--size: ${bytes} B is outside 64k..1T`);
  const m = await loadCoreModule("ext4");
  const rows = [false, true].flatMap((direct) =>
    LAYOUTS.flatMap((l) => [4096, 8192, 16384, 32768, 65536].map((bs) => ({ mode: direct ? "direct" : "buffered", layout: l.name, bs, ...ext4WriteFile(m, l, direct, bytes, bs) }))),
  );
  if (v.json) {
    console.log(JSON.stringify({ bytes, rows }));
    return 0;
  }
  console.log(`dd of ${bytes} B to a new file: bitmap checksum bytes per byte written (allocations)`);
  for (const mode of ["buffered", "direct"]) {
    console.log(`\n  ${mode.padEnd(14)}${[4, 8, 16, 32, 64].map((k) => `bs=${k}k`.padStart(17)).join("")}`);
    for (const l of LAYOUTS) {
      const cells = rows.filter((r) => r.mode === mode && r.layout === l.name).map((r) => `${(r.csum_bytes / bytes).toFixed(4)} (${r.allocations})`.padStart(17));
      console.log(`  ${l.name.padEnd(14)}${cells.join("")}`);
    }
  }
  console.log(`\n  direct: bytes the device writes per byte of data (zeros iomap writes after sub-block writes)`);
  console.log(`  ${"".padEnd(14)}${[4, 8, 16, 32, 64].map((k) => `bs=${k}k`.padStart(17)).join("")}`);
  for (const l of LAYOUTS) {
    const cells = rows.filter((r) => r.mode === "direct" && r.layout === l.name).map((r) => `${((bytes + r.zero_bytes) / bytes).toFixed(2)}x`.padStart(17));
    console.log(`  ${l.name.padEnd(14)}${cells.join("")}`);
  }
  console.log(`\n  A 64k-block bitmap is 16 times the bytes of a 4k one, so each allocation's checksum costs 16 times more;`);
  console.log(`  direct writes allocate per write, buffered ones per writeback extent. The LBS series' cover letter blames crc32c in`);
  console.log(`  ext4_block_bitmap_csum_set() for LBS's direct I/O being up to 30% slower, most at small bs; checksums`);
  console.log(`  alone do not grow as bs shrinks. What does: a direct write smaller than the block, extending the file,`);
  console.log(`  makes iomap_dio_bio_iter() write zeros to the end of its block, so 4k writes into 64k blocks send 8.5x`);
  console.log(`  the data to the device (the guest's kernel measured the same); 4k blocks are never written in part.`);
  return 0;
}


const USAGE_EXT4 = `usage: fslab simulate ext4 [--size SIZE] [--json]
  dd of SIZE (default 256M) to a new file at bs 4k..64k, buffered and direct, on 4k blocks,
  bigalloc 64k clusters and 64k blocks: allocations and bitmap-checksum bytes (crc32c over a
  whole bitmap per allocation, ext4_block_bitmap_csum_set), as the LBS series' cover letter explains LBS's
  slower direct I/O.`;

export const cli = {
  "ext4": { run: simulateExt4Command, usage: USAGE_EXT4 },
};
