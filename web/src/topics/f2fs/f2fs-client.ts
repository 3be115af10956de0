// The page's typed handle on the f2fs worker (its handlers: f2fs.worker.ts).
import { workerClient, type WorkerClient } from "../../shared/worker-protocol";
import type { F2fsWorker } from "./f2fs.worker";
import { spawnWorker } from "../../shared/site";
import workerUrl from "./f2fs.worker.ts?worker&url";

export type F2fsClient = WorkerClient<F2fsWorker>;

export const f2fsClient = (): F2fsClient => workerClient<F2fsWorker>(spawnWorker(workerUrl), "f2fs");
