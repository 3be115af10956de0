// Node's way to the same wasm build the page uses (CLI, tests, benchmarks): Emscripten's
// web/worker factory, handed the .wasm bytes directly.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const WASM_DIR = fileURLToPath(new URL("../../../wasm/build/wasm/", import.meta.url));

export async function loadCoreModule(core: "exfat" | "blk" | "f2fs" | "inspect" | "vfat" | "ext4"): Promise<any> {
  const js = `${WASM_DIR}${core}.mjs`;
  let wasmBinary: Buffer;
  try {
    wasmBinary = await readFile(`${WASM_DIR}${core}.wasm`);
  } catch {
    throw new Error(`the ${core} wasm core is not built: run \`npm run wasm\` (make -C wasm wasm)`);
  }
  const { default: factory } = await import(/* @vite-ignore */ js);
  return factory({ wasmBinary });
}
