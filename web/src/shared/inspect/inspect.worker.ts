// The inspectors' worker: image bytes in (transferred), a report out.
import createInspect from "@wasm/inspect.mjs";
import wasmUrl from "@wasm/inspect.wasm?url";
import { inspectImage } from "./inspect";

const ready = createInspect({ locateFile: () => wasmUrl });

self.onmessage = async (e: MessageEvent<{ seq: number; bytes: Uint8Array }>) => {
  const { seq, bytes } = e.data;
  try {
    (self as unknown as Worker).postMessage({ seq, report: inspectImage(await ready, bytes) });
  } catch (err) {
    (self as unknown as Worker).postMessage({ seq, error: err instanceof Error ? err.message : String(err) });
  }
};
