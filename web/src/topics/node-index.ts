// The topic manifests for Node (the CLI under tsx, which has no import.meta.glob): the same
// files topics/index.ts finds, read from the folder.
import { readdirSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CliCommand, CliSpec, TopicManifest } from "../shared/topic";

const DIR = fileURLToPath(new URL(".", import.meta.url));

export async function loadTopics(): Promise<TopicManifest[]> {
  const ids = readdirSync(DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`${DIR}${d.name}/topic.ts`))
    .map((d) => d.name)
    .sort();
  return Promise.all(ids.map(async (id) => (await import(`./${id}/topic.ts`)).default as TopicManifest));
}

/** a topic's CLI command, from the module its manifest names */
export async function loadCli(topic: TopicManifest, spec: CliSpec): Promise<CliCommand> {
  const mod = (await import(`./${topic.id}/${spec.module}`)) as { cli?: Record<string, CliCommand> };
  const command = mod.cli?.[spec.name];
  if (!command) throw new Error(`web/src/topics/${topic.id}/${spec.module} has no command "${spec.name}" in its exported cli`);
  return command;
}
