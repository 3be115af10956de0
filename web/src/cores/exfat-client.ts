// The page's typed handle on the exfat worker: one promise per request.
import type { ExfatSnapshot } from "./exfat-core";
import type { DeleteResult } from "./exfat-scenario";
import type { DiscardPolicy } from "./events";
import type { DirRun } from "./exfat-dir";

export type ExfatRequest =
  | { op: "reset"; clusters: number; sectPerClusBits: number }
  | { op: "createContiguous"; clusters: number }
  | { op: "createFragmented"; clusters: number; runs: number }
  | { op: "delete"; id: number; policy: DiscardPolicy }
  | { op: "dir"; ops: string[] };

type Reply<R extends ExfatRequest> = R["op"] extends "reset"
  ? ExfatSnapshot
  : R["op"] extends "dir"
    ? DirRun[]
  : R["op"] extends "delete"
    ? { result: DeleteResult; snapshot: ExfatSnapshot }
    : { id: number; snapshot: ExfatSnapshot };

export class ExfatClient {
  private worker = new Worker(new URL("./exfat.worker.ts", import.meta.url), { type: "module" });
  private seq = 0;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();

  constructor() {
    this.worker.onmessage = (e) => {
      const p = this.pending.get(e.data.seq);
      if (!p) return;
      this.pending.delete(e.data.seq);
      if (e.data.error) p.reject(new Error(e.data.error));
      else p.resolve(e.data.result);
    };
    this.worker.onerror = (e) => {
      const err = new Error(`exfat worker failed: ${e.message || "could not load the wasm core"}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
  }

  call<R extends ExfatRequest>(req: R): Promise<Reply<R>> {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.worker.postMessage({ seq, req });
    });
  }

  terminate(): void {
    this.worker.terminate();
  }
}
