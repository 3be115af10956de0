// The sd core's worker: a card type and size in, Linux's initialisation of it out (records),
// with its CID and CSD decoded as Linux decodes them. Protocol: shared/worker-protocol.ts.
import createSd from "@wasm/sd.mjs";
import wasmUrl from "@wasm/sd.wasm?url";
import { serve } from "../../shared/worker-protocol";
import { decodeCid, decodeCsd, sdAttach, type CardType, type Cid, type Csd, type SdRecord } from "./sd-core";

export interface SdRun {
  records: SdRecord[];
  cid: Cid | null;
  csd: Csd | null;
}

const handlers = serve(createSd({ locateFile: () => wasmUrl }), {
  attach: (m, type: CardType, bytes: number): SdRun => {
    const records = sdAttach(m, type, bytes);
    const cid = records.find((r) => r.opcode === 2 && !r.app && r.err === 0);
    const csd = records.find((r) => r.opcode === 9 && !r.app && r.err === 0);
    return { records, cid: cid ? decodeCid(m, cid.resp) : null, csd: csd ? decodeCsd(m, csd.resp) : null };
  },
});

export type SdWorker = typeof handlers;
