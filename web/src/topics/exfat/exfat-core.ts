// One class owns the exfat wasm module (wasm/src/exfat). The same class runs in the page's
// worker (exfat.worker.ts) and in Node (the CLI, tests, bench):
//
//   ExfatCore.delete(id, policy)
//     -> _fx_exfat_set_policy + _fx_exfat_delete   (C: __exfat_free_cluster)
//     -> event records copied out of linear memory into a fresh Uint32Array
//     -> returned to the caller, who may transfer its buffer
import type { ExfatModule } from "@wasm/exfat.mjs";
import { DiscardPolicy } from "./events";
import type { Run } from "../../shared/inspect/inspect";

export const EXFAT_FIRST_CLUSTER = 2;
export const ALLOC_FAT_CHAIN = 0x01;
export const ALLOC_NO_FAT_CHAIN = 0x03;

const ERRNO: Record<number, string> = { 2: "no such file", 5: "I/O error (corrupt chain)", 23: "file table full", 28: "no space left on the volume" };

export class ExfatError extends Error {}

function check(ret: number, what: string): number {
  if (ret < 0) throw new ExfatError(`${what}: ${ERRNO[-ret] ?? `error ${-ret}`}`);
  return ret;
}

export interface ExfatFile {
  id: number;
  name: string;
  flags: number; // ALLOC_NO_FAT_CHAIN or ALLOC_FAT_CHAIN
  clusters: Uint32Array; // in chain order
}

export interface ExfatSnapshot {
  numClusters: number; // sbi->num_clusters: data clusters + 2
  usedClusters: number;
  bitmap: Uint8Array; // bit (clu - 2)
  files: ExfatFile[];
}

export class ExfatCore {
  private vol: number;
  private names = new Map<number, string>();

  private constructor(private m: ExfatModule, vol: number) {
    this.vol = vol;
  }

  /** dataClusters clusters of (512 << sectPerClusBits) bytes. */
  static create(module: ExfatModule, dataClusters: number, sectPerClusBits = 3): ExfatCore {
    const vol = module._fx_exfat_new(dataClusters, sectPerClusBits);
    if (!vol) throw new ExfatError(`cannot make a volume of ${dataClusters} clusters`);
    return new ExfatCore(module, vol);
  }

  dispose(): void {
    if (this.vol) this.m._fx_exfat_free(this.vol);
    this.vol = 0;
  }

  clone(): ExfatCore {
    const c = new ExfatCore(this.m, this.m._fx_exfat_clone(this.vol));
    c.names = new Map(this.names);
    return c;
  }

  setPolicy(discard: boolean, policy: DiscardPolicy): void {
    this.m._fx_exfat_set_policy(this.vol, discard ? 1 : 0, policy);
  }

  createFile(name: string): number {
    const id = check(this.m._fx_exfat_create(this.vol), `create ${name}`);
    this.names.set(id, name);
    return id;
  }

  /** Grow a file by n clusters, as exfat_cont_expand() does. */
  append(id: number, clusters: number): void {
    check(this.m._fx_exfat_append(this.vol, id, clusters), `append to ${this.names.get(id) ?? id}`);
  }

  /** Free a file's clusters (__exfat_free_cluster) under the volume's current policy. */
  delete(id: number): void {
    const name = this.names.get(id) ?? String(id);
    check(this.m._fx_exfat_delete(this.vol, id), `delete ${name}`);
    this.names.delete(id);
  }

  /** Stop (or resume) recording events: counters still run. For frees of millions of clusters. */
  recordEvents(on: boolean): void {
    this.m._fx_exfat_events_record(this.vol, on ? 1 : 0);
  }

  /** sb_issue_discard() calls so far, as the patched kernel's discard_calls counts them. */
  get discardCalls(): number {
    return this.m._fx_exfat_discard_calls(this.vol);
  }

  /** The events since the last take, as a transferable copy; clears the core's buffer. */
  takeEvents(): Uint32Array {
    const len = this.m._fx_exfat_events_len(this.vol);
    if (len < 0) throw new ExfatError("the event stream ran out of memory and is incomplete");
    const ptr = this.m._fx_exfat_events_ptr(this.vol) >>> 2;
    const out = this.m.HEAPU32.slice(ptr, ptr + len * 4);
    this.m._fx_exfat_events_clear(this.vol);
    return out;
  }

  get numClusters(): number {
    return this.m._fx_exfat_num_clusters(this.vol);
  }

  fileIds(): number[] {
    return [...this.names.keys()];
  }

  fileClusters(id: number): Uint32Array {
    const size = check(this.m._fx_exfat_file_size(this.vol, id), `file ${id}`);
    if (size === 0) return new Uint32Array(0);
    const buf = this.m._fx_malloc(size * 4);
    try {
      const n = check(this.m._fx_exfat_file_clusters(this.vol, id, buf, size), `walk ${this.names.get(id)}`);
      return this.m.HEAPU32.slice(buf >>> 2, (buf >>> 2) + n);
    } finally {
      this.m._fx_free(buf);
    }
  }

  snapshot(): ExfatSnapshot {
    const numClusters = this.numClusters;
    const mapBytes = Math.ceil((numClusters - EXFAT_FIRST_CLUSTER) / 32) * 4;
    const ptr = this.m._fx_exfat_bitmap_ptr(this.vol);
    return {
      numClusters,
      usedClusters: this.m._fx_exfat_used_clusters(this.vol),
      bitmap: this.m.HEAPU8.slice(ptr, ptr + mapBytes),
      files: this.fileIds().map((id) => ({
        id,
        name: this.names.get(id)!,
        flags: this.m._fx_exfat_file_flags(this.vol, id),
        clusters: this.fileClusters(id),
      })),
    };
  }
}

/** A chain's contiguous runs, [first cluster, clusters], in chain order. */
export function chainRuns(clusters: Uint32Array): Run[] {
  const out: Run[] = [];
  for (let i = 0; i < clusters.length; i++) {
    const last = out[out.length - 1];
    if (last && clusters[i] === last[0] + last[1]) last[1]++;
    else out.push([clusters[i], 1]);
  }
  return out;
}

/** Number of contiguous runs in a chain: the discard requests a batched delete issues. */
export function runsOf(clusters: Uint32Array): number {
  return chainRuns(clusters).length;
}

/** Runs as text: "2–17, 40" ("–" for none) */
export function formatRuns(rs: Run[]): string {
  return rs.length ? rs.map(([s, n]) => (n > 1 ? `${s}–${s + n - 1}` : `${s}`)).join(", ") : "–";
}
