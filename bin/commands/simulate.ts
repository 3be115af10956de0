// fslab simulate <name> [options] [--json]: run a model scenario and print its summary (with
// --json, the summary and every request). Each name is a command a topic manifest declares
// (web/src/topics/<id>/topic.ts, `cli`), implemented in that topic's own CLI module with the
// same wasm build as the page.
import { loadTopics, loadCli } from "../../web/src/topics/node-index";
import { UsageError, isUsageError } from "../../web/src/shared/cli-args";

/** the usage lines of every simulate command, from the manifests */
export async function simulateUsageLines(): Promise<string[]> {
  const specs = (await loadTopics()).flatMap((t) => t.cli);
  return specs.map((c) => `  ${`fslab simulate ${c.name} ${c.synopsis}`.padEnd(46)}${c.summary}`);
}

/** `fslab simulate <name> --help`: that command's options */
export async function simulateHelp(name: string): Promise<string> {
  const specs = (await loadTopics()).flatMap((t) => t.cli.map((c) => ({ topic: t, spec: c })));
  const found = specs.find((s) => s.spec.name === name);
  if (!found) throw new UsageError(`no model for "${name}" (${specs.map((s) => s.spec.name).join(", ")})`);
  return (await loadCli(found.topic, found.spec)).usage;
}

export async function simulateCommand(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  const topics = await loadTopics();
  const specs = topics.flatMap((t) => t.cli.map((c) => ({ topic: t, spec: c })));
  const found = specs.find((s) => s.spec.name === name);
  if (!found) {
    const all = await Promise.all(specs.map(async (s) => (await loadCli(s.topic, s.spec)).usage));
    const usage = all.join("\n");
    if (!name) {
      console.log(usage); // the options of each command: asked for, not an error
      return 0;
    }
    throw new UsageError(`no model for "${name}" (${specs.map((s) => s.spec.name).join(", ")})`, usage);
  }
  const command = await loadCli(found.topic, found.spec);
  try {
    return await command.run(rest);
  } catch (e) {
    if (isUsageError(e) && !(e instanceof UsageError && e.usage)) throw new UsageError(e.message, command.usage);
    throw e;
  }
}
