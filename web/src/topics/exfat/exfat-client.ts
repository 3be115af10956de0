// The page's typed handle on the exfat worker (its handlers: exfat.worker.ts).
import { workerClient, type WorkerClient } from "../../shared/worker-protocol";
import type { ExfatWorker } from "./exfat.worker";

export type ExfatClient = WorkerClient<ExfatWorker>;

export const exfatClient = (): ExfatClient => workerClient<ExfatWorker>(new Worker(new URL("./exfat.worker.ts", import.meta.url), { type: "module" }), "exfat");
