// The page's typed handle on the vfat worker (its handlers: vfat.worker.ts).
import { workerClient, type WorkerClient } from "../../shared/worker-protocol";
import type { VfatWorker } from "./vfat.worker";
import { spawnWorker } from "../../shared/site";
import workerUrl from "./vfat.worker.ts?worker&url";

export type { VfatResult } from "./vfat.worker";
export type VfatClient = WorkerClient<VfatWorker>;

export const vfatClient = (): VfatClient => workerClient<VfatWorker>(spawnWorker(workerUrl), "vfat");
