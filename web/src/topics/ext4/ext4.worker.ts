// The ext4 core's worker: the write sweeps of the ext4 playground, off the main thread.
import createExt4 from "@wasm/ext4.mjs";
import wasmUrl from "@wasm/ext4.wasm?url";
import { LAYOUTS, ext4WriteFile } from "./ext4-core";
import type { Ext4Row } from "./ext4-client";

const ready = createExt4({ locateFile: () => wasmUrl });

self.onmessage = async (e: MessageEvent<{ seq: number; bytes: number; direct: boolean; sizes: number[] }>) => {
  const { seq, bytes, direct, sizes } = e.data;
  try {
    const m = await ready;
    const results: Ext4Row[] = LAYOUTS.flatMap((l) => sizes.map((bs) => ({ layout: l.name, bs, ...ext4WriteFile(m, l, direct, bytes, bs) })));
    (self as unknown as Worker).postMessage({ seq, results });
  } catch (err) {
    (self as unknown as Worker).postMessage({ seq, error: err instanceof Error ? err.message : String(err) });
  }
};
