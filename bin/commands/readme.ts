// fslab readme [--check]: rewrite the README's generated sections (views, playgrounds) from the
// topic manifests, or (--check) exit 1 if they differ.
import { readFileSync, writeFileSync } from "node:fs";
import { loadTopics } from "../../web/src/topics/node-index";
import { generatedSections, rewriteReadme } from "../../web/src/topics/readme";

export async function readmeCommand(args: string[]): Promise<number> {
  const bad = args.filter((a) => a !== "--check");
  if (bad.length) {
    console.error(`fslab readme: unknown argument ${bad[0]}\nusage: fslab readme [--check]`);
    return 2;
  }
  const file = "README.md";
  const readme = readFileSync(file, "utf8");
  const next = rewriteReadme(readme, generatedSections(await loadTopics()));
  if (args.includes("--check")) {
    if (next === readme) return 0;
    console.error("fslab readme: README.md's generated sections differ from the topic manifests: run `npx fslab readme`");
    return 1;
  }
  if (next !== readme) writeFileSync(file, next);
  console.log(next === readme ? "README.md is up to date" : "README.md rewritten");
  return 0;
}
