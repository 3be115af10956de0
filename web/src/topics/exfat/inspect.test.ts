// The exFAT inspector (wasm) on images the real mkfs tools and kernel made, against the tools'
// own reports of the same images: dump.exfat for the boot sector, bitmap, up-case table and
// free count, fsck.exfat for the file counts.
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import type { InspectModule } from "@wasm/inspect.mjs";
import { inspectImage } from "../../shared/inspect/inspect";
import { loadInspect, testImage as image } from "../../shared/inspect/test-images";
import { exfatDamage, type ExfatReport } from "./inspect-report";

let module: InspectModule;
beforeAll(async () => {
  module = await loadInspect();
});

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
