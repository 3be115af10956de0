// The vfat core's worker: names in, what VFAT would write for each out. Protocol:
// shared/worker-protocol.ts.
import createVfat from "@wasm/vfat.mjs";
import wasmUrl from "@wasm/vfat.wasm?url";
import { serve } from "../../shared/worker-protocol";
import { vfatName, type Codepage, type IoCharset, type VfatName } from "./vfat-core";

export type VfatResult = { name: string; io: IoCharset; cp: Codepage; result?: VfatName; error?: string };

const handlers = serve(createVfat({ locateFile: () => wasmUrl }), {
  /** each mount is its own directory: the names created in order, each seeing the ones before */
  names: (m, names: string[], mounts: Array<{ io: IoCharset; cp: Codepage }>): VfatResult[] =>
    mounts.flatMap(({ io, cp }) => {
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
    }),
  /** one directory as the learner filled it: each name as the program's bytes, in creation order */
  directory: (m, names: Uint8Array[], io: IoCharset, cp: Codepage): VfatResult[] => {
    const existing: Uint8Array[] = [];
    return names.map((bytes) => {
      const name = io === "utf8" ? new TextDecoder().decode(bytes) : String.fromCharCode(...bytes);
      try {
        const result = vfatName(m, bytes, io, cp, existing);
        existing.push(result.short);
        return { name, io, cp, result };
      } catch (err) {
        return { name, io, cp, error: err instanceof Error ? err.message : String(err) };
      }
    });
  },
});

export type VfatWorker = typeof handlers;
