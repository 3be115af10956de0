// The ext4 core's worker: the write sweeps of the ext4 playground and lab, off the main thread.
// Protocol: shared/worker-protocol.ts.
import createExt4 from "@wasm/ext4.mjs";
import wasmUrl from "@wasm/ext4.wasm?url";
import { serve } from "../../shared/worker-protocol";
import { LAYOUTS, ext4WriteFile, type Ext4Write } from "./ext4-core";

export type Ext4Row = Ext4Write & { layout: string; bs: number };

const handlers = serve(createExt4({ locateFile: () => wasmUrl }), {
  /** `bytes` written buffered or direct at each write size, one row per layout and size */
  writeSweep: (m, bytes: number, direct: boolean, sizes: number[]): Ext4Row[] =>
    LAYOUTS.flatMap((l) => sizes.map((bs) => ({ layout: l.name, bs, ...ext4WriteFile(m, l, direct, bytes, bs) }))),
});

export type Ext4Worker = typeof handlers;
