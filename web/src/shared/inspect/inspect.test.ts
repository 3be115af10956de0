// The inspectors (wasm) on images the real mkfs tools and kernel made (wasm/tests/images/),
// against the tools' own reports of the same images: dump.exfat for the boot sector, bitmap,
// up-case table and free count, fsck.exfat for the file counts; dumpe2fs for ext4's
// superblock, group descriptors and bitmaps.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { InspectModule } from "@wasm/inspect.mjs";
import { loadCoreModule } from "../node-load";
import { exfatDamage, inspectImage, InspectError, listedDamage, vfatDamage, type ExfatReport, type Ext4Report, type F2fsReport, type VfatReport } from "./inspect";

const IMAGES = new URL("../../../../wasm/tests/images/", import.meta.url);
const tmp = mkdtempSync("/tmp/fslab-inspect-");
let module: InspectModule;
beforeAll(async () => {
  module = await loadCoreModule("inspect");
});

function image(name: string): { bytes: Uint8Array; path: string } {
  const bytes = gunzipSync(readFileSync(new URL(`${name}.img.gz`, IMAGES)));
  const path = `${tmp}/${name}.img`;
  writeFileSync(path, bytes);
  return { bytes, path };
}

/** dump.exfat's "Name: value" lines */
function dumpExfat(path: string): Map<string, string> {
  const out = execFileSync("dump.exfat", [path], { encoding: "utf8" });
  return new Map(out.split("\n").flatMap((l) => {
    const m = l.match(/^([^:]+):\s*(.*)$/);
    return m ? [[m[1].trim(), m[2].trim()] as [string, string]] : [];
  }));
}

describe.each(["exfat-4k", "exfat-512"])("%s.img", (name) => {
  let r: ExfatReport;
  let path: string;
  beforeAll(() => {
    const img = image(name);
    path = img.path;
    r = inspectImage(module, img.bytes) as ExfatReport;
  });

  it("reads the boot sector, bitmap and up-case table as dump.exfat does", () => {
    const d = dumpExfat(path);
    const num = (k: string) => Number(d.get(k));
    expect(r.boot.volume_length).toBe(num("Volume Length(sectors)"));
    expect(r.boot.fat_offset).toBe(num("FAT Offset(sector offset)"));
    expect(r.boot.fat_length).toBe(num("FAT Length(sectors)"));
    expect(r.boot.cluster_heap_offset).toBe(num("Cluster Heap Offset (sector offset)"));
    expect(r.boot.cluster_count).toBe(num("Cluster Count"));
    expect(r.boot.root_cluster).toBe(num("Root Cluster (cluster offset)"));
    expect(r.boot.volume_serial).toBe(Number(d.get("Volume Serial")));
    expect(r.boot.bytes_per_sector_shift).toBe(num("Sector Size Bits"));
    expect(r.boot.sectors_per_cluster_shift).toBe(num("Sector per Cluster bits"));
    expect(r.cluster_size).toBe(num("Cluster size"));
    expect(r.bitmap.first_cluster).toBe(num("Bitmap start cluster"));
    expect(r.bitmap.data_length).toBe(num("Bitmap size"));
    expect(r.upcase?.first_cluster).toBe(num("Upcase table start cluster"));
    expect(r.upcase?.data_length).toBe(num("Upcase table size"));
    expect(r.label ?? "").toBe(d.get("Volume label") ?? "");
    expect(r.counts.free_clusters).toBe(num("Free Clusters"));
  });

  it("counts directories and files as fsck.exfat does, and finds the volume as clean as it does", () => {
    const out = execFileSync("fsck.exfat", ["-n", "-v", path], { encoding: "utf8" });
    const m = out.match(/clean\. directories (\d+), files (\d+)/);
    expect(m, out).not.toBeNull();
    expect(r.counts.directories).toBe(Number(m![1]));
    expect(r.counts.files).toBe(Number(m![2]));
    expect(r.boot.checksum_ok).toBe(true);
    expect(r.upcase?.checksum_ok).toBe(true);
    expect(r.counts.unmarked_clusters + r.counts.leaked_clusters + r.counts.cross_linked_clusters).toBe(0);
    for (const f of r.files) {
      expect(f.checksum_ok, f.path).toBe(true);
      expect(f.chain_error ?? f.error, f.path).toBeUndefined();
      // every chain covers its size, in whole clusters
      const clusters = f.runs.reduce((n, [, len]) => n + len, 0);
      expect(clusters, f.path).toBe(Math.ceil(f.data_length / r.cluster_size));
    }
  });
});

