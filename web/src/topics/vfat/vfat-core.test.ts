// The VFAT name model against the real kernel: wasm/tests/images/vfat-names.img was made in
// the guest by mounting a FAT16 volume three ways (utf8 + cp932, utf8 + cp437, iso8859-1 +
// cp932) and creating the same names under each; the inspector reads back what the kernel
// wrote, and the model must predict every short name and long name. fsck.vfat agrees too.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { VfatModule } from "@wasm/vfat.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { inspectImage } from "../../shared/inspect/inspect";
import { type VfatReport } from "./inspect-report";
import { hex, vfatName, VfatError } from "./vfat-core";
import { VFAT_MOUNTS, VFAT_NAMES } from "./vfat-names";

let m: VfatModule;
let report: VfatReport;
let path: string;
beforeAll(async () => {
  m = await loadCoreModule("vfat");
  const bytes = gunzipSync(readFileSync(new URL("../../../../wasm/tests/images/vfat-names.img.gz", import.meta.url)));
  path = `${mkdtempSync("/tmp/fslab-vfat-")}/vfat-names.img`;
  writeFileSync(path, bytes);
  report = inspectImage(await loadCoreModule("inspect"), bytes) as VfatReport;
});

describe("the vfat-names image", () => {
  it("is read as fsck.vfat reads it", () => {
    const out = execFileSync("fsck.vfat", ["-n", "-v", path], { encoding: "utf8" });
    const mm = out.match(/(\d+) files, (\d+)\/(\d+) clusters/)!;
    expect(report.fat_type).toBe("FAT16");
    expect(report.cluster_count).toBe(Number(mm[3]));
    expect(report.counts.free_clusters).toBe(Number(mm[3]) - Number(mm[2]));
    expect(report.counts.files + report.counts.directories).toBe(Number(mm[1]));
  });

  it.each(VFAT_MOUNTS.map((mt) => [mt.options, mt] as const))("the model predicts what the kernel wrote with -o %s", (_o, mount) => {
    const existing: Uint8Array[] = [];
    const inDir = report.files.filter((f) => f.path.startsWith(`/${mount.dir}/`) && f.path !== `/${mount.dir}/data.bin`);
    const predicted: string[] = [];
    for (const name of VFAT_NAMES) {
      let v;
      try {
        v = vfatName(m, name, mount.io, mount.codepage, existing);
      } catch (e) {
        // "readme.txt" after "README.TXT": VFAT names are case-insensitive, the lookup finds
        // the existing file and nothing is created
        expect(e).toBeInstanceOf(VfatError);
        continue;
      }
      existing.push(v.short);
      predicted.push(hex(v.short));
      const onDisk = inDir.find((f) => f.short_raw === hex(v.short));
      expect(onDisk, `${name}: no entry ${hex(v.short)}`).toBeDefined();
      expect(onDisk!.long_name ?? null, name).toBe(v.longName);
      expect(onDisk!.lfn_entries ?? 0, name).toBe(v.lfnSlots);
      expect(onDisk!.checksum, name).toBe(v.checksum);
      expect(onDisk!.lcase, name).toBe(v.lcase);
      expect(onDisk!.short_cp932, name).toBe(v.asCp932); // the inspector and the model read alike
      expect(onDisk!.short_cp437, name).toBe(v.asCp437);
    }
    // and nothing else: one entry per name the model created, in the same order
    expect(inDir.map((f) => f.short_raw)).toEqual(predicted);
  });

  it("shows the blog series' three outcomes for ＳＪＩＳ", () => {
    const at = (dir: string) => report.files.find((f) => f.path.startsWith(`/${dir}/`) && f.entry === report.files.filter((g) => g.path.startsWith(`/${dir}/`))[0].entry)!;
    expect(at("u932").short_cp932).toBe("ＳＪＩＳ"); // the codepage has the characters
    expect(at("u437").short_raw).toBe(hex(new TextEncoder().encode("____~1     "))); // it has not
    expect(at("l932").long_name).toBe("ï¼³ï¼ªï¼©ï¼³"); // UTF-8 bytes read as Latin-1
  });
});
