// The FAT inspector (wasm) on images the real mkfs tools and kernel made: paths in UTF-8, and
// damage named as fsck.vfat names it.
import { beforeAll, describe, expect, it } from "vitest";
import type { InspectModule } from "@wasm/inspect.mjs";
import { inspectImage } from "../../shared/inspect/inspect";
import { loadInspect, testImage as image } from "../../shared/inspect/test-images";
import { vfatDamage, type VfatReport } from "./inspect-report";

let module: InspectModule;
beforeAll(async () => {
  module = await loadInspect();
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
