#!/usr/bin/env node
// fslab's command line: bin/commands/main.ts and the page's own TypeScript (the cores' API,
// the guest host), compiled ahead of time by bin/build-cli.mjs into bin/dist/, so the CLI, the
// page and the tests share one implementation and `fslab` starts without compiling anything.
// A source newer than the build is rebuilt first (about a second): never stale code.
import { buildCli, currentCli } from "./build-cli.mjs";

let { entry, why } = currentCli();
if (!entry) {
  let esbuild = true;
  try {
    await import("esbuild");
  } catch {
    esbuild = false;
  }
  if (!esbuild) {
    console.error(`fslab: the command line needs compiling (${why}), and esbuild (an npm dev dependency) is not installed to rebuild it: run \`npm ci\` (or \`npm install\`) in the fslab checkout`);
    process.exit(1);
  }
  try {
    entry = (await import("node:url")).pathToFileURL(`${await buildCli({ quiet: true })}/main.mjs`).href;
  } catch (e) {
    console.error(`fslab: the command line (${why}) did not build: ${e instanceof Error ? e.message.split("\n")[0] : e}`);
    process.exit(1);
  }
}
process.setSourceMapsEnabled(true); // stack traces name the .ts sources
await import(entry);
