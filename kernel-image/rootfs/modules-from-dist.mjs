#!/usr/bin/env node
// A rootfs-only rebuild in a fresh work dir (no kernel built there): the kernel's modules tree
// as the committed dist/ holds it (rootfs.json and its stored pieces), written to OUT, so the
// root filesystem can be rebuilt around the unchanged bzImage without building the kernel.
//
//   node kernel-image/rootfs/modules-from-dist.mjs DIST RELEASE OUT
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rootfsStoredNames } from "./chunks.mjs";

const [dist, release, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: modules-from-dist.mjs DIST RELEASE OUT");
  process.exit(2);
}
const { fsroot } = JSON.parse(readFileSync(join(dist, "rootfs.json"), "utf8"));
const at = (entries, path) => {
  const e = entries.find((x) => x[0] === path[0]);
  if (!e) throw new Error(`${dist}/rootfs.json has no /usr/lib/modules/${release}`);
  return path.length === 1 ? e : at(e[6], path.slice(1));
};
let files = 0;
// rootfs.json entries: [name, size, mtime, mode, uid, gid, children | content name | link target]
function write(entry, dir) {
  const [name, size, , mode, , , x] = entry;
  const path = join(dir, name);
  const type = mode & 0o170000;
  if (type === 0o040000) {
    mkdirSync(path, { recursive: true });
    for (const child of x) write(child, path);
  } else if (type === 0o120000) symlinkSync(x, path);
  else if (type === 0o100000) {
    const parts = rootfsStoredNames(x, size).map((n) => execFileSync("zstd", ["-dcq", join(dist, "rootfs", n)]));
    writeFileSync(path, Buffer.concat(parts), { mode: mode & 0o7777 });
    files++;
  }
}
mkdirSync(out, { recursive: true });
for (const child of at(fsroot, ["usr", "lib", "modules", release])[6]) write(child, out);
console.log(`modules-from-dist: ${files} files of /usr/lib/modules/${release} from ${dist}`);
