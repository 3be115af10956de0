// The ext4 inspector (wasm) on images the real mkfs tools and kernel made, against dumpe2fs's
// superblock, group descriptors and bitmaps; extent trees checked as the kernel checks them.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { InspectModule } from "@wasm/inspect.mjs";
import { inspectImage, listedDamage } from "../../shared/inspect/inspect";
import { loadInspect, scratch, testImage as image } from "../../shared/inspect/test-images";
import { type Ext4Report } from "./inspect-report";

let module: InspectModule;
beforeAll(async () => {
  module = await loadInspect();
});

describe.each(["ext4-4k", "ext4-bigalloc", "ext4-64k"])("%s.img", (name) => {
  let r: Ext4Report;
  let dump: string;
  beforeAll(() => {
    const img = image(name);
    r = inspectImage(module, img.bytes) as Ext4Report;
    dump = execFileSync("dumpe2fs", [img.path], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  });
  const field = (k: string) => dump.match(new RegExp(`^${k}:\\s+(.*)$`, "m"))?.[1].trim();

  it("reads the superblock as dumpe2fs does", () => {
    const s = r.superblock;
    expect(r.fs).toBe("ext4");
    expect(s.blocks_count).toBe(Number(field("Block count")));
    expect(s.inodes_count).toBe(Number(field("Inode count")));
    expect(s.free_blocks_count).toBe(Number(field("Free blocks")));
    expect(s.free_inodes_count).toBe(Number(field("Free inodes")));
    expect(r.block_size).toBe(Number(field("Block size")));
    expect(r.cluster_size).toBe(Number(field("Cluster size") ?? field("Block size")));
    expect(s.blocks_per_group).toBe(Number(field("Blocks per group")));
    expect(s.inodes_per_group).toBe(Number(field("Inodes per group")));
    expect(s.desc_size).toBe(Number(field("Group descriptor size")));
    expect(s.volume_name).toBe(field("Filesystem volume name"));
    expect(s.features).toEqual(field("Filesystem features")!.split(/\s+/));
    expect(s.checksum_ok).toBe(true);
    expect(r.counts.bad_checksums).toBe(0);
  });

  it("reads every group descriptor and block bitmap as dumpe2fs does", () => {
    // "Group 1: (Blocks 2048-4095) csum 0xfc60 [INODE_UNINIT]" ... "1885 free blocks, 2048 free inodes, 0 directories"
    const groups = [...dump.matchAll(/^Group (\d+): \(Blocks (\d+)-(\d+)\)[^\n]*\n((?:  [^\n]*\n)+)/gm)];
    expect(groups.length).toBe(r.groups_count);
    expect(groups.length).toBe(r.groups.length);
    for (const [, n, first, , body] of groups) {
      const g = r.groups[Number(n)];
      expect(g.first_block).toBe(Number(first));
      expect(g.block_bitmap).toBe(Number(body.match(/Block bitmap at (\d+)/)![1]));
      expect(g.inode_bitmap).toBe(Number(body.match(/Inode bitmap at (\d+)/)![1]));
      expect(g.inode_table).toBe(Number(body.match(/Inode table at (\d+)/)![1]));
      const m = body.match(/(\d+) free (?:blocks|clusters), (\d+) free inodes, (\d+) directories/)!;
      expect([g.free_clusters, g.free_inodes, g.used_dirs]).toEqual([Number(m[1]), Number(m[2]), Number(m[3])]);
      // the bitmap on disk agrees with its descriptor (the kernel keeps both)
      if (!g.block_uninit) expect(g.bitmap_free_clusters).toBe(g.free_clusters);
      expect(g.desc_checksum_ok).toBe(true);
      if (!g.block_uninit) expect(g.block_bitmap_checksum_ok).toBe(true);
    }
    expect(r.counts.free_blocks_in_descriptors).toBe(r.superblock.free_blocks_count);
  });
});

describe.each(["ext4-4k", "ext4-64k", "ext4-bigalloc"])("%s.img: extent trees", (name) => {
  it("every inode in use with extents, its extents and blocks as debugfs lists them", () => {
    const img = image(name);
    const r = inspectImage(module, img.bytes) as Ext4Report;
    expect(r.damage).toEqual([]);
    expect(r.inodes_with_extents).toBeGreaterThan(40);
    expect(r.extent_files).toHaveLength(r.inodes_with_extents);
    const cmd = scratch(`${name}.debugfs`);
    writeFileSync(cmd, r.extent_files.map((f) => `ex <${f.inode}>`).join("\n") + "\n");
    const out = execFileSync("debugfs", ["-f", cmd, img.path], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    // per inode: its leaf lines ("0/ 0   1/  1     0 -    73  2097 -  2170     74")
    const byInode = new Map<number, { extents: number; blocks: number }>();
    let ino = 0;
    for (const line of out.split("\n")) {
      const head = line.match(/^debugfs: ex <(\d+)>/);
      if (head) byInode.set((ino = Number(head[1])), { extents: 0, blocks: 0 });
      const leaf = line.match(/^\s*(\d+)\/\s*(\d+)\s+\d+\/\s*\d+\s+\d+\s+-\s+\d+\s+\d+\s+-\s+\d+\s+(\d+)/);
      if (leaf && leaf[1] === leaf[2]) {
        const e = byInode.get(ino)!;
        e.extents++;
        e.blocks += Number(leaf[3]);
      }
    }
    for (const f of r.extent_files) expect({ inode: f.inode, ...byInode.get(f.inode) }).toEqual({ inode: f.inode, extents: f.extents, blocks: f.blocks });
  });
});

describe("a damaged ext4 volume: an extent tree checked as the kernel checks it", () => {
  // ext4-4k.img as mkfs.ext4 and the kernel made it; inode 12 (a 74-block file) changed
  const clean = () => inspectImage(module, image("ext4-4k").bytes) as Ext4Report;
  const damaged = (poke: (view: DataView, iblock: number, r: Ext4Report) => void) => {
    const bytes = image("ext4-4k").bytes.slice();
    const r = clean();
    const iblock = r.groups[0].inode_table * r.block_size + (12 - 1) * r.superblock.inode_size + 0x28;
    poke(new DataView(bytes.buffer, bytes.byteOffset), iblock, r);
    return inspectImage(module, bytes) as Ext4Report;
  };

  it("the clean image: inode 12 is one extent of 74 blocks, and nothing is damaged", () => {
    const r = clean();
    expect(r.extent_files.find((f) => f.inode === 12)).toEqual({ inode: 12, depth: 0, extents: 1, blocks: 74 });
    expect(listedDamage(r)).toEqual([]);
  });

  it("names a tree deeper than ext4 allows, more entries than the header's max, and a bad magic", () => {
    expect(listedDamage(damaged((v, at) => v.setUint16(at + 6, 7, true)))).toEqual(["inode 12: extent tree depth 7 is deeper than ext4 allows (5)"]);
    expect(listedDamage(damaged((v, at) => v.setUint16(at + 2, 9, true)))).toEqual(["inode 12: an extent node at depth 0 holds 9 entries, its header allows 4 (room for 4)"]);
    expect(listedDamage(damaged((v, at) => v.setUint16(at, 0, true)))).toEqual(["inode 12: extent header has bad magic 0x0000 (0xF30A)"]);
    const r = damaged((v, at) => v.setUint16(at + 6, 7, true));
    expect(r.extent_files.find((f) => f.inode === 12)!.damaged).toBe(true);
  });

  it("names an extent, and an index, that point past the volume's end", () => {
    const r0 = clean();
    const past = r0.superblock.blocks_count + 100;
    expect(listedDamage(damaged((v, at) => v.setUint32(at + 12 + 8, past, true)))).toEqual([
      `inode 12: an extent of 74 blocks at block ${past} runs past the volume's end (${r0.superblock.blocks_count} blocks)`,
    ]);
    // the root made an index node (depth 1) whose one entry leads past the end
    const idx = damaged((v, at) => {
      v.setUint16(at + 6, 1, true);
      v.setUint32(at + 12 + 4, past, true);
      v.setUint16(at + 12 + 8, 0, true);
    });
    expect(listedDamage(idx)).toEqual([`inode 12: an index at depth 1 points at block ${past}, past the volume's end`]);
  });
});
