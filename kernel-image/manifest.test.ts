// dist/ must be what build.sh makes from the inputs in the tree.
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, shared with build.sh
import { checkManifest, readManifest } from "./manifest.mjs";

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
});
