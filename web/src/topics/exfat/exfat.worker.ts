// The exfat core's worker. Round trip:
//   ExfatClient.call(op) -> postMessage({seq, op, args})
//     -> ExfatLab method -> wasm (fx_exfat_*) -> result with typed arrays
//     -> postMessage({seq, result}, [buffers])   (transferred, not copied)
import createExfat from "@wasm/exfat.mjs";
import wasmUrl from "@wasm/exfat.wasm?url";
import { ExfatCore } from "./exfat-core";
import { ExfatLab } from "./exfat-scenario";
import type { ExfatRequest } from "./exfat-client";
import { dirRun, dirSweeps } from "./exfat-dir";

let lab: ExfatLab | null = null;
const ready = createExfat({ locateFile: () => wasmUrl });

function transferables(value: unknown, out: Transferable[] = []): Transferable[] {
  if (ArrayBuffer.isView(value)) out.push(value.buffer as ArrayBuffer);
  else if (Array.isArray(value)) value.forEach((v) => transferables(v, out));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => transferables(v, out));
  return out;
}

self.onmessage = async (e: MessageEvent<{ seq: number; req: ExfatRequest }>) => {
  const { seq, req } = e.data;
  try {
    const module = await ready;
    let result: unknown;
    switch (req.op) {
      case "reset":
        lab?.core.dispose();
        lab = new ExfatLab(ExfatCore.create(module, req.clusters, req.sectPerClusBits));
        result = lab.snapshot();
        break;
      case "createContiguous":
        result = { id: need().createContiguous(req.clusters), snapshot: need().snapshot() };
        break;
      case "createFragmented":
        result = { id: need().createFragmented(req.clusters, req.runs), snapshot: need().snapshot() };
        break;
      case "createRuns":
        result = { id: need().createRuns(req.lengths), snapshot: need().snapshot() };
        break;
      case "delete":
        result = { result: need().delete(req.id, req.policy), snapshot: need().snapshot() };
        break;
      case "dir": // one directory per setting of empty_hint, replayed from its first step
        result = [true, false].map((hint) => dirRun(module, hint, req.ops));
        break;
      case "dirSweeps": // the first creates' searches, with the hint and without
        result = [true, false].map((hint) => dirSweeps(module, hint, req.ops));
        break;
    }
    (self as unknown as Worker).postMessage({ seq, result }, transferables(result));
  } catch (err) {
    (self as unknown as Worker).postMessage({ seq, error: err instanceof Error ? err.message : String(err) });
  }
};

function need(): ExfatLab {
  if (!lab) throw new Error("the volume is not made yet");
  return lab;
}
