// fslab readme [--check]: rewrite the generated sections of docs/ (the views a lab may name,
// the playgrounds, what can be embedded, with their parameters: web/src/topics/readme.ts says
// which file holds which) from the topic manifests, or (--check) exit 1 if they differ.
import { readFileSync, writeFileSync } from "node:fs";
import { loadTopics } from "../../web/src/topics/node-index";
import { GENERATED_IN, generatedSections, rewriteReadme } from "../../web/src/topics/readme";

export async function readmeCommand(args: string[]): Promise<number> {
  const bad = args.filter((a) => a !== "--check");
  if (bad.length) {
    console.error(`fslab readme: unknown argument ${bad[0]}\nusage: fslab readme [--check]`);
    return 2;
  }
  const sections = generatedSections(await loadTopics());
  let stale = 0;
  for (const [file, names] of Object.entries(GENERATED_IN)) {
    const text = readFileSync(file, "utf8");
    const next = rewriteReadme(text, sections, names, file);
    if (next === text) {
      if (!args.includes("--check")) console.log(`${file} is up to date`);
      continue;
    }
    stale++;
    if (args.includes("--check")) console.error(`fslab readme: ${file}'s generated sections differ from the topic manifests: run \`npx fslab readme\``);
    else {
      writeFileSync(file, next);
      console.log(`${file} rewritten`);
    }
  }
  return args.includes("--check") && stale ? 1 : 0;
}
