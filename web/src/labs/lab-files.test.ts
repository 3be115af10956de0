// A lab's files/: the names and sizes the format accepts, and the scripts that put them in the
// guest, run here with bash in a folder standing for the guest's / (base64 and mv as there).
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHUNK_BYTES, deliveryScripts, fileNameErrors, fileSizeErrors, LAB_FILES_BYTES, LAB_FILES_MAX, putLabFiles } from "./lab-files";
import { labErrorLines, parseLab } from "./lab-format";

describe("a lab's files", () => {
  it("takes plain relative names, and refuses the rest", () => {
    expect(fileNameErrors(["setup.sh", "data/words.txt", "disk.img"])).toEqual([]);
    expect(fileNameErrors(["../etc/passwd", "/abs", "a b", "x//y", "dup", "dup", "./x"])).toEqual([
      `"../etc/passwd" is not a file name under files/ (letters, digits, ".", "-", "_", folders with "/", no "..")`,
      `"/abs" is not a file name under files/ (letters, digits, ".", "-", "_", folders with "/", no "..")`,
      `"a b" is not a file name under files/ (letters, digits, ".", "-", "_", folders with "/", no "..")`,
      `"x//y" is not a file name under files/ (letters, digits, ".", "-", "_", folders with "/", no "..")`,
      `"dup" is listed twice`,
      `"./x" is not a file name under files/ (letters, digits, ".", "-", "_", folders with "/", no "..")`,
    ]);
    expect(fileNameErrors(Array.from({ length: LAB_FILES_MAX + 1 }, (_, i) => `f${i}`))[0]).toBe(`a lab ships at most ${LAB_FILES_MAX} files, not ${LAB_FILES_MAX + 1}`);
  });

  it("names a missing file and a lab over the size limit", () => {
    expect(fileSizeErrors([{ name: "a", bytes: 10 }, { name: "b", bytes: undefined }])).toEqual(["files/b is not there"]);
    expect(fileSizeErrors([{ name: "a", bytes: LAB_FILES_BYTES }, { name: "b", bytes: 1 }])).toEqual([`the files come to 1.0 MiB: a lab ships at most 1 MiB (the page downloads them on every visit)`]);
    expect(fileSizeErrors([{ name: "a", bytes: LAB_FILES_BYTES }])).toEqual([]);
  });

  it("the format reads files: and names its line when a name is wrong", () => {
    const lab = (fm: string) => `---\ntitle: T\n${fm}\n---\n\n## One\n\n<!-- reading -->\n\nText.\n`;
    expect(parseLab(lab("files: [setup.sh, data/x.csv]"), [], "lab.md", "x").meta.files).toEqual(["setup.sh", "data/x.csv"]);
    expect(parseLab(lab(""), [], "lab.md", "x").meta.files).toEqual([]);
    let lines: string[] = [];
    try {
      parseLab(lab("topics: []\nfiles: [../x]"), [], "labs/x/lab.md", "x");
    } catch (e) {
      lines = labErrorLines(e);
    }
    expect(lines).toEqual([`labs/x/lab.md:4: files: "../x" is not a file name under files/ (letters, digits, ".", "-", "_", folders with "/", no "..")`]);
  });

  it("puts each file in /lab/ whole, a piece at a time, scripts executable", async () => {
    const root = mkdtempSync(join(tmpdir(), "fslab-labfiles-"));
    try {
      // bigger than two pieces, every byte value
      const big = Uint8Array.from({ length: 2 * CHUNK_BYTES + 777 }, (_, i) => (i * 7919) & 0xff);
      const files = [
        { name: "setup.sh", data: new TextEncoder().encode("#!/bin/sh\necho it's set up\n") },
        { name: "data/disk.img", data: big },
        { name: "empty", data: new Uint8Array(0) },
      ];
      const scripts = deliveryScripts(files, root);
      expect(scripts.filter((s) => s.name === "data/disk.img")).toHaveLength(2 + 3);
      const run = async (script: string) => {
        try {
          return { status: 0, output: execFileSync("bash", ["-c", script], { encoding: "utf8" }) };
        } catch (e: any) {
          return { status: e.status as number, output: String(e.stderr) };
        }
      };
      // the same scripts, through putLabFiles, with the guest's / standing at root
      await putLabFiles((script) => run(script.replaceAll("'/lab", `'${root}/lab`)), files);
      expect(readFileSync(join(root, "lab/setup.sh"), "utf8")).toBe("#!/bin/sh\necho it's set up\n");
      expect(statSync(join(root, "lab/setup.sh")).mode & 0o111).not.toBe(0);
      expect(Buffer.compare(readFileSync(join(root, "lab/data/disk.img")), Buffer.from(big))).toBe(0);
      expect(statSync(join(root, "lab/data/disk.img")).mode & 0o111).toBe(0);
      expect(readFileSync(join(root, "lab/empty")).length).toBe(0);
      expect(() => statSync(join(root, "lab/data/disk.img.part"))).toThrow();
      // a failure names the file and what the guest said
      await expect(putLabFiles(async () => ({ status: 1, output: "No space left on device\n" }), files)).rejects.toThrow("/lab/setup.sh could not be written in the guest (exit 1): No space left on device");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
