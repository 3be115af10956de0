// The guest's files (kernel-image/dist/) reach the page as plain static files under vm/,
// outside Vite's module pipeline: a kernel without an extension must not be taken for a
// module, and the zstd files must reach v86 as the bytes they are.
//   dev:   GET /vm/<name> and /vm/rootfs/<sha256>.zst stream kernel-image/dist/<same path>
//   build: each file is emitted to web/dist/vm/<same path>
// rootfs/ holds the root filesystem's files, each fetched by v86 when the guest first reads it.
import { createReadStream, readdirSync, readFileSync, statSync } from "node:fs";
import type { Plugin } from "vite";

export const VM_FILES = ["bzImage", "rootfs.json", "bios.bin", "vgabios-stdvga.bin", "state.bin.zst"];
const ROOTFS_FILE = /^rootfs\/[0-9a-f]{64}\.zst$/;

export function vmFiles(distDir: string): Plugin {
  return {
    name: "fslab-vm-files",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = req.url?.match(/^\/vm\/([\w./-]+?)(\?.*)?$/);
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
    },
  };
}
