// The F2FS inspector (wasm) on images the real mkfs tools and kernel made, and a damaged NAT.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { InspectModule } from "@wasm/inspect.mjs";
import { inspectImage, listedDamage } from "../../shared/inspect/inspect";
import { loadInspect, testImage as image } from "../../shared/inspect/test-images";
import { type F2fsReport } from "./inspect-report";

let module: InspectModule;
beforeAll(async () => {
  module = await loadInspect();
});

describe("f2fs.img", () => {
  let r: F2fsReport;
  let path: string;
  beforeAll(() => {
    const img = image("f2fs");
    path = img.path;
    r = inspectImage(module, img.bytes) as F2fsReport;
  });

  it("reads the superblock and the valid checkpoint as dump.f2fs does", () => {
    // dump.f2fs -d 1 prints "name   [0x... : decimal]" for both
    const out = execFileSync("dump.f2fs", ["-d", "1", path], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const field = (k: string) => Number(out.match(new RegExp(`^${k}\\s+\\[0x\\s*[0-9a-f]+ : (\\d+)\\]`, "m"))![1]);
    for (const k of ["block_count", "section_count", "segment_count", "segment_count_nat", "segment_count_main", "cp_blkaddr", "nat_blkaddr", "main_blkaddr", "root_ino", "cp_payload"] as const)
      expect(r.superblock[k], k).toBe(field(k));
    for (const k of ["checkpoint_ver", "user_block_count", "valid_block_count", "free_segment_count", "ckpt_flags", "valid_node_count", "valid_inode_count", "next_free_nid", "nat_ver_bitmap_bytesize"] as const)
      expect(r.checkpoint[k], k).toBe(field(k));
    expect(r.superblock.volume_name).toBe("fslab");
  });

  it("counts the valid NIDs in the NAT and its journal as fsck.f2fs does, matching the checkpoint", () => {
    // fsck.f2fs rewrites its version into the superblock: give it a copy
    const copy = `${path}.fsck`;
    writeFileSync(copy, readFileSync(path));
    const out = execFileSync("fsck.f2fs", ["-f", copy], { encoding: "utf8" });
    const m = out.match(/valid_node_count matching with CP \(nat lookup\)\s+\[Ok\.\.\] \[0x([0-9a-f]+)\]/);
    expect(m, out).not.toBeNull();
    expect(r.nat.valid_nids).toBe(parseInt(m![1], 16));
    expect(r.counts.nat_matches_checkpoint).toBe(true);
    expect(r.nat.journal_entries).toBeGreaterThan(0); // the kernel left recent NAT updates in the journal
    // per NAT block, to the last one in use: they add up, and agree with the used runs
    expect(r.nat.valid_per_block.reduce((a, b) => a + b, 0)).toBe(r.nat.valid_nids);
    const last = r.nat.used_blocks.at(-1)!;
    expect(r.nat.valid_per_block).toHaveLength(last[0] + last[1]);
    for (const [first, n] of r.nat.used_blocks) for (let b = first; b < first + n; b++) expect(r.nat.valid_per_block[b]).toBeGreaterThan(0);
  });
});

describe("a damaged F2FS volume: the NAT's damage is named, the rest read", () => {
  // f2fs.img as mkfs.f2fs and the kernel made it, then NAT entries and the NAT journal changed
  const clean = () => inspectImage(module, image("f2fs").bytes) as F2fsReport;
  const BLK = 4096;
  const damaged = (poke: (view: DataView, r: F2fsReport, journal: number) => void) => {
    const bytes = image("f2fs").bytes.slice();
    const r = clean();
    // the checkpoint pack's summary block holds the NAT journal (after the entries unless compacted)
    const cp = r.superblock.cp_blkaddr + (r.checkpoint.pack === 2 ? 512 : 0);
    const journal = (cp + r.checkpoint.cp_pack_start_sum) * BLK + (r.checkpoint.flags.includes("compacted_summary") ? 0 : 7 * 512);
    poke(new DataView(bytes.buffer, bytes.byteOffset), r, journal);
    return inspectImage(module, bytes) as F2fsReport;
  };

  it("the clean image has no damage", () => {
    expect(listedDamage(clean())).toEqual([]);
  });

  it("a NAT entry pointing past the volume names the NID and its NAT block", () => {
    const r0 = clean();
    const past = r0.superblock.block_count + 100;
    // NID 3 (the root inode) in both copies of NAT block 0: whichever is current
    const r = damaged((v, r) => {
      for (const copy of [0, 512]) v.setUint32((r.superblock.nat_blkaddr + copy) * BLK + 3 * 9 + 5, past, true);
    });
    expect(listedDamage(r)[0]).toBe(`NID 3's node is at block ${past}, past the volume's ${r0.superblock.block_count} blocks (NAT block 0)`);
  });

  it("a journal entry naming a NID past the NAT, and a journal that claims more entries than fit", () => {
    const r0 = clean();
    const r = damaged((v, _, journal) => v.setUint32(journal + 2, r0.nat.max_nid + 7, true));
    expect(listedDamage(r)).toContain(`NAT journal entry 0 names NID ${r0.nat.max_nid + 7}, past the NAT (NIDs 0-${r0.nat.max_nid - 1})`);
    const many = damaged((v, _, journal) => v.setUint16(journal, 200, true));
    expect(many.nat.journal_entries).toBe(0);
    expect(listedDamage(many)[0]).toBe("the NAT journal says it holds 200 entries, more than the 38 a summary block has room for");
    // without the journal's updates the NAT blocks alone disagree with the checkpoint, and that is named too
    expect(many.counts.nat_matches_checkpoint).toBe(false);
    expect(listedDamage(many)).toContain(`the NAT holds ${many.nat.valid_nids} valid NIDs, the checkpoint counts ${many.checkpoint.valid_node_count} nodes`);
  });

  it("an image cut short: the NAT blocks past its end are counted and named", () => {
    const r0 = clean();
    const bytes = image("f2fs").bytes.slice(0, (r0.superblock.nat_blkaddr + 1) * BLK);
    const r = inspectImage(module, bytes) as F2fsReport;
    expect(r.nat.unreadable_blocks).toBeGreaterThan(0);
    expect(listedDamage(r)).toContain(`${r.nat.unreadable_blocks} NAT blocks lie past the image's end`);
  });
});
