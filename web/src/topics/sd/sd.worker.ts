// The sd core's worker: a card type and size in, Linux's initialisation of it out (records),
// with its CID and CSD decoded as Linux decodes them; or a CMD2's and a CMD9's answers (the
// kernel's, from its mmc events) in, decoded by the same decoders. Protocol: shared/worker-protocol.ts.
import createSd, { type SdModule } from "@wasm/sd.mjs";
import wasmUrl from "@wasm/sd.wasm?url";
import { serve } from "../../shared/worker-protocol";
import { decodeCid, decodeCsd, sdAttach, type CardType, type Cid, type Csd, type SdRecord } from "./sd-core";
import { registerAnswers } from "./sd-compare";

export interface SdRegisters {
  cid: Cid | null;
  csd: Csd | null;
}
export interface SdRun extends SdRegisters {
  records: SdRecord[];
}

const decode = (m: SdModule, cid: readonly number[] | null, csd: readonly number[] | null): SdRegisters => ({
  cid: cid ? decodeCid(m, cid) : null,
  csd: csd ? decodeCsd(m, csd) : null,
});

const handlers = serve(createSd({ locateFile: () => wasmUrl }), {
  attach: (m, type: CardType, bytes: number, serial?: number): SdRun => {
    const records = sdAttach(m, type, bytes, serial);
    const { cid, csd } = registerAnswers(records);
    return { records, ...decode(m, cid, csd) };
  },
  /** registers from answers as mmc_request_done printed them (cmd_resp, four words each) */
  decode,
});

export type SdWorker = typeof handlers;
