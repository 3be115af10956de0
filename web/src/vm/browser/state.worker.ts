// The saved machine's plain bytes, got off the page's thread (fetch-ahead.ts asks): un-xz'ing
// the 3.2 MB file takes about 0.3 s of CPU, which on the page's thread held up the lab's own
// rendering and the VM's start behind it. From the copy kept by an earlier visit when there
// is one, else downloaded and un-xz'd as it arrives, then kept.
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

// The plain state, 16 MB, kept after the first visit so that a return un-xz's nothing: a file in
// the origin's private file system (OPFS), read whole by one synchronous read here. On a warm
// visit of a lab page (Chromium, a 2-core machine, medians of 8) the state came 98 ms after the
// page asked, where the copy in Cache Storage took 120-150 ms and read as a File on the page's
// thread 115 ms. One file: the current build's, named by the state file's hash.
const STATE_COPY_DIR = "fslab-vm-state";
// where earlier builds kept it (a Cache Storage cache), emptied once the file is kept
const OLD_STATE_COPY_CACHE = "fslab-vm-state";

const post = (m: StateReply, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

self.onmessage = async (e: MessageEvent<StateRequest>) => {
  const { url, rawBytes } = e.data;
  const t0 = performance.now();
  try {
    const kept = await keptState(url, rawBytes);
    if (kept) {
      post({ state: kept, from: "copy" }, [kept]);
      return self.close();
    }
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
    // a copy to keep, as the page gets the bytes moved (~5 ms, where writing them first would
    // hold up the first visit's machine by the write)
    const copy = new Uint8Array(state.slice(0));
    post({ state, from: "file", downloadMs }, [state]);
    await keepState(url, copy);
  } catch (err) {
    post({ error: err instanceof Error ? err.message : String(err) });
  }
  self.close(); // one load per worker
};

/** the copy's file name: the state file's hash, from its URL (vmUrl's ?v=) */
function copyName(url: string): string {
  const v = new URL(url, "http://x/").searchParams.get("v");
  return `state-${v && /^[0-9a-f]{6,64}$/.test(v) ? v : "unversioned"}.bin`;
}

async function copyDir(create: boolean): Promise<FileSystemDirectoryHandle | null> {
  if (!navigator.storage?.getDirectory) return null; // not a secure context, or an older browser
  return (await navigator.storage.getDirectory()).getDirectoryHandle(STATE_COPY_DIR, { create });
}

async function keptState(url: string, rawBytes: number): Promise<ArrayBuffer | null> {
  try {
    const dir = await copyDir(false);
    if (!dir) return null;
    const handle = await (await dir.getFileHandle(copyName(url))).createSyncAccessHandle();
    try {
      // a copy cut short (a tab closed while it was written) has fewer bytes: the file then
      if (handle.getSize() !== rawBytes) return null;
      const bytes = new ArrayBuffer(rawBytes);
      return handle.read(new Uint8Array(bytes), { at: 0 }) === rawBytes ? bytes : null;
    } finally {
      handle.close();
    }
  } catch {
    // none kept, storage refused, or another tab's worker holds the file open (a sync handle
    // is exclusive): the file then
    return null;
  }
}

async function keepState(url: string, state: Uint8Array): Promise<void> {
  try {
    const dir = await copyDir(true);
    if (!dir) return;
    const name = copyName(url);
    // another build's copy goes first: the origin's storage holds one
    for await (const old of dir.keys()) if (old !== name) await dir.removeEntry(old);
    const handle = await (await dir.getFileHandle(name, { create: true })).createSyncAccessHandle();
    try {
      handle.truncate(0);
      if (handle.write(state, { at: 0 }) !== state.byteLength) throw new Error("a short write");
      handle.flush();
    } finally {
      handle.close();
    }
    if (typeof caches !== "undefined") await caches.delete(OLD_STATE_COPY_CACHE);
  } catch (e) {
    // a full disk or a private window's quota: the next visit un-xz's the file again
    console.warn(`fslab: the saved machine's copy was not kept (${e})`);
  }
}
