// The inspectors' worker: image bytes in (transferred), a report out. Protocol:
// shared/worker-protocol.ts.
import createInspect from "@wasm/inspect.mjs";
import wasmUrl from "@wasm/inspect.wasm?url";
import { serve } from "../worker-protocol";
import { inspectImage } from "./inspect";

const handlers = serve(createInspect({ locateFile: () => wasmUrl }), {
  inspect: (m, bytes: Uint8Array) => inspectImage(m, bytes),
});

export type InspectWorker = typeof handlers;
