// The page's typed handle on the sd worker (its handlers: sd.worker.ts).
import { workerClient, type WorkerClient } from "../../shared/worker-protocol";
import type { SdWorker } from "./sd.worker";
import { spawnWorker } from "../../shared/site";
import workerUrl from "./sd.worker.ts?worker&url";

export type { SdRun, SdRegisters } from "./sd.worker";
export type SdClient = WorkerClient<SdWorker>;

export const sdClient = (): SdClient => workerClient<SdWorker>(spawnWorker(workerUrl), "sd");
