// Node's way to the same wasm build the page uses (CLI, tests, benchmarks): Emscripten's
// web/worker factory, handed the .wasm bytes directly.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { CoreModules } from "@wasm/cores.mjs";

const WASM_DIR = fileURLToPath(new URL("../../../wasm/build/wasm/", import.meta.url));

/**
 * each core's module, as wasm/gen-dts.py declares it from the core's exports.c; the map is
 * generated beside the build (build/wasm/cores.d.mts), one entry per src/<core>/exports.c
 */
export type { CoreModules };

export type CoreName = keyof CoreModules;

export async function loadCoreModule<C extends CoreName>(core: C): Promise<CoreModules[C]> {
  const js = `${WASM_DIR}${core}.mjs`;
  let wasmBinary: Buffer;
  try {
    wasmBinary = await readFile(`${WASM_DIR}${core}.wasm`);
  } catch {
    throw new Error(`the ${core} wasm core is not built: run \`npm run wasm\` (make -C wasm wasm)`);
  }
  // the path is built at run time, so TypeScript cannot follow it: the factory is typed by the map
  const { default: factory } = (await import(/* @vite-ignore */ js)) as { default: (opts: { wasmBinary: Uint8Array }) => Promise<CoreModules[C]> };
  return factory({ wasmBinary });
}
