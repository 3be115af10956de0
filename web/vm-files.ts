// The guest's files (kernel-image/dist/) reach the page as plain static files under vm/,
// outside Vite's module pipeline: a kernel without an extension must not be taken for a
// module, and an initramfs.cpio.gz must not be sent with Content-Encoding: gzip.
//   dev:   GET /vm/<name> streams kernel-image/dist/<name>
//   build: each file is emitted to web/dist/vm/<name>
import { createReadStream, readFileSync, statSync } from "node:fs";
import type { Plugin } from "vite";

export const VM_FILES = ["bzImage", "initramfs.cpio.gz", "bios.bin", "vgabios-stdvga.bin", "state.bin.zst"];

export function vmFiles(distDir: string): Plugin {
  return {
    name: "fslab-vm-files",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = req.url?.match(/^\/vm\/([\w.-]+)(\?.*)?$/);
        if (!m || !VM_FILES.includes(m[1])) return next();
        const file = distDir + m[1];
        res.setHeader("Content-Type", "application/octet-stream");
        res.setHeader("Content-Length", String(statSync(file).size));
        createReadStream(file).pipe(res);
      });
    },
    generateBundle() {
      for (const name of VM_FILES) this.emitFile({ type: "asset", fileName: `vm/${name}`, source: readFileSync(distDir + name) });
    },
  };
}
