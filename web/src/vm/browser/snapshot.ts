// Snapshots of the page's machine: v86's save_state(), gzipped with the browser's own
// CompressionStream in a worker (a saved guest is mostly zeroed pages: 39 MiB raw to ~15 MB), and what
// a snapshot must match to be restored here.
import { outputs as built } from "@kernel/manifest.json";
import v86Package from "v86/package.json";
import { GUEST } from "../machine/guest";
import { spawnWorker } from "../../shared/site";
import type { GzipReply, GzipRequest } from "./gzip.worker";
import gzipWorkerUrl from "./gzip.worker.ts?worker&url";

const outputs = built as Record<string, { sha256: string }>;

/** The guest build: kernel and root filesystem, by their hashes in dist/manifest.json. */
export const GUEST_BUILD = `${outputs["bzImage"].sha256.slice(0, 12)}-${outputs["rootfs.json"].sha256.slice(0, 12)}`;
export const V86_VERSION: string = v86Package.version;

export interface SnapshotFit {
  guest: string;
  v86: string;
  memory: number;
}

export const HERE: SnapshotFit = { guest: GUEST_BUILD, v86: V86_VERSION, memory: GUEST.memorySize };

/** Why a stored snapshot cannot be restored into this page's machine, or null if it can. */
export function snapshotMismatch(s: SnapshotFit): string | null {
  if (s.v86 !== V86_VERSION) return `it was saved by v86 ${s.v86} and this page runs v86 ${V86_VERSION}`;
  if (s.memory !== GUEST.memorySize) return `it has ${s.memory / 2 ** 20} MiB of memory and this machine ${GUEST.memorySize / 2 ** 20} MiB`;
  if (s.guest !== GUEST_BUILD) return `it runs another build of the guest (kernel and root filesystem ${s.guest}, this page ${GUEST_BUILD})`;
  return null;
}

let gzips = 0;

/**
 * A saved machine gzipped in a worker of its own (gzip.worker.ts): the guest keeps running
 * meanwhile. Rejects if the worker ends before it answers, so what waits on it goes on.
 */
export function gzip(state: ArrayBuffer): Promise<Blob> {
  const worker = spawnWorker(gzipWorkerUrl);
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  const lock = locks ? `fslab-gzip-${Date.now()}-${++gzips}-${Math.random().toString(36).slice(2)}` : null;
  return new Promise<Blob>((resolve, reject) => {
    let settled = false;
    const end = (settle: () => void) => {
      if (settled) return;
      settled = true;
      worker.terminate(); // lets go of its lock
      settle();
    };
    worker.onmessage = (e: MessageEvent<GzipReply>) => {
      const r = e.data;
      // the worker holds the lock: it is granted here once the worker is ended, with or without an answer
      if ("locked" in r) void locks!.request(lock!, () => end(() => reject(new Error("the worker compressing it ended before it was done"))));
      else if ("gz" in r) end(() => resolve(r.gz));
      else end(() => reject(new Error(r.error)));
    };
    worker.onerror = (e) => end(() => reject(new Error(`the worker compressing it failed: ${e.message || "it did not load"}`)));
    worker.postMessage({ state, lock } satisfies GzipRequest);
  });
}

export async function gunzip(gz: Blob): Promise<ArrayBuffer> {
  return new Response(gz.stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}
