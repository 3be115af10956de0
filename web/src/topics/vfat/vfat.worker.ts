// The vfat core's worker: names in, what VFAT would write for each out. Protocol:
// shared/worker-protocol.ts.
import createVfat from "@wasm/vfat.mjs";
import wasmUrl from "@wasm/vfat.wasm?url";
import { serve } from "../../shared/worker-protocol";
import { vfatName, type Codepage, type IoCharset, type VfatName } from "./vfat-core";

export type VfatResult = { name: string; io: IoCharset; cp: Codepage; result?: VfatName; error?: string };

/** one name created in a directory whose 8.3 names so far are `existing` (added to on success) */
function create(m: Parameters<typeof vfatName>[0], name: string, bytes: string | Uint8Array, io: IoCharset, cp: Codepage, existing: Uint8Array[]): VfatResult {
  try {
    const result = vfatName(m, bytes, io, cp, existing);
    existing.push(result.short);
    return { name, io, cp, result };
  } catch (err) {
    return { name, io, cp, error: err instanceof Error ? err.message : String(err) };
  }
}

const handlers = serve(createVfat({ locateFile: () => wasmUrl }), {
  /** each mount is its own directory: the names created in order, each seeing the ones before */
  names: (m, names: string[], mounts: Array<{ io: IoCharset; cp: Codepage }>): VfatResult[] =>
    mounts.flatMap(({ io, cp }) => {
      const existing: Uint8Array[] = [];
      return names.map((name) => create(m, name, name, io, cp, existing));
    }),
  /** one directory as the learner filled it: each name as the program's bytes, in creation order */
  directory: (m, names: Uint8Array[], io: IoCharset, cp: Codepage): VfatResult[] => {
    const existing: Uint8Array[] = [];
    return names.map((bytes) => create(m, io === "utf8" ? new TextDecoder().decode(bytes) : String.fromCharCode(...bytes), bytes, io, cp, existing));
  },
});

export type VfatWorker = typeof handlers;
