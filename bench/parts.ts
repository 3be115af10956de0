// `fslab bench`'s parts, found, never listed: the modules of bench/parts/ (what measures the
// site, the VM, the CLI) and each topic's bench.ts (web/src/topics/<t>/bench.ts: what measures
// its core or its device, the part named after the topic). A new part is a file in one of them.
// Reading the names loads no part (the usage lists them); loading a part loads what it
// measures with (playwright, v86, a wasm core).
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BenchPart } from "./report";
import { topicsWith } from "../web/src/topics/folders";

const DIR = fileURLToPath(new URL("./parts/", import.meta.url));

/** the parts' names: the TypeScript modules of `dir` (bench/parts/) but tests, and the topics with a bench.ts, sorted */
export function partNames(dir = DIR, topics = topicsWith("bench.ts")): string[] {
  const own = readdirSync(dir)
    .filter((f) => /^[\w-]+\.ts$/.test(f) && !f.endsWith(".test.ts"))
    .map((f) => f.slice(0, -".ts".length));
  const both = own.filter((p) => topics.includes(p));
  if (both.length) throw new Error(`bench/parts/${both[0]}.ts and web/src/topics/${both[0]}/bench.ts are both the part "${both[0]}": rename one`);
  return [...own, ...topics].sort();
}

/** one part, from bench/parts/<name>.ts or web/src/topics/<name>/bench.ts (patterns the compiled CLI's esbuild follows) */
export async function loadPart(name: string): Promise<BenchPart & { name: string }> {
  if (!/^[\w-]+$/.test(name)) throw new Error(`no bench part "${name}"`);
  const own = existsSync(`${DIR}${name}.ts`);
  const where = own ? `bench/parts/${name}.ts` : `web/src/topics/${name}/bench.ts`;
  const { part } = (own ? await import(`./parts/${name}.ts`) : await import(`../web/src/topics/${name}/bench.ts`)) as { part?: BenchPart };
  if (!part || typeof part.run !== "function") throw new Error(`${where} exports no part ({ order, summary, run })`);
  return { ...part, name };
}

/** every part, in the order `fslab bench` runs them */
export async function loadParts(names = partNames()): Promise<Array<BenchPart & { name: string }>> {
  const parts = await Promise.all(names.map(loadPart));
  return parts.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}
