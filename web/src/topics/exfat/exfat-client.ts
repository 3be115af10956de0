// The page's typed handle on the exfat worker: one promise per request, typed by its op.
import type { ExfatSnapshot } from "./exfat-core";
import type { DeleteResult } from "./exfat-scenario";
import type { DiscardPolicy } from "../../shared/events";
import type { DirRun, DirSweep } from "./exfat-dir";
import { WorkerClient } from "../../shared/worker-client";

export type ExfatRequest =
  | { op: "reset"; clusters: number; sectPerClusBits: number }
  | { op: "createContiguous"; clusters: number }
  | { op: "createFragmented"; clusters: number; runs: number }
  | { op: "createRuns"; lengths: number[] }
  | { op: "delete"; id: number; policy: DiscardPolicy }
  | { op: "dir"; ops: string[] }
  | { op: "dirSweeps"; ops: string[] };

type Reply<R extends ExfatRequest> = R["op"] extends "reset"
  ? ExfatSnapshot
  : R["op"] extends "dir"
    ? DirRun[]
  : R["op"] extends "dirSweeps"
    ? DirSweep[][]
  : R["op"] extends "delete"
    ? { result: DeleteResult; snapshot: ExfatSnapshot }
    : { id: number; snapshot: ExfatSnapshot };

export class ExfatClient {
  private client = new WorkerClient<{ req: ExfatRequest }, unknown>(
    new Worker(new URL("./exfat.worker.ts", import.meta.url), { type: "module" }),
    "exfat",
    (data) => data.result,
  );

  call<R extends ExfatRequest>(req: R): Promise<Reply<R>> {
    return this.client.request({ req }) as Promise<Reply<R>>;
  }

  terminate(): void {
    this.client.terminate();
  }
}
