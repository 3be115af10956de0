// The saved machine's plain bytes, got off the page's thread (fetch-ahead.ts asks): un-xz'ing
// the 3.4 MB file takes about 0.3 s of CPU, which on the page's thread held up the lab's own
// rendering and the VM's start behind it. From the copy kept by an earlier visit when there
// is one (tens of ms), else downloaded and un-xz'd as it arrives, then kept.
//   page -> worker  { url, rawBytes }
//   worker -> page  { progress: { loaded, total } }*, then { state, from: "copy" | "file" } or { error }
import { unxzState } from "../machine/saved-state";

export interface StateRequest {
  url: string;
  rawBytes: number;
}
export type StateReply =
  | { progress: { loaded: number; total: number } }
  | { state: ArrayBuffer; from: "copy" | "file"; downloadMs?: number }
  | { error: string };

// The plain state, 16 MB, kept after the first visit so that a return un-xz's nothing. One
// entry: the current build's (its URL carries the file's hash).
const STATE_COPY_CACHE = "fslab-vm-state";

const post = (m: StateReply, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

self.onmessage = async (e: MessageEvent<StateRequest>) => {
  const { url, rawBytes } = e.data;
  const t0 = performance.now();
  try {
    const kept = await keptState(url, rawBytes);
    if (kept) return post({ state: kept, from: "copy" }, [kept]);
    const r = await fetch(url);
    if (!r.ok || !r.body) throw new Error(`${url.split("/").pop()!.split("?")[0]}: ${r.status} ${r.statusText}`);
    const progress = { loaded: 0, total: Number(r.headers.get("Content-Length") ?? 0) };
    let shown = 0;
    let downloadMs = 0;
    const counted = r.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, c) {
          progress.loaded += chunk.length;
          // a few times a second is enough for a progress bar
          if (performance.now() - shown > 100) {
            shown = performance.now();
            post({ progress });
          }
          c.enqueue(chunk);
        },
        flush: () => void (downloadMs = performance.now() - t0),
      }),
    );
    const state = await unxzState(counted, rawBytes);
    // the copy first: a Response copies the bytes it is given, and the page gets them moved
    const copy = typeof caches !== "undefined" ? new Response(state) : null;
    post({ state, from: "file", downloadMs }, [state]);
    if (copy) await keepState(url, copy);
  } catch (err) {
    post({ error: err instanceof Error ? err.message : String(err) });
  }
  self.close(); // one load per worker
};

async function keptState(url: string, rawBytes: number): Promise<ArrayBuffer | null> {
  if (typeof caches === "undefined") return null; // not a secure context
  try {
    const hit = await (await caches.open(STATE_COPY_CACHE)).match(url);
    const bytes = hit && (await hit.arrayBuffer());
    return bytes && bytes.byteLength === rawBytes ? bytes : null;
  } catch {
    return null; // storage refused: the file then
  }
}

async function keepState(url: string, copy: Response): Promise<void> {
  try {
    const cache = await caches.open(STATE_COPY_CACHE);
    // another build's copy goes first: the origin's storage holds one
    for (const old of await cache.keys()) if (old.url !== url) await cache.delete(old);
    await cache.put(url, copy);
  } catch (e) {
    // a full disk or a private window's quota: the next visit un-xz's the file again
    console.warn(`fslab: the saved machine's copy was not kept (${e})`);
  }
}
