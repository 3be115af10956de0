// `fslab bench`'s parts are the modules of bench/parts/: a new part is a file there, named as
// `fslab bench <name>` names it, and no list elsewhere. Reading the names loads no part (the
// usage lists them); loading a part loads what it measures with (playwright, v86, a wasm core).
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BenchPart } from "./report";

const DIR = fileURLToPath(new URL("./parts/", import.meta.url));

/** the parts' names: the TypeScript modules of `dir` (bench/parts/) but tests, sorted */
export function partNames(dir = DIR): string[] {
  return readdirSync(dir)
    .filter((f) => /^[\w-]+\.ts$/.test(f) && !f.endsWith(".test.ts"))
    .map((f) => f.slice(0, -".ts".length))
    .sort();
}

/** one part, from bench/parts/<name>.ts (a pattern the compiled CLI's esbuild follows) */
export async function loadPart(name: string): Promise<BenchPart & { name: string }> {
  if (!/^[\w-]+$/.test(name)) throw new Error(`no bench part "${name}"`);
  const { part } = (await import(`./parts/${name}.ts`)) as { part?: BenchPart };
  if (!part || typeof part.run !== "function") throw new Error(`bench/parts/${name}.ts exports no part ({ order, summary, run })`);
  return { ...part, name };
}

/** every part, in the order `fslab bench` runs them */
export async function loadParts(names = partNames()): Promise<Array<BenchPart & { name: string }>> {
  const parts = await Promise.all(names.map(loadPart));
  return parts.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}