describe("what the kernel wrote into exfat-4k.img", () => {
  let r: ExfatReport;
  beforeAll(() => {
    r = inspectImage(module, image("exfat-4k").bytes) as ExfatReport;
  });
  const file = (path: string) => r.files.find((f) => f.path === path)!;

  it("a file written at once is one NoFatChain run; two written in turns are FAT chains of interleaved runs", () => {
    const c = file("/contiguous.bin");
    expect(c.no_fat_chain).toBe(true);
    expect(c.runs).toHaveLength(1);
    expect(c.runs[0][1]).toBe(10);
    // recipe: 4 times, 16 KiB to fragmented.bin then 4 KiB to interleaved.log, with a sync between
    const frag = file("/fragmented.bin");
    const log = file("/interleaved.log");
    expect(frag.no_fat_chain).toBe(false);
    expect(frag.runs.map(([, n]) => n)).toEqual([4, 4, 4, 4]);
    expect(log.runs.map(([, n]) => n)).toEqual([1, 1, 1, 1]);
    for (let i = 0; i < 4; i++) expect(log.runs[i][0]).toBe(frag.runs[i][0] + 4);
  });

  it("decodes long and non-ASCII names from their name entries", () => {
    expect(r.files.some((f) => f.name === "café-日本語.txt" && f.secondary_count === 2)).toBe(true);
    // paths carry the real name in UTF-8 (they had '?' for every non-ASCII character)
    expect(file("/café-日本語.txt").name).toBe("café-日本語.txt");
    for (const f of r.files) expect(f.path.endsWith(`/${f.name}`), f.path).toBe(true);
    const long = file("/many/file-with-a-longer-name-60.txt");
    expect(long.name).toBe("file-with-a-longer-name-60.txt");
    expect(long.secondary_count).toBe(1 + Math.ceil(long.name.length / 15));
    expect(r.label).toBe("FSLAB");
    expect(r.counts.deleted_entries).toBe(10 * 3); // rm of gone-1..10: a file, stream and name entry each
  });
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

describe("a damaged exFAT volume: what is wrong is named, what can be read is read", () => {
  // exfat-4k.img as mkfs.exfat and the kernel made it, then one FAT entry changed at a time
  const damaged = (pokes: Array<[number, number]>) => {
    const bytes = image("exfat-4k").bytes.slice();
    const clean = inspectImage(module, bytes) as ExfatReport;
    const fat = clean.boot.fat_offset << clean.boot.bytes_per_sector_shift;
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    for (const [clu, value] of pokes) view.setUint32(fat + 4 * clu, value, true);
    return inspectImage(module, bytes) as ExfatReport;
  };
  const clean = () => inspectImage(module, image("exfat-4k").bytes) as ExfatReport;

  it("the clean image has no damage", () => {
    expect(exfatDamage(clean())).toEqual([]);
  });

  it("a root directory whose chain loops (5 -> 1000 -> ... -> 1039 -> 5): the loop, once, and no cross-links", () => {
    const loop: Array<[number, number]> = [[5, 1000]];
    for (let c = 1000; c < 1039; c++) loop.push([c, c + 1]);
    loop.push([1039, 5]);
    const r = damaged(loop);
    expect(r.root.chain_error).toBe("the chain loops: cluster 1039 leads back to cluster 5, after 41 clusters");
    expect(r.root.runs).toEqual([[5, 1], [1000, 40]]); // each cluster once, not lap after lap
    expect(r.counts.cross_linked_clusters).toBe(0);
    expect(r.files.length).toBe(clean().files.length); // the entries were still read
    expect(exfatDamage(r)[0]).toMatch(/^root directory: the chain loops/);
  });

  it("a file's chain linked into another's: the cross-link names the other file", () => {
    // /interleaved.log's last cluster (35) now leads into /fragmented.bin's first (16)
    const r = damaged([[35, 16]]);
    const log = r.files.find((f) => f.path === "/interleaved.log")!;
    expect(log.cross_link).toBe("16 clusters also in /fragmented.bin, from cluster 16");
    expect(log.chain_error).toBe("chain has 20 clusters, its size needs 4");
    expect(r.files.find((f) => f.path === "/fragmented.bin")!.cross_link).toBeUndefined();
    expect(r.counts.cross_linked_clusters).toBe(16);
  });

  it("a link past the end of the heap, and a free entry inside a chain", () => {
    const past = damaged([[35, 0x0ffffff0]]).files.find((f) => f.path === "/interleaved.log")!;
    expect(past.chain_error).toBe("cluster 35 links to 268435440, outside the heap (clusters 2-1537)");
    expect(past.runs).toEqual([[20, 1], [25, 1], [30, 1], [35, 1]]);
    const free = damaged([[25, 0]]).files.find((f) => f.path === "/interleaved.log")!;
    expect(free.chain_error).toBe("FAT entry of cluster 25 is free (0) inside a chain");
  });
});

describe("vfat-names.img: paths in UTF-8", () => {
  it("each file's path ends in its long name as the kernel wrote it (ＳＪＩＳ, 日本語.txt, café.txt under each mount)", () => {
    const r = inspectImage(module, image("vfat-names").bytes) as VfatReport;
    const withLong = r.files.filter((f) => f.long_name !== undefined);
    expect(withLong.length).toBeGreaterThan(10);
    for (const f of withLong) expect(f.path.endsWith(`/${f.long_name}`), f.path).toBe(true);
    for (const dir of ["u932", "u437"]) expect(r.files.some((f) => f.path === `/${dir}/café.txt`), dir).toBe(true);
    // under iocharset=iso8859-1 the kernel took the name's UTF-8 bytes for Latin-1: that is the name on disk
    expect(r.files.some((f) => f.path === "/l932/cafÃ©.txt")).toBe(true);
    expect(r.files.some((f) => f.path === "/u932/日本語.txt")).toBe(true);
  });
});

describe("a damaged FAT volume: what is wrong is named, what can be read is read", () => {
  // vfat-names.img as mkfs.vfat and the kernel made it, then FAT entries changed
  const clean = () => inspectImage(module, image("vfat-names").bytes) as VfatReport;
  const damaged = (pokes: (dir: (name: string) => number) => Array<[number, number]>) => {
    const bytes = image("vfat-names").bytes.slice();
    const r = clean();
    const dir = (name: string) => r.files.find((f) => f.path === `/${name}`)!.first_cluster;
    const fat = r.bpb.reserved_sectors * r.bpb.bytes_per_sector;
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    for (const [c, v] of pokes(dir)) {
      if (r.fat_type === "FAT16") view.setUint16(fat + 2 * c, v, true);
      else if (r.fat_type === "FAT32") view.setUint32(fat + 4 * c, v, true);
      else {
        const at = fat + c + (c >> 1);
        const old = view.getUint16(at, true);
        view.setUint16(at, c & 1 ? (old & 0x000f) | (v << 4) : (old & 0xf000) | v, true);
      }
    }
    return inspectImage(module, bytes) as VfatReport;
  };
  const eoc = (r: VfatReport) => (r.fat_type === "FAT12" ? 0xfff : r.fat_type === "FAT16" ? 0xffff : 0x0fffffff);
  const free = (r: VfatReport) => {
    // clusters no chain uses, for the pokes to lead into
    const used = new Set(r.files.flatMap((f) => f.runs.flatMap(([s, n]) => Array.from({ length: n }, (_, k) => s + k))));
    return Array.from({ length: 400 }, (_, k) => r.cluster_count - 400 + k).filter((c) => !used.has(c));
  };

  it("the clean image has no damage, and its directories are one chain each", () => {
    const r = clean();
    expect(vfatDamage(r)).toEqual([]);
    for (const d of ["u932", "u437", "l932"]) expect(r.files.find((f) => f.path === `/${d}`)!.runs.length).toBe(1);
  });

  it("a directory whose chain loops: the loop once, its entries read once, no cross-links", () => {
    const r0 = clean();
    const [a, ...rest] = free(r0);
    const tail = rest.slice(0, 20);
    const r = damaged((dir) => {
      const d = dir("u932");
      return [[d, a], [a, tail[0]], ...tail.slice(0, -1).map((c, k): [number, number] => [c, tail[k + 1]]), [tail.at(-1)!, d]];
    });
    const u932 = r.files.find((f) => f.path === "/u932")!;
    const d = u932.first_cluster;
    expect(u932.chain_error).toBe(`the chain loops: cluster ${tail.at(-1)} leads back to cluster ${d}, after 22 clusters`);
    expect(u932.runs.reduce((n, [, k]) => n + k, 0)).toBe(22); // each cluster once, not lap after lap
    expect(r.counts.cross_linked_clusters).toBe(0);
    expect(r.files.filter((f) => f.path.startsWith("/u932/")).length).toBe(r0.files.filter((f) => f.path.startsWith("/u932/")).length);
    expect(vfatDamage(r)).toEqual([`/u932: ${u932.chain_error}`]);
  });

  it("a directory's chain linked into an earlier one's: the cross-link names it, and the directory is not entered twice", () => {
    const r = damaged((dir) => [[dir("u437"), dir("u932")]]);
    const u437 = r.files.find((f) => f.path === "/u437")!;
    expect(u437.cross_link).toBe(`1 cluster also in /u932, from cluster ${r.files.find((f) => f.path === "/u932")!.first_cluster}`);
    expect(r.files.some((f) => f.path.startsWith("/u437/"))).toBe(false);
    expect(r.counts.cross_linked_clusters).toBe(1);
    expect(vfatDamage(r)).toEqual([`/u437: ${u437.cross_link}`]);
  });

  it("a link past the data area, a free entry and a bad one inside a chain", () => {
    const r0 = clean();
    const past = r0.cluster_count + 10;
    const p = damaged((dir) => [[dir("l932"), past]]).files.find((f) => f.path === "/l932")!;
    expect(p.chain_error).toBe(`cluster ${p.first_cluster} links to ${past}, outside the data area (clusters 2-${r0.cluster_count + 1})`);
    const [a] = free(r0);
    const f = damaged((dir) => [[dir("l932"), a], [a, 0]]).files.find((x) => x.path === "/l932")!;
    expect(f.chain_error).toBe(`FAT entry of cluster ${a} is free (0x0) inside a chain`);
    const bad = eoc(r0) - 8;
    const b = damaged((dir) => [[dir("l932"), a], [a, bad]]).files.find((x) => x.path === "/l932")!;
    expect(b.chain_error).toBe(`FAT entry of cluster ${a} is marked bad (0x${bad.toString(16).toUpperCase()}) inside a chain`);
  });
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

describe.each(["ext4-4k", "ext4-64k", "ext4-bigalloc"])("%s.img: extent trees", (name) => {
  it("every inode in use with extents, its extents and blocks as debugfs lists them", () => {
    const img = image(name);
    const r = inspectImage(module, img.bytes) as Ext4Report;
    expect(r.damage).toEqual([]);
    expect(r.inodes_with_extents).toBeGreaterThan(40);
    expect(r.extent_files).toHaveLength(r.inodes_with_extents);
    const cmd = `${tmp}/${name}.debugfs`;
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

describe("bad input", () => {
  it("names what is wrong", () => {
    const bytes = image("exfat-512").bytes.slice();
    bytes[510] = 0;
    expect(() => inspectImage(module, bytes)).toThrow(new InspectError("not an exFAT volume: bad boot signature at 510"));
    expect(() => inspectImage(module, new TextEncoder().encode("hello"))).toThrow(/no filesystem fslab can inspect/);
  });
});
