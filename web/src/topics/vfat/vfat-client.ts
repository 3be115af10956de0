// The page's typed handle on the vfat worker (its handlers: vfat.worker.ts).
import { workerClient, type WorkerClient } from "../../shared/worker-protocol";
import type { VfatWorker } from "./vfat.worker";

export type { VfatResult } from "./vfat.worker";
export type VfatClient = WorkerClient<VfatWorker>;

export const vfatClient = (): VfatClient => workerClient<VfatWorker>(new Worker(new URL("./vfat.worker.ts", import.meta.url), { type: "module" }), "vfat");
