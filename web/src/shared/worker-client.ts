// A typed request/reply handle on a core's worker: one promise per request, matched by a
// sequence number; a worker that fails to load rejects everything pending with the reason.
export class WorkerClient<Req extends object, Res> {
  private seq = 0;
  private pending = new Map<number, { resolve: (r: Res) => void; reject: (e: Error) => void }>();

  constructor(private worker: Worker, private name: string, private pick: (data: any) => Res) {
    worker.onmessage = (e) => {
      const p = this.pending.get(e.data.seq);
      if (!p) return;
      this.pending.delete(e.data.seq);
      if (e.data.error) p.reject(new Error(e.data.error));
      else p.resolve(this.pick(e.data));
    };
    worker.onerror = (e) => {
      const err = new Error(`${this.name} worker failed: ${e.message || "could not load the wasm core"}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
  }

  request(req: Req): Promise<Res> {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.worker.postMessage({ ...req, seq });
    });
  }

  terminate(): void {
    this.worker.terminate();
  }
}
