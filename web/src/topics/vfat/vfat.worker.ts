// The vfat core's worker: names in, what VFAT would write for each out.
import createVfat from "@wasm/vfat.mjs";
import wasmUrl from "@wasm/vfat.wasm?url";
import { vfatName, type Codepage, type IoCharset, type VfatName } from "./vfat-core";

const ready = createVfat({ locateFile: () => wasmUrl });

export type VfatResult = { name: string; io: IoCharset; cp: Codepage; result?: VfatName; error?: string };

self.onmessage = async (e: MessageEvent<{ seq: number; names: string[]; mounts: Array<{ io: IoCharset; cp: Codepage }> }>) => {
  const { seq, names, mounts } = e.data;
  try {
    const m = await ready;
    // each mount is its own directory: names created in order, each seeing the ones before
    const results: VfatResult[] = mounts.flatMap(({ io, cp }) => {
      const existing: Uint8Array[] = [];
      return names.map((name) => {
        try {
          const result = vfatName(m, name, io, cp, existing);
          existing.push(result.short);
          return { name, io, cp, result };
        } catch (err) {
          return { name, io, cp, error: err instanceof Error ? err.message : String(err) };
        }
      });
    });
    (self as unknown as Worker).postMessage({ seq, results });
  } catch (err) {
    (self as unknown as Worker).postMessage({ seq, error: err instanceof Error ? err.message : String(err) });
  }
};
