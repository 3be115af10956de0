// What a lab page's VM needs before it can start, fetched and compiled as early as the page can
// ask: App.tsx starts it as soon as a lab page is opened, while the page's own chunk (v86,
// xterm.js), the lab's text and the learner's progress load, and the VM (vm-host.ts) takes
// what has arrived. No v86 here, so this is a small chunk of its own.
// named: the build keeps only the parts used (not the package list, nor the inputs' hashes)
import { outputs, state as savedStateInfo } from "@kernel/manifest.json";
import v86Package from "v86/package.json";
import { STATE_FILE, V86_WASM_GZ, type StateInfo } from "../machine/guest";
import type { StateReply, StateRequest } from "./state.worker";
import stateWorkerUrl from "./state.worker.ts?worker&url";
import { siteUrl, spawnWorker } from "../../shared/site";

/** A guest file under vm/ (see web/vm-files.ts), versioned by its hash so caches stay right. */
export function vmUrl(name: string): string {
  const sha = (outputs as Record<string, { sha256: string }>)[name]?.sha256.slice(0, 12) ?? "";
  return siteUrl(`vm/${name}?v=${sha}`);
}

/** The gzipped core, versioned by v86's release so a cache never serves another's. */
export function v86WasmUrl(): string {
  return siteUrl(`vm/${V86_WASM_GZ}?v=${v86Package.version}`);
}

async function compileV86(): Promise<WebAssembly.Module> {
  const r = await fetch(v86WasmUrl());
  if (!r.ok || !r.body) throw new Error(`${V86_WASM_GZ}: ${r.status} ${r.statusText}`);
  // Some servers (Vite's preview, Apache's `AddEncoding x-gzip .gz`) send a .gz file as
  // Content-Encoding: gzip, and the browser un-gzips it. Given as application/wasm too, the
  // response itself is compiled, and the browser keeps the compiled code beside the cached file
  // for the next visit (V8's wasm code cache, which a Response made here cannot have).
  if (r.headers.get("Content-Encoding") === "gzip" && r.headers.get("Content-Type")?.split(";")[0] === "application/wasm")
    return WebAssembly.compileStreaming(r);
  return WebAssembly.compileStreaming(new Response(await gunzipped(r.body), { headers: { "Content-Type": "application/wasm" } }));
}

/**
 * A .gz file's body un-gzipped: by DecompressionStream, unless the browser already did (a server
 * that sends it as Content-Encoding: gzip). The first bytes say which.
 */
async function gunzipped(body: ReadableStream<Uint8Array<ArrayBuffer>>): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
  const reader = body.getReader();
  let head: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  while (head.length < 4) {
    const { done, value } = await reader.read();
    if (done) break;
    head = concat(head, value);
  }
  const bytes = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start: (c) => c.enqueue(head),
    pull: async (c) => {
      const { done, value } = await reader.read();
      if (done) c.close();
      else c.enqueue(value);
    },
    cancel: (why) => reader.cancel(why),
  });
  return head[0] === 0x1f && head[1] === 0x8b ? bytes.pipeThrough(new DecompressionStream("gzip")) : bytes;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

let v86Module: Promise<WebAssembly.Module> | null = null;
let stateAhead: Promise<ArrayBuffer | null> | "taken" | null = null;
let restoreProgress = { loaded: 0, total: 0 };

/** v86's core, compiling or compiled (prepareV86 starts it). */
export function v86Core(): Promise<WebAssembly.Module> {
  prepareV86();
  return v86Module!;
}

/** the compressed file's bytes as they arrive (0 of 0 from the last visit's copy) */
export interface LoadProgress {
  loaded: number;
  total: number;
}

export interface StateLoad {
  /** the plain state; null when it could not be had (the machine built from it then loads it again) */
  state: Promise<ArrayBuffer | null>;
  progress: LoadProgress;
  /** called by the machine built from it: one torn down before it came leaves it to the next */
  take(): void;
}

/**
 * The one file a restore of the saved machine needs, the state (no BIOS: guest.ts BIOS_FILES),
 * fetched ahead by prepareV86, or null when a machine took it or it was never fetched.
 */
export function restoreStateAhead(): StateLoad | null {
  if (!stateAhead || stateAhead === "taken") return null;
  return { state: stateAhead, progress: restoreProgress, take: () => void (stateAhead = "taken") };
}

/** The state loaded again, for a machine that found none ahead: its failure is the machine's to report. */
export function loadStateNow(): { state: Promise<ArrayBuffer>; progress: LoadProgress } {
  const progress = { loaded: 0, total: 0 };
  return { state: loadState(progress), progress };
}

/**
 * The saved state's plain bytes, from a worker (state.worker.ts) that reads the copy an earlier
 * visit kept or downloads the file and un-xz's it, off the page's thread.
 */
function loadState(progress: LoadProgress): Promise<ArrayBuffer> {
  const rawBytes = (savedStateInfo as StateInfo | undefined)?.raw_bytes ?? 0;
  const t0 = performance.now();
  return new Promise<ArrayBuffer>((resolve, reject) => {
    const worker = spawnWorker(stateWorkerUrl);
    worker.onmessage = (e: MessageEvent<StateReply>) => {
      const m = e.data;
      if ("progress" in m) return void Object.assign(progress, m.progress);
      if ("error" in m) return reject(new Error(m.error));
      // for npm run bench page: where the state came from and how long it took
      performance.measure("fslab:vm-state", { start: t0, detail: { from: m.from, downloadMs: m.downloadMs } });
      resolve(m.state);
    };
    worker.onerror = (e) => reject(new Error(`the saved machine's loader failed (${e.message})`));
    worker.postMessage({ url: vmUrl(STATE_FILE), rawBytes } satisfies StateRequest);
  });
}

/**
 * Start compiling v86's core, once per page: a lab page does so as it opens, while it reads its
 * text and the learner's progress, and a restart of the machine reuses the compiled module.
 * (Not on import: an embedded lab downloads nothing until the reader starts its VM.)
 */
export function prepareV86(): void {
  // a failed download is tried again by the next machine, not remembered
  if (!v86Module) {
    v86Module = compileV86().catch((e) => {
      v86Module = null;
      throw e;
    });
    v86Module.catch(() => undefined); // reported by the machine that waits for it (create)
  }
  // and the state a restore needs, beside it, from the moment the page opens (taken by the first
  // machine restored; a later one loads it again, from the kept copy or the HTTP cache)
  if (stateAhead) return;
  restoreProgress = { loaded: 0, total: 0 };
  stateAhead = loadState(restoreProgress).catch((e) => {
    // the machine loads it again then, and says what failed
    console.warn(`fslab: the saved machine could not be fetched ahead (${e})`);
    return null;
  });
}
