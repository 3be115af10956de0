// The page's typed handle on the exfat worker (its handlers: exfat.worker.ts).
import { workerClient, type WorkerClient } from "../../shared/worker-protocol";
import type { ExfatWorker } from "./exfat.worker";
import { spawnWorker } from "../../shared/site";
import workerUrl from "./exfat.worker.ts?worker&url";

export type ExfatClient = WorkerClient<ExfatWorker>;

export const exfatClient = (): ExfatClient => workerClient<ExfatWorker>(spawnWorker(workerUrl), "exfat");
