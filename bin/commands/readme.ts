// fslab readme [--check]: rewrite the generated sections of docs/ (the labs in labs/, the views
// a lab may name, the playgrounds, what can be embedded, with their parameters:
// readme-sections.ts says which file holds which) from the labs and the topic manifests, and
// the sources gathered from the topic folders (topic-lists.ts), or (--check) exit 1 if they differ.
import { readFileSync, writeFileSync } from "node:fs";
import { loadTopics } from "../../web/src/topics/node-index";
import { GENERATED_IN, generatedSections, rewriteReadme } from "./readme-sections";
import { findLabs, readLab, viewIds } from "./labs";
import { generatedSources } from "./topic-lists";
import type { Lab } from "../../web/src/labs/lab-format";

export async function readmeCommand(args: string[]): Promise<number> {
  const bad = args.filter((a) => a !== "--check");
  if (bad.length) {
    console.error(`fslab readme: unknown argument ${bad[0]}\nusage: fslab readme [--check]`);
    return 2;
  }
  // the labs as the page reads them: a lab with errors is no lab to list
  const found = findLabs("labs");
  if ("error" in found) {
    console.error(`fslab readme: ${found.error}`);
    return 1;
  }
  const views = await viewIds();
  const labs: Array<{ lab: Lab }> = [];
  for (const l of found.labs) {
    const r = readLab(l, views);
    if (r.errors) {
      for (const line of r.errors) console.error(line);
      console.error("fslab readme: docs/labs.md lists the labs: fix them first (npx fslab labs check)");
      return 1;
    }
    labs.push({ lab: r.lab });
  }
  const sections = generatedSections(await loadTopics(), labs);
  let stale = 0;
  for (const [file, names] of Object.entries(GENERATED_IN)) {
    const text = readFileSync(file, "utf8");
    const next = rewriteReadme(text, sections, names, file);
    if (next === text) {
      if (!args.includes("--check")) console.log(`${file} is up to date`);
      continue;
    }
    stale++;
    if (args.includes("--check")) console.error(`fslab readme: ${file}'s generated sections differ from the labs and the topic manifests: run \`npx fslab readme\``);
    else {
      writeFileSync(file, next);
      console.log(`${file} rewritten`);
    }
  }
  for (const [file, next] of Object.entries(generatedSources())) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      // not there yet: a first topic of its kind
    }
    if (next === text) {
      if (!args.includes("--check")) console.log(`${file} is up to date`);
      continue;
    }
    stale++;
    if (args.includes("--check")) console.error(`fslab readme: ${file} differs from what the topic folders make of it: run \`npx fslab readme\``);
    else {
      writeFileSync(file, next);
      console.log(`${file} rewritten`);
    }
  }
  return args.includes("--check") && stale ? 1 : 0;
}
