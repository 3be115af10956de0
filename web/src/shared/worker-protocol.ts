// The one request/reply protocol between the page and every core's worker. A worker declares
// its handlers once; the page gets a typed client from that declaration's type alone (an
// `import type` of the worker module, so the worker's code never enters the page's bundle).
//
//   page: client.run(scenario, scheds)                       (typed by the worker's handlers)
//     -> postMessage({ seq, op: "run", args: [scenario, scheds] })
//   worker: serve(ready, handlers) -> await ready (the wasm module) -> handlers.run(module, ...args)
//     -> postMessage({ seq, result }, [every ArrayBuffer under result])   (transferred, not copied)
//     or postMessage({ seq, error: message })   -> the client's promise rejects with it
//
// A worker that fails to load (its script or its wasm) rejects every pending request, and every
// later one, with the reason; a handler's exception rejects only its own request.

/** a worker's handlers: each takes the loaded module first, then the request's arguments */
export type Handlers<M> = Record<string, (module: M, ...args: never[]) => unknown>;

type Args<F> = F extends (module: never, ...args: infer A) => unknown ? A : never;
type Result<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;

/** the page's view of a worker declared with `serve(ready, handlers)`: one async method per handler */
export type WorkerClient<H> = { [K in keyof H]: (...args: Args<H[K]>) => Promise<Result<H[K]>> } & {
  /** stops the worker (a component that unmounts): pending requests are dropped, never settled */
  terminate(): void;
};

interface Request {
  seq: number;
  op: string;
  args: unknown[];
}
type Reply = { seq: number; result: unknown } | { seq: number; error: string };

/** every distinct ArrayBuffer under a value (typed arrays, arrays, plain objects) */
export function transferables(value: unknown, out = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) out.add(value.buffer as ArrayBuffer);
  else if (value instanceof ArrayBuffer) out.add(value);
  else if (Array.isArray(value)) for (const v of value) transferables(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) transferables(v, out);
  return [...out];
}

/** Worker side: answers requests with `handlers`, each given the module `ready` resolves to. */
export function serve<M, H extends Handlers<M>>(ready: Promise<M>, handlers: H): H {
  const scope = self as unknown as Worker;
  scope.onmessage = async (e: MessageEvent<Request>) => {
    const { seq, op, args } = e.data;
    let reply: Reply;
    try {
      const handler = Object.hasOwn(handlers, op) ? handlers[op] : undefined;
      if (!handler) throw new Error(`no operation "${op}" in this worker`);
      // the message's arguments are the client's (WorkerClient types them per handler)
      reply = { seq, result: await handler(await ready, ...(args as never[])) };
    } catch (err) {
      reply = { seq, error: err instanceof Error ? err.message : String(err) };
    }
    const transfer = "result" in reply ? transferables(reply.result) : [];
    try {
      scope.postMessage(reply, transfer);
    } catch {
      // a view of memory that cannot be detached (the wasm module's own): copy instead
      scope.postMessage(reply);
    }
  };
  return handlers;
}

/** Page side: a typed client on `worker`, named `name` in its error messages. */
export function workerClient<H>(worker: Worker, name: string): WorkerClient<H> {
  let seq = 0;
  let failed: Error | null = null;
  const pending = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.onmessage = (e: MessageEvent<Reply>) => {
    const p = pending.get(e.data.seq);
    if (!p) return;
    pending.delete(e.data.seq);
    if ("error" in e.data) p.reject(new Error(e.data.error));
    else p.resolve(e.data.result);
  };
  worker.onerror = (e) => {
    failed = new Error(`${name} worker failed: ${e.message || "could not load the wasm core"}`);
    failAll(failed);
  };
  const request = (op: string, args: unknown[]) =>
    new Promise((resolve, reject) => {
      if (failed) return reject(failed);
      const s = ++seq;
      pending.set(s, { resolve, reject });
      worker.postMessage({ seq: s, op, args } satisfies Request);
    });
  const terminate = () => {
    worker.terminate();
    pending.clear();
  };
  return new Proxy({} as WorkerClient<H>, {
    get: (_t, op) => (op === "terminate" ? terminate : typeof op === "string" && op !== "then" ? (...args: unknown[]) => request(op, args) : undefined),
  });
}
