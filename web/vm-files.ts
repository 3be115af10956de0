// The guest's files (kernel-image/dist/) reach the page as plain static files under vm/,
// outside Vite's module pipeline: a kernel without an extension must not be taken for a
// module, and the compressed files (zstd, xz) must reach the page as the bytes they are.
//   dev:   GET /vm/<name> and /vm/rootfs/<sha256>.zst stream kernel-image/dist/<same path>
//   build: each file is emitted to web/dist/vm/<same path>
// rootfs/ holds the root filesystem's files, each fetched by v86 when the guest first reads it.
// v86's core comes the same way as vm/v86.wasm.gz: gzip -9 makes its 2.1 MB 0.4 MB on any
// server, and the page un-gzips it while it compiles (web/src/vm/browser/vm-host.ts). The BIOSes come
// only for a cold boot (src/vm/machine/guest.ts BIOS_FILES), as they are. The core carries compilation
// hints for its hot functions (src/vm/v86-hints.ts, the list in v86-hot.txt).
import { createReadStream, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";
import { BIOS_FILES, V86_WASM_GZ } from "./src/vm/machine/guest.ts";
import { withCompilationHints } from "./src/vm/machine/v86-hints.ts";

export const VM_FILES = ["bzImage", "rootfs.json", BIOS_FILES.bios, BIOS_FILES.vga_bios, "state.bin.xz"];

let wasmGz: Buffer | null = null;
/** v86's wasm from its npm package with its hints, gzipped once per process: the page un-gzips it itself. */
function v86WasmGz(): Buffer {
  if (!wasmGz) {
    const hot = readFileSync(new URL("./v86-hot.txt", import.meta.url), "utf8").split("\n").filter(Boolean);
    wasmGz = gzipSync(withCompilationHints(readFileSync(createRequire(import.meta.url).resolve("v86/build/v86.wasm")), hot), { level: 9 });
  }
  return wasmGz;
}
const ROOTFS_FILE = /^rootfs\/[0-9a-f]{64}(-\d+)?\.zst$/;

export function vmFiles(distDir: string): Plugin {
  return {
    name: "fslab-vm-files",
    // its size, for the pages that say what starting a VM downloads (web/src/vite-env.d.ts)
    config: () => ({ define: { __V86_WASM_GZ_BYTES__: String(v86WasmGz().length) } }),
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = req.url?.match(/^\/vm\/([\w./-]+?)(\?.*)?$/);
        if (m?.[1] === V86_WASM_GZ) {
          // gzip bytes the page un-gzips itself: no Content-Encoding, as from any static server
          res.setHeader("Content-Type", "application/octet-stream");
          return res.end(v86WasmGz());
        }
        if (!m || !(VM_FILES.includes(m[1]) || ROOTFS_FILE.test(m[1]))) return next();
        const file = distDir + m[1];
        let size: number;
        try {
          size = statSync(file).size;
        } catch {
          res.statusCode = 404;
          return res.end();
        }
        res.setHeader("Content-Type", "application/octet-stream");
        res.setHeader("Content-Length", String(size));
        createReadStream(file).pipe(res);
      });
    },
    generateBundle() {
      const rootfs = readdirSync(distDir + "rootfs").map((f) => `rootfs/${f}`).filter((f) => ROOTFS_FILE.test(f));
      for (const name of [...VM_FILES, ...rootfs]) this.emitFile({ type: "asset", fileName: `vm/${name}`, source: readFileSync(distDir + name) });
      this.emitFile({ type: "asset", fileName: `vm/${V86_WASM_GZ}`, source: v86WasmGz() });
    },
  };
}
