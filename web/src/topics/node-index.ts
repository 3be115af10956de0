// The topic manifests for Node (the CLI, compiled by esbuild or run by tsx, has no import.meta.glob): the same
// files topics/index.ts finds, read from the folder.
import { topicsWith } from "./folders";
import type { CliCommand, CliSpec, InspectPrinterSpec, TopicManifest } from "../shared/topic";
import type { InspectedReport } from "../shared/inspect/inspect";
import type { VmBenchScenario } from "../shared/vm-bench";

export async function loadTopics(): Promise<TopicManifest[]> {
  return Promise.all(topicsWith().map(async (id) => (await import(`./${id}/topic.ts`)).default as TopicManifest));
}

/**
 * a topic's Node module beside topic.ts (its name ends in cli.ts), imported by a pattern the
 * compiled CLI (bin/build-cli.mjs, esbuild) can follow: it bundles every *cli.ts of the topic
 * folders, and nothing else there (no view, no test, no trace)
 */
async function cliModule(topic: TopicManifest, module: string): Promise<Record<string, unknown>> {
  const m = /^([\w-]*)cli\.ts$/.exec(module);
  if (!m) throw new Error(`web/src/topics/${topic.id}/topic.ts: a CLI module is a file beside topic.ts whose name ends in cli.ts, not "${module}"`);
  return (await import(`./${topic.id}/${m[1]}cli.ts`)) as Record<string, unknown>;
}

/** What `fslab inspect` does with a report of one format: its topic's inspect-cli module. */
export interface InspectPrinter {
  /** the report as text, on stdout */
  printReport(report: InspectedReport): void;
  /** what the report says is damaged, one phrase each (empty: clean as far as it reads) */
  damageOf(report: InspectedReport): string[];
}

/** the printer of `fslab inspect` for reports of `fs`: the topic whose manifest declares it */
export async function loadInspectPrinter(topics: TopicManifest[], fs: string): Promise<InspectPrinter> {
  const topic = topics.find((t) => t.inspect?.fs === fs);
  if (!topic) throw new Error(`no topic prints a ${fs} report: a manifest's inspect: { fs: "${fs}", module } is missing`);
  const spec = topic.inspect as InspectPrinterSpec;
  const mod = await cliModule(topic, spec.module);
  for (const f of ["printReport", "damageOf"])
    if (typeof mod[f] !== "function") throw new Error(`web/src/topics/${topic.id}/${spec.module} exports no ${f}`);
  return mod as unknown as InspectPrinter;
}

/** a topic's `fslab bench-vm` scenarios, from the module its manifest's vmBench names */
export async function loadVmBench(topic: TopicManifest): Promise<Record<string, VmBenchScenario>> {
  const spec = topic.vmBench;
  if (!spec) return {};
  const scenarios = (await cliModule(topic, spec.module)).vmBench;
  if (!scenarios || typeof scenarios !== "object") throw new Error(`web/src/topics/${topic.id}/${spec.module} exports no vmBench`);
  return scenarios as Record<string, VmBenchScenario>;
}

/** a topic's CLI command, from the module its manifest names */
export async function loadCli(topic: TopicManifest, spec: CliSpec): Promise<CliCommand> {
  const mod = (await cliModule(topic, spec.module)) as { cli?: Record<string, CliCommand> };
  const command = mod.cli?.[spec.name];
  if (!command) throw new Error(`web/src/topics/${topic.id}/${spec.module} has no command "${spec.name}" in its exported cli`);
  return command;
}
