// The page's typed handle on the inspect worker (its handlers: inspect.worker.ts).
import { workerClient, type WorkerClient } from "../worker-protocol";
import type { InspectWorker } from "./inspect.worker";

export type InspectClient = WorkerClient<InspectWorker>;

export const inspectClient = (): InspectClient => workerClient<InspectWorker>(new Worker(new URL("./inspect.worker.ts", import.meta.url), { type: "module" }), "inspect");
