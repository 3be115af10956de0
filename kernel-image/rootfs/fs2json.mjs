#!/usr/bin/env node
// The guest's root filesystem as v86 serves it over virtio-9p, fetched a file at a time:
//
//   ROOT/ --lstat, sha256 of every regular file--> OUT/rootfs.json   (v86's "basefs", version 3)
//         --each file's bytes, zstd -19-->          OUT/rootfs/<sha256>.zst
//         --a file over 128 KiB in pieces-->        OUT/rootfs/<sha256>-<i>.zst
//
// v86 reads the tree from rootfs.json on a cold boot (a saved state carries it instead) and
// fetches a file's bytes from OUT/rootfs/ the first time the guest reads it, so a tool costs
// its download only when a learner first runs it; a large file is fetched by its pieces
// (chunks.mjs). Files are named by their content: a changed file gets a new name, and any
// HTTP cache stays right without a version query.
//
// Usage: node fs2json.mjs ROOT OUT   (called by build-rootfs.sh)
// Entry layout (v86 src/lib/filesystem.js load_from_json): [name, size, mtime, mode, uid, gid, x]
// where x is the children (directory), the file name under rootfs/ (file) or the target (link).
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { rootfsStoredNames, ROOTFS_CHUNK } from "./chunks.mjs";

const [root, out] = process.argv.slice(2);
if (!root || !out) {
  console.error("usage: fs2json.mjs ROOT OUT");
  process.exit(2);
}
const files = join(out, "rootfs");
rmSync(files, { recursive: true, force: true });
mkdirSync(files, { recursive: true });

const S_IFMT = 0o170000, S_IFDIR = 0o040000, S_IFREG = 0o100000, S_IFLNK = 0o120000;
let total = 0;
const contents = new Set(); // sha256 of every file written
const raw = []; // names written uncompressed, compressed below in one zstd run

function entry(path, name) {
  const st = lstatSync(path);
  // uid and gid 0: the guest runs as root and the build's own ownership means nothing there
  const head = [name, st.size, 0, st.mode, 0, 0];
  switch (st.mode & S_IFMT) {
    case S_IFDIR:
      return [...head, readdirSync(path).sort().map((child) => entry(join(path, child), child))];
    case S_IFLNK:
      return [...head, readlinkSync(path)];
    case S_IFREG: {
      const bytes = readFileSync(path);
      const sha = createHash("sha256").update(bytes).digest("hex");
      if (!contents.has(sha)) {
        contents.add(sha);
        rootfsStoredNames(`${sha}.zst`, bytes.length).forEach((stored, i, all) => {
          const name = stored.slice(0, -".zst".length);
          writeFileSync(join(files, name), all.length > 1 ? bytes.subarray(i * ROOTFS_CHUNK, (i + 1) * ROOTFS_CHUNK) : bytes);
          raw.push(name);
        });
      }
      total += st.size;
      return [...head, `${sha}.zst`];
    }
    default:
      // device nodes come from devtmpfs in the guest; nothing else belongs in the image
      throw new Error(`${path}: not a directory, file or symbolic link`);
  }
}

const fsroot = readdirSync(root).sort().map((name) => entry(join(root, name), name));
writeFileSync(join(out, "rootfs.json"), JSON.stringify({ fsroot, version: 3, size: total }));
// zstd names each output <input>.zst and removes the input
const names = raw.map((name) => join(files, name));
for (let i = 0; i < names.length; i += 200) execFileSync("zstd", ["-19", "-q", "--rm", "-f", ...names.slice(i, i + 200)]);
const missing = raw.filter((name) => !existsSync(join(files, `${name}.zst`)));
if (missing.length) throw new Error(`zstd left ${missing.length} files uncompressed`);
const stored = readdirSync(files).reduce((n, f) => n + lstatSync(join(files, f)).size, 0);
console.log(`rootfs.json: ${contents.size} files in ${raw.length} pieces, ${(total / 2 ** 20).toFixed(1)} MiB, ${(stored / 2 ** 20).toFixed(1)} MiB as zstd`);
