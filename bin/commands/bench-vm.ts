// fslab bench-vm (npm run bench:vm): the published experiments behind each lab, run by `fslab-bench` in the
// guest (restored from the saved state), printed as tables beside the published numbers. The
// scenarios are the topics': each manifest's vmBench names its module (topics/<t>/bench-vm-cli.ts).
// v86 is an emulator on one CPU: compare shapes and ratios, not absolute times.
import { NodeVm } from "../../web/src/vm/node/node-vm";
import { UsageError } from "../../web/src/shared/cli-args";
import type { VmBenchScenario } from "../../web/src/shared/vm-bench";
import { loadTopics, loadVmBench } from "../../web/src/topics/node-index";

/** every topic's scenarios, in the topics' order (a name twice is an error naming both topics) */
export async function vmBenchScenarios(): Promise<Map<string, VmBenchScenario>> {
  const out = new Map<string, VmBenchScenario>();
  const from = new Map<string, string>();
  for (const topic of await loadTopics()) {
    if (!topic.vmBench) continue;
    for (const [name, run] of Object.entries(await loadVmBench(topic))) {
      if (out.has(name)) throw new Error(`fslab bench-vm: scenario ${name} is both ${from.get(name)}'s and ${topic.id}'s`);
      out.set(name, run);
      from.set(name, topic.id);
    }
  }
  return out;
}

export async function benchVm(args: string[]): Promise<number> {
  const scenarios = await vmBenchScenarios();
  // refused before the guest boots: a misspelt scenario would otherwise boot it, run nothing
  // and exit 0
  const bad = args.find((a) => !scenarios.has(a));
  if (bad !== undefined)
    throw new UsageError(`${bad.startsWith("-") ? "unknown option" : "no scenario"} ${JSON.stringify(bad)} (${[...scenarios.keys()].join(", ")})`);
  const only = new Set(args);
  const want = (s: string) => only.size === 0 || only.has(s);
  const vm = new NodeVm();
  await vm.boot();
  try {
    for (const [name, run] of scenarios) if (want(name)) await run(vm);
  } finally {
    await vm.destroy();
  }
  return 0;
}
