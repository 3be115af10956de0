// The page's way to a wasm core on its own thread (a model answer, keys.ts, is a few ms of
// work: no worker for it). The cores are found by their build files, so no list names a topic;
// each core's script and binary are fetched only when an answer of its topic is computed.
import type { CoreModules } from "@wasm/cores.mjs";

const scripts = import.meta.glob("../../../wasm/build/wasm/*.mjs", { import: "default" }) as Record<string, () => Promise<(o: { locateFile: () => string }) => Promise<unknown>>>;
const binaries = import.meta.glob("../../../wasm/build/wasm/*.wasm", { query: "?url", import: "default" }) as Record<string, () => Promise<string>>;

const loaded = new Map<string, Promise<unknown>>();

export function loadCoreWeb<C extends keyof CoreModules>(core: C): Promise<CoreModules[C]> {
  let p = loaded.get(core);
  if (!p) {
    const base = `../../../wasm/build/wasm/${core}`;
    const script = scripts[`${base}.mjs`];
    const binary = binaries[`${base}.wasm`];
    if (!script || !binary) return Promise.reject(new Error(`no wasm core "${core}" in this build`));
    p = Promise.all([script(), binary()]).then(([factory, url]) => factory({ locateFile: () => url }));
    p.catch(() => loaded.delete(core));
    loaded.set(core, p);
  }
  return p as Promise<CoreModules[C]>;
}
