// The labs reach the page as plain files under labs/, read at run time (src/labs/registry.ts):
//   dev:   GET /labs/index.json is made from the folders of labs/; GET /labs/<id>/<file> streams it
//   build: labs/index.json and every file of every lab folder are emitted to web/dist/labs/,
//          then `fslab labs index` writes index.json again with the home page's cards
//          (labs/course-cards.ts), made by the same command an instructor runs
// so a hosted site takes a new lab without a rebuild: copy the folder, run `fslab labs index`.
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { labIndex, LAB_ID } from "./src/labs/lab-index.ts";

const TYPES: Record<string, string> = { md: "text/markdown; charset=utf-8", json: "application/json", png: "image/png", svg: "image/svg+xml", jpg: "image/jpeg", webp: "image/webp" };

export function labFolders(dir: string): string[] {
  return readdirSync(dir).filter((d) => LAB_ID.test(d) && existsSync(join(dir, d, "lab.md")));
}

export function labsFiles(dir: string): Plugin {
  return {
    name: "fslab-labs-files",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = req.url?.split("?")[0] ?? "";
        if (url === "/labs/index.json") {
          res.setHeader("Content-Type", "application/json");
          res.setHeader("Cache-Control", "no-cache");
          return res.end(JSON.stringify(labIndex(labFolders(dir))));
        }
        // a lab's own files, and those it ships to the guest (files/, in sub-folders too)
        const m = url.match(/^\/labs\/([a-z0-9][a-z0-9-]*)\/([\w.-]+|files\/[\w.-]+(?:\/[\w.-]+)*)$/);
        const file = m && !m[2].split("/").some((p) => p === "." || p === "..") && join(dir, m[1], m[2]);
        if (!file || !existsSync(file) || !statSync(file).isFile()) return next();
        res.setHeader("Content-Type", TYPES[file.split(".").pop()!] ?? "application/octet-stream");
        res.setHeader("Cache-Control", "no-cache");
        createReadStream(file).pipe(res);
      });
    },
    generateBundle() {
      const ids = labFolders(dir);
      this.emitFile({ type: "asset", fileName: "labs/index.json", source: JSON.stringify(labIndex(ids), null, 2) + "\n" });
      const emit = (id: string, rel: string) => {
        for (const f of readdirSync(join(dir, id, rel))) {
          const path = rel ? `${rel}/${f}` : f;
          const st = statSync(join(dir, id, path));
          if (st.isFile()) this.emitFile({ type: "asset", fileName: `labs/${id}/${path}`, source: readFileSync(join(dir, id, path)) });
          // files/ and its folders: what a lab ships to the guest (src/labs/lab-files.ts)
          else if (st.isDirectory() && (rel || f === "files")) emit(id, path);
        }
      };
      for (const id of ids) emit(id, "");
    },
    writeBundle(options) {
      // the cards: the CLI parses each lab as the page would (exit 1: a lab with errors, whose
      // card then holds them); without them every visit to the home page would parse the labs
      const labs = join(options.dir!, "labs");
      const cli = fileURLToPath(new URL("../bin/fslab.mjs", import.meta.url));
      const r = spawnSync(process.execPath, [cli, "labs", "index", labs], { encoding: "utf8" });
      const index = JSON.parse(readFileSync(join(labs, "index.json"), "utf8"));
      if ((r.status !== 0 && r.status !== 1) || !index.cards)
        throw new Error(`fslab labs index ${labs} did not write the course's cards (exit ${r.status}): ${(r.stderr || r.error?.message || "").trim()}`);
    },
  };
}
