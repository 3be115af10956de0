// The page's typed handle on the inspect worker (its handlers: inspect.worker.ts).
import { workerClient, type WorkerClient } from "../worker-protocol";
import type { InspectWorker } from "./inspect.worker";
import { spawnWorker } from "../site";
import workerUrl from "./inspect.worker.ts?worker&url";

export type InspectClient = WorkerClient<InspectWorker>;

export const inspectClient = (): InspectClient => workerClient<InspectWorker>(spawnWorker(workerUrl), "inspect");
