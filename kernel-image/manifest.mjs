#!/usr/bin/env node
// dist/manifest.json ties the committed guest artifacts to the tree that built them:
// the Debian package versions, the sha256 of every input (config, patches, rootfs recipe,
// build script) and of every output in dist/. `check` is what the tests run: an input
// edited without `npm run kernel` (or an artifact replaced by hand) fails it.
//
//   node kernel-image/manifest.mjs write --kernel-release R --kernel-source-version V --packages LOCK
//   node kernel-image/manifest.mjs check
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync, writeFileSync, existsSync } from "node:fs";
import { join, relative, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { rootfsStoredNames } from "./rootfs/chunks.mjs";

export const KERNEL_IMAGE_DIR = dirname(fileURLToPath(import.meta.url));
const DIST = join(KERNEL_IMAGE_DIR, "dist");
export const MANIFEST_PATH = join(DIST, "manifest.json");

// What goes into the guest. Paths are relative to kernel-image/: ours, and each topic's guest/
// folder (its files in the root filesystem: build-rootfs.sh copies them).
const TOPICS = join(KERNEL_IMAGE_DIR, "../web/src/topics");
const INPUT_ROOTS = [
  "build.sh",
  "config",
  "patches",
  "rootfs",
  ...readdirSync(TOPICS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(TOPICS, d.name, "guest")))
    .map((d) => `../web/src/topics/${d.name}/guest`)
    .sort(),
];
// What dist/ must hold; the saved state is added by build.sh when it exists. rootfs/ is the
// root filesystem's files (rootfs/fs2json.mjs), one hash for the directory.
export const OUTPUTS = ["bzImage", "rootfs.json", "rootfs/", "bios.bin", "vgabios-stdvga.bin"];

const sha256 = (path) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** A directory as one output: its files' names and hashes, hashed in name order. */
function hashDir(dir) {
  const names = readdirSync(dir).sort();
  const list = names.map((n) => `${n} ${sha256(join(dir, n))}\n`).join("");
  return { files: names.length, bytes: names.reduce((n, f) => n + statSync(join(dir, f)).size, 0), sha256: createHash("sha256").update(list).digest("hex") };
}

/** The files rootfs.json names that rootfs/ lacks, and the files there it does not name. */
export function rootfsProblems(dist = DIST) {
  const listed = new Set();
  const walk = (entries) => {
    for (const [, size, , mode, , , x] of entries) {
      if ((mode & 0o170000) === 0o040000) walk(x);
      else if ((mode & 0o170000) === 0o100000) for (const stored of rootfsStoredNames(x, size)) listed.add(stored);
    }
  };
  walk(JSON.parse(readFileSync(join(dist, "rootfs.json"), "utf8")).fsroot);
  const present = new Set(readdirSync(join(dist, "rootfs")));
  return [
    ...[...listed].filter((f) => !present.has(f)).map((f) => `dist/rootfs.json names rootfs/${f}, which is missing`),
    ...[...present].filter((f) => !listed.has(f)).map((f) => `dist/rootfs/${f} is not in rootfs.json`),
  ];
}

function walk(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => walk(join(path, name)));
}

export function hashInputs() {
  const out = {};
  for (const root of INPUT_ROOTS) {
    for (const file of walk(join(KERNEL_IMAGE_DIR, root))) {
      out[relative(KERNEL_IMAGE_DIR, file)] = sha256(file);
    }
  }
  return out;
}

export function hashOutputs(names) {
  const out = {};
  for (const name of names) {
    const file = join(DIST, name);
    out[name] = name.endsWith("/") ? hashDir(file) : { bytes: statSync(file).size, sha256: sha256(file) };
  }
  return out;
}

export function readManifest() {
  if (!existsSync(MANIFEST_PATH)) throw new Error(`${MANIFEST_PATH} is missing: run npm run kernel`);
  return JSON.parse(readFileSync(MANIFEST_PATH, "utf8"));
}

/** Every difference between the manifest and the tree, as readable lines; empty when they agree. */
export function checkManifest(manifest = readManifest()) {
  const problems = [];
  const now = hashInputs();
  for (const [file, hash] of Object.entries(now)) {
    if (!(file in manifest.inputs)) problems.push(`input ${file} is new since dist/ was built`);
    else if (manifest.inputs[file] !== hash) problems.push(`input ${file} changed since dist/ was built`);
  }
  for (const file of Object.keys(manifest.inputs)) {
    if (!(file in now)) problems.push(`input ${file} was removed since dist/ was built`);
  }
  for (const [name, want] of Object.entries(manifest.outputs)) {
    const file = join(DIST, name);
    if (!existsSync(file)) { problems.push(`output dist/${name} is missing`); continue; }
    if ((name.endsWith("/") ? hashDir(file).sha256 : sha256(file)) !== want.sha256) problems.push(`output dist/${name} does not match its manifest hash`);
  }
  if (existsSync(join(DIST, "rootfs.json")) && existsSync(join(DIST, "rootfs"))) problems.push(...rootfsProblems());
  return problems;
}

function debVersion(pkg) {
  try {
    return execFileSync("dpkg-query", ["-W", "-f=${Version}", pkg], { encoding: "utf8" });
  } catch {
    return "unknown";
  }
}

function write(args) {
  const opt = (name) => {
    const i = args.indexOf(`--${name}`);
    if (i < 0 || !args[i + 1]) throw new Error(`missing --${name}`);
    return args[i + 1];
  };
  let packages = {};
  if (existsSync(opt("packages"))) {
    for (const line of readFileSync(opt("packages"), "utf8").split("\n")) {
      const [name, version] = line.trim().split(/\s+/);
      if (name) packages[name] = version;
    }
  } else {
    // the rootfs was not built on this machine (a kernel-only rebuild): its packages are the
    // ones the manifest lists, as long as the root filesystem is still the one listed with them
    const old = JSON.parse(readFileSync(MANIFEST_PATH, "utf8"));
    if (old.outputs?.["rootfs.json"]?.sha256 !== sha256(join(DIST, "rootfs.json")))
      throw new Error(`${opt("packages")} is missing and dist/rootfs.json is not the one the manifest lists: build the rootfs here (build.sh rootfs)`);
    packages = old.packages;
  }
  const hasState = existsSync(join(DIST, "state.bin.xz"));
  const outputs = OUTPUTS.concat(hasState ? ["state.bin.xz", "state.json"] : []);
  const manifest = {
    comment: "Written by kernel-image/build.sh; checked by the tests. Do not edit by hand.",
    kernel: {
      source_package: "linux-source-7.2",
      source_version: opt("kernel-source-version"),
      release: opt("kernel-release"),
      arch: "i386",
    },
    bios: { package: "seabios", version: debVersion("seabios") },
    rootfs_suite: "bookworm i386",
    packages,
    // what a saved state must match to be restored (web/src/vm/machine/guest.ts stateMismatch)
    state: hasState ? JSON.parse(readFileSync(join(DIST, "state.json"), "utf8")) : undefined,
    inputs: hashInputs(),
    outputs: hashOutputs(outputs),
  };
  writeFileSync(MANIFEST_PATH, JSON.stringify(manifest, null, 2) + "\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === "write") write(rest);
  else if (cmd === "check") {
    const problems = checkManifest();
    for (const p of problems) console.error(`manifest: ${p}`);
    if (problems.length) {
      console.error("kernel-image/dist/ is out of date with its inputs: run `npm run kernel` and commit dist/.");
      process.exit(1);
    }
    console.log("kernel-image/dist/ matches its manifest");
  } else {
    console.error("usage: manifest.mjs write|check");
    process.exit(2);
  }
}
