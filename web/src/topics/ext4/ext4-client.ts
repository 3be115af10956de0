// The page's handle on the ext4 worker: a write sweep (bytes, buffered or direct, write sizes)
// in, one row per layout and size out.
import type { Ext4Write } from "./ext4-core";
import { WorkerClient } from "../../shared/worker-client";

export type Ext4Row = Ext4Write & { layout: string; bs: number };
export type Ext4Client = WorkerClient<{ bytes: number; direct: boolean; sizes: number[] }, Ext4Row[]>;

export function ext4Client(): Ext4Client {
  return new WorkerClient(new Worker(new URL("./ext4.worker.ts", import.meta.url), { type: "module" }), "ext4", (d) => d.results);
}
