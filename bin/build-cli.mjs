#!/usr/bin/env node
// Compiles the fslab command line (bin/commands/main.ts and what it imports from web/, bench/
// and kernel-image/) ahead of time with esbuild, so `fslab` starts without compiling
// TypeScript. Run by `npm ci`/`npm install` (the `prepare` script) and by bin/fslab.mjs
// itself whenever a source is newer than the build.
//
//   bin/dist/<build>/main.mjs     the entry; every command is a chunk beside it, loaded when run
//   bin/dist/current.json         which build is current, when it started, and its inputs
//
// npm packages stay outside the bundle (loaded from node_modules), so `fslab --help` loads
// neither v86 nor playwright-core. Each build goes to a folder of its own, then current.json
// is switched to it in one rename: two processes that rebuild at once, or a command still
// running the previous build, never read a half-written one.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));
export const DIST = join(REPO, "bin/dist");
export const CURRENT = join(DIST, "current.json");
const ENTRY = join(REPO, "bin/commands/main.ts");
const SELF = fileURLToPath(import.meta.url);
/**
 * Builds older than this are removed, but for the newest few: a command still running (`npm run
 * bench:vm` runs for tens of minutes) may yet load a chunk of the build it started from, but
 * not for hours.
 */
const KEEP_MS = 3600e3;
const KEEP_NEWEST = 3;

/** Page-only modules: a topic manifest's views and playgrounds (React, CSS, `?url`, workers). */
const PAGE_ONLY = /\.(tsx|css)$|\?/;

/**
 * esbuild plugin: the Node side of modules that are also the page's.
 * - `?raw` imports give a file's text, as Vite does for the page (tracked for staleness too).
 * - `import.meta.url` keeps meaning the source file's URL (node-load.ts finds wasm/build from
 *   it, node-vm.ts kernel-image/dist, node-index.ts the topic folders), written relative to the
 *   bundle so a moved checkout still works.
 * - A manifest's lazy `import("./PlayExfat")` of a page component becomes a module that throws
 *   if the CLI ever loads it; a glob import (node-index.ts's `./${id}/${module}`) takes only
 *   TypeScript modules that are not tests.
 */
/** the files imported with ?raw by the last build (esbuild's metafile names them by namespace) */
const rawInputs = new Set();

function nodeSide(outdir) {
  return {
    name: "fslab-node-side",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === "fslab-resolved" || args.kind === "entry-point") return undefined;
        if (!args.path.startsWith(".") && !args.path.startsWith("/")) return undefined; // packages: external
        if (args.path.endsWith("?raw")) {
          // a file's text, as Vite's ?raw gives it to the page (a code grader's C sources)
          const raw = join(args.resolveDir, args.path.slice(0, -4));
          rawInputs.add(relative(REPO, raw));
          return { path: raw, namespace: "fslab-raw" };
        }
        const r = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "fslab-resolved" });
        if (r.errors.length) return r;
        const p = r.path;
        if (PAGE_ONLY.test(p) || PAGE_ONLY.test(args.path)) return { path: p, namespace: "fslab-page-only" };
        if (args.kind === "dynamic-import" && !/\.(ts|mts|mjs|js)$/.test(p)) return { path: p, namespace: "fslab-page-only" };
        if (/\.test\.ts$/.test(p)) return { path: p, namespace: "fslab-page-only" };
        return r;
      });
      build.onLoad({ filter: /.*/, namespace: "fslab-raw" }, (args) => ({ contents: readFileSync(args.path, "utf8"), loader: "text" }));
      build.onLoad({ filter: /.*/, namespace: "fslab-page-only" }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`${relative(REPO, args.path)} belongs to the page; the command line does not load it`)});`,
        loader: "js",
      }));
      build.onLoad({ filter: /\.(ts|mts)$/ }, (args) => {
        const text = readFileSync(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        const rel = relative(outdir, args.path);
        return { contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: "ts" };
      });
    },
  };
}

/** Builds the CLI; returns the folder it wrote. Throws (with esbuild's messages) on an error. */
export async function buildCli({ quiet = false } = {}) {
  const { build } = await import("esbuild");
  const started = Date.now();
  mkdirSync(DIST, { recursive: true });
  const name = `build-${started}-${process.pid}`;
  const outdir = join(DIST, name);
  const result = await build({
    entryPoints: { main: ENTRY },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunk-[hash]",
    sourcemap: "linked",
    metafile: true,
    logLevel: quiet ? "error" : "warning",
    plugins: [nodeSide(outdir)],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes(":")) // the page-only stand-ins
    .map((p) => relative(REPO, join(REPO, p)));
  inputs.push(...rawInputs, relative(REPO, SELF));
  // a new file in a folder the build read (a new topic, a new CLI module) changes the folder
  const dirs = [...new Set(inputs.map((p) => dirname(p)))];
  const tmp = `${CURRENT}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ dir: name, started, inputs, dirs }, null, 1) + "\n");
  renameSync(tmp, CURRENT);
  const builds = readdirSync(DIST)
    .filter((d) => d.startsWith("build-"))
    .map((d) => ({ d, at: Number(d.split("-")[1]) }))
    .sort((a, b) => b.at - a.at);
  for (const { d, at } of builds.slice(KEEP_NEWEST)) if (d !== name && started - at > KEEP_MS) rmSync(join(DIST, d), { recursive: true, force: true });
  if (!quiet) console.error(`fslab: built the command line into ${relative(REPO, outdir)} in ${Date.now() - started} ms`);
  return outdir;
}

/**
 * The current build's entry, or null with the reason it must be rebuilt: none yet, or a
 * source (or a folder the build read) modified after the build started.
 */
export function currentCli() {
  let cur;
  try {
    cur = JSON.parse(readFileSync(CURRENT, "utf8"));
  } catch {
    return { entry: null, why: "bin/dist/ holds no build yet" };
  }
  const entry = join(DIST, cur.dir, "main.mjs");
  if (!existsSync(entry)) return { entry: null, why: `${relative(REPO, entry)} is missing` };
  for (const p of [...cur.inputs, ...cur.dirs]) {
    let m;
    try {
      m = statSync(join(REPO, p)).mtimeMs;
    } catch {
      return { entry: null, why: `${p}, which it was built from, is gone` };
    }
    if (m >= cur.started) return { entry: null, why: `${p} changed since it was built` };
  }
  return { entry: pathToFileURL(entry).href, why: null };
}

// node bin/build-cli.mjs [--if-stale]: build (with --if-stale, only when a source is newer)
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    if (process.argv[2] === "--if-stale" && !currentCli().why) process.exit(0);
    await buildCli();
  } catch (e) {
    // esbuild has printed the errors with their file:line
    console.error(`fslab: the command line did not build: ${e instanceof Error ? e.message.split("\n")[0] : e}`);
    process.exit(1);
  }
}
