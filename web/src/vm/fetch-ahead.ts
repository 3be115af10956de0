// What a lab page's VM needs before it can start, fetched and compiled as early as the page can
// ask: App.tsx starts it as soon as a lab page is opened, while the page's own chunk (v86,
// xterm.js), the lab's text and the learner's progress load, and the VM (vm-host.ts) takes
// what has arrived. No v86 here, so this is a small chunk of its own.
// named: the build keeps only the parts used (not the package list, nor the inputs' hashes)
import { outputs } from "@kernel/manifest.json";
import v86Package from "v86/package.json";
import { STATE_FILE, V86_WASM_GZ } from "./guest";
import { siteUrl } from "../shared/site";

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

/**
 * The one file a restore of the saved machine needs, the state (no BIOS: guest.ts BIOS_FILES),
 * fetched ahead: null when a machine took it or it was never fetched (v86 fetches it itself
 * then). `progress` counts its bytes as they arrive; `take` is called by the machine built from
 * it (one torn down before it came leaves it to the next).
 */
export function restoreStateAhead(): { state: Promise<ArrayBuffer | null>; progress: { loaded: number; total: number }; take(): void } | null {
  if (!stateAhead || stateAhead === "taken") return null;
  return { state: stateAhead, progress: restoreProgress, take: () => void (stateAhead = "taken") };
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
  // and the state a restore needs, beside it: v86 fetches its files one after another, from the
  // moment the VM starts (taken by the first machine restored; a later one fetches again)
  if (stateAhead) return; // once per page: a later machine fetches (from the HTTP cache) itself
  restoreProgress = { loaded: 0, total: 0 };
  const progress = restoreProgress;
  stateAhead = (async () => {
    const r = await fetch(vmUrl(STATE_FILE));
    if (!r.ok || !r.body) throw new Error(`${STATE_FILE}: ${r.status}`);
    const length = Number(r.headers.get("Content-Length") ?? 0);
    if (!length) return r.arrayBuffer();
    progress.total = length;
    // read as it arrives, so the page can show how far it is
    const bytes = new Uint8Array(length);
    const reader = r.body.getReader();
    for (let at = 0; ; ) {
      const { done, value } = await reader.read();
      if (done) {
        if (at !== length) throw new Error(`${STATE_FILE}: ${at} of ${length} bytes`);
        return bytes.buffer;
      }
      if (at + value.length > length) throw new Error(`${STATE_FILE}: more than ${length} bytes`);
      bytes.set(value, at);
      at += value.length;
      progress.loaded += value.length;
    }
  })().catch((e) => {
    // v86 fetches it itself then, and says what failed
    console.warn(`fslab: the saved machine could not be fetched ahead (${e})`);
    return null;
  });
}
