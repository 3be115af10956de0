// Snapshots of the page's machine: v86's save_state(), gzipped with the browser's own
// CompressionStream in a worker (a saved guest is mostly zeroed pages: 39 MiB raw to ~15 MB), and what
// a snapshot must match to be restored here.
import { outputs as built } from "@kernel/manifest.json";
import v86Package from "v86/package.json";
import { GUEST } from "./guest";
import { spawnWorker } from "../shared/site";
import { workerClient, type WorkerClient } from "../shared/worker-protocol";
import type { GzipWorker } from "./gzip.worker";
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

let gzipper: WorkerClient<GzipWorker> | null = null;

/** A saved machine gzipped in a worker (gzip.worker.ts): the guest keeps running meanwhile. */
export async function gzip(state: ArrayBuffer): Promise<Blob> {
  gzipper ??= workerClient<GzipWorker>(spawnWorker(gzipWorkerUrl), "snapshot");
  return gzipper.gzip(state);
}

export async function gunzip(gz: Blob): Promise<ArrayBuffer> {
  return new Response(gz.stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}
