// The topic folders, found one way by every tool that runs in Node (the CLI, the test configs,
// the scripts that make images or write the generated lists): a folder of web/src/topics/ with
// a topic.ts. The page finds the same folders with import.meta.glob (index.ts).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** web/src/topics/ of this checkout, as a path ending in "/" */
export const TOPICS_DIR = fileURLToPath(new URL(".", import.meta.url));

/** the ids of the topic folders under `dir` that hold `file` (topic.ts: every topic), sorted */
export function topicsWith(file = "topic.ts", dir = TOPICS_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "topic.ts")) && existsSync(join(dir, d.name, file)))
    .map((d) => d.name)
    .sort();
}

/** the files of each topic folder under `dir` whose names end in `suffix`, as "<id>/<file>", sorted */
export function topicFiles(suffix: string, dir = TOPICS_DIR): string[] {
  return topicsWith("topic.ts", dir)
    .flatMap((id) => readdirSync(join(dir, id)).filter((f) => f.endsWith(suffix)).map((f) => `${id}/${f}`))
    .sort();
}
