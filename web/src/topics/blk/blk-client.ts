// The page's typed handle on the blk worker (its handlers: blk.worker.ts).
import { workerClient, type WorkerClient } from "../../shared/worker-protocol";
import type { BlkWorker } from "./blk.worker";
import { spawnWorker } from "../../shared/site";
import workerUrl from "./blk.worker.ts?worker&url";

export type { BlkReplay } from "./blk.worker";
export type BlkClient = WorkerClient<BlkWorker>;

export const blkClient = (): BlkClient => workerClient<BlkWorker>(spawnWorker(workerUrl), "blk");
