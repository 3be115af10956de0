// The page's typed handle on the ext4 worker (its handlers: ext4.worker.ts).
import { workerClient, type WorkerClient } from "../../shared/worker-protocol";
import type { Ext4Worker } from "./ext4.worker";
import { spawnWorker } from "../../shared/site";
import workerUrl from "./ext4.worker.ts?worker&url";

export type { Ext4Row } from "./ext4.worker";
export type Ext4Client = WorkerClient<Ext4Worker>;

export const ext4Client = (): Ext4Client => workerClient<Ext4Worker>(spawnWorker(workerUrl), "ext4");
