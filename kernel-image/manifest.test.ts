// dist/ must be what build.sh makes from the inputs in the tree.
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, shared with build.sh
import { checkManifest, readManifest, rootfsProblems } from "./manifest.mjs";
import { rootfsChunkName } from "./rootfs/chunks.mjs";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("kernel-image/dist manifest", () => {
  it("matches the config, patches, rootfs recipe and the committed artifacts", () => {
    expect(checkManifest()).toEqual([]);
  });

  it("names the kernel it was built from: Debian's linux-source-7.2, i386", () => {
    const m = readManifest();
    expect(m.kernel.source_package).toBe("linux-source-7.2");
    expect(m.kernel.release).toMatch(/^7\.2\.\d+/);
    expect(m.kernel.arch).toBe("i386");
    for (const p of ["busybox-static", "bash", "exfatprogs", "e2fsprogs", "f2fs-tools", "dosfstools", "util-linux", "fio-source"])
      expect(m.packages[p], p).toBeTruthy();
  });

  it("reports an input edited after the build, and a replaced artifact", () => {
    const m = readManifest();
    m.inputs["config/fslab.config"] = "0".repeat(64);
    m.outputs["bzImage"].sha256 = "0".repeat(64);
    expect(checkManifest(m)).toEqual([
      "input config/fslab.config changed since dist/ was built",
      "output dist/bzImage does not match its manifest hash",
    ]);
  });

  it("finds every file the root filesystem's tree names, and reports one missing or one unlisted", () => {
    const dist = new URL("./dist/", import.meta.url).pathname;
    expect(rootfsProblems(dist)).toEqual([]);
    const copy = mkdtempSync(join(tmpdir(), "fslab-rootfs-"));
    try {
      cpSync(join(dist, "rootfs.json"), join(copy, "rootfs.json"));
      cpSync(join(dist, "rootfs"), join(copy, "rootfs"), { recursive: true });
      // a small file, stored whole, and a piece of a large one (bash: 1.2 MB in 128 KiB pieces)
      const profile = treeFile(join(copy, "rootfs.json"), ["etc", "profile"]);
      const bash = rootfsChunkName(treeFile(join(copy, "rootfs.json"), ["usr", "bin", "bash"]), 3);
      rmSync(join(copy, "rootfs", profile));
      rmSync(join(copy, "rootfs", bash));
      writeFileSync(join(copy, "rootfs", "stray.zst"), "x");
      expect(rootfsProblems(copy)).toEqual([
        `dist/rootfs.json names rootfs/${profile}, which is missing`,
        `dist/rootfs.json names rootfs/${bash}, which is missing`,
        "dist/rootfs/stray.zst is not in rootfs.json",
      ]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

/** The rootfs/ name of a file in a basefs tree, by its path. */
function treeFile(json: string, path: string[]): string {
  let entries = JSON.parse(readFileSync(json, "utf8")).fsroot as unknown[][];
  for (const [i, part] of path.entries()) {
    const e = entries.find((x) => x[0] === part)!;
    if (i === path.length - 1) return e[6] as string;
    entries = e[6] as unknown[][];
  }
  throw new Error("empty path");
}
