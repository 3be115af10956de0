// What `fslab bench`'s parts (bench/parts/<name>.ts, web/src/topics/<t>/bench.ts) are, and the helpers they print with.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { NativeBench } from "./native";
import type { CoreModules } from "@wasm/cores.mjs";
import { loadCoreModule } from "../web/src/shared/node-load";
import type { Goal } from "./paired";

/** One part of `fslab bench`: its module (bench/parts.ts finds them) exports it as `part`. */
export interface BenchPart {
  /** where it runs in `fslab bench` (all parts): lower first; the long ones last */
  order: number;
  /** one line: what it measures */
  summary: string;
  /** measures and prints its figures beside their goals */
  run(): Promise<void>;
}

const WASM_DIR = fileURLToPath(new URL("../wasm/", import.meta.url));

export const fmt = (ms: number) => (ms < 10 ? `${ms.toFixed(3)} ms` : `${ms.toFixed(1)} ms`);
export const kb = (b: number) => `${(b / 1000).toFixed(0)} KB`;
export const mbytes = (b: number) => `${(b / 1e6).toFixed(2)} MB`;
export const goal = (ok: boolean, text: string) => `(goal: ${text}${ok ? ", met" : ", NOT met"})`;

/** a native bench (wasm/src/<core>/bench_<core>.c), built by `make` and started to be sampled */
export async function nativeBench(target: string, stdio: "inherit" | "pipe" = "inherit"): Promise<NativeBench> {
  execFileSync("make", ["-s", "-C", WASM_DIR, target], { stdio });
  return NativeBench.start(`${WASM_DIR}${target}`);
}

/**
 * A core's bench against its native build: the native bench started, the core's wasm module
 * loaded, both handed to `run`, the native process closed after, whatever happened.
 */
export async function withNativeBench<C extends keyof CoreModules>(target: string, core: C, run: (native: NativeBench, module: CoreModules[C]) => Promise<void>): Promise<void> {
  const native = await nativeBench(target);
  try {
    await run(native, await loadCoreModule(core));
  } finally {
    await native.close();
  }
}

/** the cores' goal (issue 16): wasm within 1.2x of the same C built natively (by gcc) */
export const NEAR_NATIVE: Goal = { atMost: 1.2 };
