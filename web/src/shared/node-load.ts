// Node's way to the same wasm build the page uses (CLI, tests, benchmarks): Emscripten's
// web/worker factory, handed the .wasm bytes directly.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { BlkModule } from "@wasm/blk.mjs";
import type { ExfatModule } from "@wasm/exfat.mjs";
import type { Ext4Module } from "@wasm/ext4.mjs";
import type { F2fsModule } from "@wasm/f2fs.mjs";
import type { InspectModule } from "@wasm/inspect.mjs";
import type { VfatModule } from "@wasm/vfat.mjs";
import type { SdModule } from "@wasm/sd.mjs";

const WASM_DIR = fileURLToPath(new URL("../../../wasm/build/wasm/", import.meta.url));

/** each core's module, as wasm/gen-dts.py declares it from the core's exports.c */
export interface CoreModules {
  exfat: ExfatModule;
  blk: BlkModule;
  f2fs: F2fsModule;
  inspect: InspectModule;
  vfat: VfatModule;
  ext4: Ext4Module;
  sd: SdModule;
}

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
