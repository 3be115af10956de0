// The page's handle on the inspect worker: an image's bytes in, its report out.
import type { InspectReport } from "./inspect";
import { WorkerClient } from "../worker-client";

export type InspectClient = WorkerClient<{ bytes: Uint8Array }, InspectReport>;

export function inspectClient(): InspectClient {
  return new WorkerClient(new Worker(new URL("./inspect.worker.ts", import.meta.url), { type: "module" }), "inspect", (d) => d.report);
}
