// The f2fs core's free-NID model (wasm/src/f2fs/nid.c, fslab/f2fs_nid.h).
// F2FS's free node IDs after fs/f2fs/node.c with our CLUE patch, one caller at a time: the
// NAT's blocks (loaded or not, their free-NID bitmaps and counts), the free-NID list, and
// the scans that refill it. Its F2FS_NID_SCAN records carry the fields of the guest's
// f2fs_free_nid_scan tracepoint, so a model run and a kernel trace compare record by record.
import type { F2fsModule } from "@wasm/f2fs.mjs";
import { WORDS_PER_EVENT } from "../../shared/events";
import { nidScansOf, type NidScan } from "./events";
import { allocU32 } from "../../shared/wasm-mem";
import { F2fsError } from "./f2fs-error";

export const NAT_ENTRY_PER_BLOCK = 455; // 4096 / sizeof(struct f2fs_nat_entry)
export const FREE_NID_PAGES = 8; // NAT blocks one NAT entry scan reads
export const MAX_FREE_NIDS = NAT_ENTRY_PER_BLOCK * FREE_NID_PAGES; // the shrinker's floor: 3640
export const NID_BITMAP_BYTES = 64; // one NAT block's free_nid_bitmap in the model (455 bits)
/** NAT blocks of the guest's 256 MiB volume (mkfs.f2fs 1.15: one NAT segment of 512 blocks) */
export const GUEST_NAT_BLOCKS = 512;
/** f2fs_balance_fs_bg calls a `sync` makes in the guest before its checkpoint: its writeback
 *  calls f2fs_write_node_pages 3 times, sometimes 4 (traced with 500 and 3300 dirty inodes).
 *  Only a short list under CLUE's lazy update shows them: each repeats the bitmap scan. */
export const SYNC_BG_CALLS = 3;
/** fslab-bench's syncer loop (`sync` back to back while the four writers run) as one sync
 *  every this many creates: a stand-in, not a measurement. Two traced runs of the bench (4000
 *  files) saw the refill's bitmap scan begin with 376 and 386 NIDs listed, i.e. within 80
 *  creates after the list fell under NAT_ENTRY_PER_BLOCK. */
export const SYNCER_EVERY = 50;

export interface NidModelOptions {
  natBlocks?: number; // default GUEST_NAT_BLOCKS; 1..4096
  clue?: number; // F2FS_CLUE_* mask, 0 = upstream
  ramPages?: number; // RAM in 4 KiB pages (the free-NID list's memory share); default the guest's 256 MiB
}

/** /sys/fs/f2fs/<dev>/clue_* */
export interface ClueCounters {
  bitmap_scans: number;
  nat_scans: number;
  scans_skipped: number;
  nat_deferred: number;
  nids_scanned: number; // bitmap bits walked and NAT entries read
  walks_avoided: number; // lazy update: background bitmap walks skipped (nothing new to find)
}

/** What a view draws: per NAT block arrays and the free-NID machinery's cursors. */
export interface NidState {
  natBlocks: number;
  maxNid: number;
  clue: number;
  free: number; // the free-NID list's length (nid_cnt[FREE_NID])
  prealloc: number; // nid_cnt[PREALLOC_NID]: 0 between operations
  availableNids: number;
  nextScanNid: number; // where the next NAT entry scan starts (rounded down to its block)
  nextBitmapBlk: number; // where CLUE's heuristic bitmap scan starts
  natScanDeferred: boolean; // CLUE lazy: a NAT entry scan owed to the next checkpoint
  validNodes: number;
  dirtyNat: number; // NAT entries changed since the last checkpoint
  counters: ClueCounters;
  blocks: {
    loaded: Uint8Array; // 1: read by a NAT entry scan (nat_block_bitmap)
    freeCount: Uint16Array; // free_nid_count: bits set in the block's free_nid_bitmap
    bitmap: Uint8Array; // NID_BITMAP_BYTES per block, bit i (little-endian) = the block's NID i
    listed: Uint32Array; // NIDs in the free list
    used: Uint32Array; // NIDs holding a node
    dirty: Uint32Array; // NAT entries changed since the last checkpoint
  };
}

/** One step of a script. unlink frees every NID holding a node in [nid, nid + count). */
export type NidOp =
  | { op: "alloc"; n?: number }
  | { op: "allocFailed"; n?: number }
  | { op: "unlink"; nid: number; count?: number }
  | { op: "background"; n?: number } // f2fs_balance_fs_bg's free-NID part
  | { op: "checkpoint" }
  | { op: "shrink"; nr?: number } // f2fs_try_to_free_nids; default: down to MAX_FREE_NIDS
  | { op: "sync"; bg?: number } // bg calls of f2fs_balance_fs_bg (node writeback's), then a checkpoint
  | { op: "clue"; mask: number }
  | { op: "resetCounters" };

const OP_CODE: Record<NidOp["op"], number> = { alloc: 1, allocFailed: 2, unlink: 3, background: 4, checkpoint: 5, shrink: 6, sync: 7, clue: 8, resetCounters: 9 };
const U32_MAX = 0xffffffff;

/** A script as f2fs_nm_run()'s words: three per operation (fslab/f2fs_nid.h's NID_OP_*, a, b). */
export function nidOpWords(ops: readonly NidOp[]): number[] {
  return ops.flatMap((o): number[] => {
    switch (o.op) {
      case "alloc":
      case "allocFailed":
      case "background":
        return [OP_CODE[o.op], o.n ?? 1, 0];
      case "unlink":
        return [OP_CODE.unlink, o.nid, o.count ?? 1];
      case "shrink":
        return [OP_CODE.shrink, o.nr ?? U32_MAX, 0];
      case "clue":
        return [OP_CODE.clue, o.mask, 0];
      case "sync":
        return [OP_CODE.sync, o.bg ?? SYNC_BG_CALLS, 0];
      default:
        return [OP_CODE[o.op], 0, 0];
    }
  });
}

function nidError(ret: number, what: string): F2fsError {
  if (ret === -28) return new F2fsError(`${what}: no free NID left (available_nids is 0)`);
  if (ret === -22) return new F2fsError(`${what}: refused (a NID without a node, a clue mask over 7, or an unknown op)`);
  return new F2fsError(`${what}: failed (${ret})`);
}

export class NidModel {
  private nm: number;

  /** mkfs.f2fs's NAT, mounted: the mount's NAT entry scan is the first record */
  constructor(private m: F2fsModule, opts: NidModelOptions = {}) {
    const blocks = opts.natBlocks ?? GUEST_NAT_BLOCKS;
    this.nm = m._fx_f2fs_nid_new(blocks, opts.clue ?? 0, opts.ramPages ?? 0);
    if (!this.nm) throw new F2fsError(`cannot model ${blocks} NAT blocks with clue ${opts.clue} (1..4096 blocks, clue 0..7)`);
  }

  dispose(): void {
    if (this.nm) this.m._fx_f2fs_nid_free(this.nm);
    this.nm = 0;
  }

  /** a create: its NID */
  alloc(): number {
    const r = this.m._fx_f2fs_nid_alloc(this.nm);
    if (r < 0) throw nidError(r, "alloc");
    return r;
  }

  /** a create that fails after taking a NID (f2fs_alloc_nid_failed): the NID it gave back */
  allocFailed(): number {
    const r = this.m._fx_f2fs_nid_alloc_failed(this.nm);
    if (r < 0) throw nidError(r, "allocFailed");
    return r;
  }

  /** unlink: the NID's node truncated; it is free again after the next checkpoint */
  free(nid: number): void {
    const r = this.m._fx_f2fs_nid_unlink(this.nm, nid);
    if (r < 0) throw nidError(r, `free(${nid})`);
  }

  background(): void {
    this.m._fx_f2fs_nid_background(this.nm);
  }

  checkpoint(): void {
    this.m._fx_f2fs_nid_checkpoint(this.nm);
  }

  /** f2fs_try_to_free_nids(nr): NIDs dropped from the list (never below MAX_FREE_NIDS) */
  shrink(nr = U32_MAX): number {
    return this.m._fx_f2fs_nid_shrink(this.nm, nr >>> 0) >>> 0;
  }

  sync(bg = SYNC_BG_CALLS): void {
    for (let i = 0; i < bg; i++) this.background();
    this.checkpoint();
  }

  setClue(mask: number): void {
    const r = this.m._fx_f2fs_nid_set_clue(this.nm, mask);
    if (r < 0) throw nidError(r, `clue ${mask}`);
  }

  resetCounters(): void {
    this.m._fx_f2fs_nid_reset_counters(this.nm);
  }

  /** runs a script in the core in one call; throws at the first op that fails, naming it */
  run(ops: NidOp[]): void {
    const words = nidOpWords(ops);
    const p = allocU32(this.m, words);
    const done = this.m._fx_malloc(4);
    try {
      const r = this.m._fx_f2fs_nid_run(this.nm, p, ops.length, done);
      if (r < 0) {
        const k = this.m.HEAPU32[done >>> 2];
        throw nidError(r, `op ${k} (${JSON.stringify(ops[k])})`);
      }
    } finally {
      this.m._fx_free(p);
      this.m._fx_free(done);
    }
  }

  /** the F2FS_NID_SCAN records since the last call (the stream is then emptied) */
  takeEvents(): Uint32Array {
    const len = this.m._fx_f2fs_nid_events_len(this.nm);
    if (len < 0) throw new F2fsError("the event stream ran out of memory");
    const p = this.m._fx_f2fs_nid_events_ptr(this.nm) >>> 2;
    const out = this.m.HEAPU32.slice(p, p + len * WORDS_PER_EVENT);
    this.m._fx_f2fs_nid_events_clear(this.nm);
    return out;
  }

  /** the free-NID list from its head (the next NID a create takes) */
  freeList(max = U32_MAX): Uint32Array {
    const n = Math.min(max, this.stats().free);
    const p = this.m._fx_malloc(Math.max(1, n) * 4);
    try {
      const got = this.m._fx_f2fs_nid_free_list(this.nm, p, n);
      return this.m.HEAPU32.slice(p >>> 2, (p >>> 2) + got);
    } finally {
      this.m._fx_free(p);
    }
  }

  counters(): ClueCounters {
    return this.stats().counters;
  }

  private stats(): Omit<NidState, "blocks"> {
    const p = this.m._fx_malloc(17 * 4);
    try {
      this.m._fx_f2fs_nid_stats(this.nm, p);
      const s = this.m.HEAPU32.slice(p >>> 2, (p >>> 2) + 17);
      return {
        natBlocks: s[0], maxNid: s[1], clue: s[2], free: s[3], prealloc: s[4], availableNids: s[5],
        nextScanNid: s[6], nextBitmapBlk: s[7], natScanDeferred: s[8] !== 0, validNodes: s[9], dirtyNat: s[10],
        counters: { bitmap_scans: s[11], nat_scans: s[12], scans_skipped: s[13], nat_deferred: s[14], nids_scanned: s[15], walks_avoided: s[16] },
      };
    } finally {
      this.m._fx_free(p);
    }
  }

  state(): NidState {
    const s = this.stats();
    const n = s.natBlocks;
    const loaded = this.m._fx_f2fs_nid_loaded_ptr(this.nm);
    const count = this.m._fx_f2fs_nid_free_count_ptr(this.nm) >>> 1;
    const bitmap = this.m._fx_f2fs_nid_bitmap_ptr(this.nm);
    const c = this.m._fx_malloc(n * 3 * 4);
    try {
      this.m._fx_f2fs_nid_block_counts(this.nm, c);
      const counts = this.m.HEAPU32.slice(c >>> 2, (c >>> 2) + 3 * n) as Uint32Array;
      const column = (k: number) => Uint32Array.from({ length: n }, (_, i) => counts[3 * i + k]);
      return {
        ...s,
        blocks: {
          loaded: this.m.HEAPU8.slice(loaded, loaded + n),
          freeCount: this.m.HEAPU16.slice(count, count + n),
          bitmap: this.m.HEAPU8.slice(bitmap, bitmap + n * NID_BITMAP_BYTES),
          listed: column(0),
          used: column(1),
          dirty: column(2),
        },
      };
    } finally {
      this.m._fx_free(c);
    }
  }
}

export function nidModel(m: F2fsModule, opts: NidModelOptions = {}): NidModel {
  return new NidModel(m, opts);
}

/**
 * fslab-bench's f2fs-clue workload (kernel-image/rootfs/overlay/usr/local/bin/fslab-bench) as
 * a script in steps, one caller at a time: counters reset after the mount; mkdir and `files`
 * creates with a sync every 500; rm -rf and a sync; drop_caches (the shrinker trims the list
 * to MAX_FREE_NIDS); four writers' mkdirs and files/4 creates each, a sync per writer every
 * 500 (how they interleave does not change which NIDs the creates take), and the bench's
 * syncer loop as a sync every `syncerEvery` creates (0: none); rm -rf and a sync. Not in it:
 * periodic writeback, the GC thread, and any NID an operation takes besides one per inode.
 */
export function benchWorkloadSteps(files: number, maxNid: number, bgPerSync = SYNC_BG_CALLS, syncerEvery = SYNCER_EVERY): { step: string; ops: NidOp[] }[] {
  const sync: NidOp = { op: "sync", bg: bgPerSync };
  const fill: NidOp[] = [{ op: "resetCounters" }, { op: "alloc", n: 1 }];
  for (let i = 500; i <= files; i += 500) fill.push({ op: "alloc", n: 500 }, sync);
  fill.push({ op: "alloc", n: files % 500 }, sync);
  // the refill's creates, cut at each writer's 500th (four syncs: the writers run abreast)
  // and at the syncer's
  const each = Math.floor(files / 4);
  const refill: NidOp[] = [{ op: "alloc", n: 4 }];
  const cuts = new Map<number, number>(); // create count -> syncs after it
  for (let i = 500; i <= each; i += 500) cuts.set(4 * i, 4);
  if (syncerEvery > 0) for (let c = syncerEvery; c <= 4 * each; c += syncerEvery) cuts.set(c, (cuts.get(c) ?? 0) + 1);
  let done = 0;
  for (const c of [...cuts.keys()].sort((a, b) => a - b)) {
    refill.push({ op: "alloc", n: c - done });
    for (let k = 0; k < cuts.get(c)!; k++) refill.push(sync);
    done = c;
  }
  refill.push({ op: "alloc", n: 4 * each - done });
  const rmAll: NidOp[] = [{ op: "unlink", nid: 0, count: maxNid }, sync];
  return [
    { step: `fill: mkdir, ${files} creates, sync every 500`, ops: fill },
    { step: "rm -rf, sync", ops: rmAll },
    { step: "drop_caches: the shrinker", ops: [{ op: "shrink" }] },
    { step: `refill: 4 writers x ${each} creates, each syncs every 500${syncerEvery ? `, the syncer every ${syncerEvery} creates` : ""}`, ops: refill },
    { step: "rm -rf, sync", ops: rmAll },
  ];
}

export function benchWorkload(files: number, maxNid: number, bgPerSync = SYNC_BG_CALLS, syncerEvery = SYNCER_EVERY): NidOp[] {
  return benchWorkloadSteps(files, maxNid, bgPerSync, syncerEvery).flatMap((s) => s.ops);
}

export interface NidRun {
  clue: number;
  events: Uint32Array; // the mount's NAT scan first
  scans: NidScan[];
  counters: ClueCounters; // since the reset after the mount, as fslab-bench reports them
  state: NidState;
}

/** A fresh model through a script: what the CLI prints and a view draws. */
export function nidRun(m: F2fsModule, opts: NidModelOptions, ops: NidOp[]): NidRun {
  const model = new NidModel(m, opts);
  try {
    model.run(ops);
    const events = model.takeEvents();
    const state = model.state();
    return { clue: state.clue, events, scans: nidScansOf(events), counters: state.counters, state };
  } finally {
    model.dispose();
  }
}

/** The model after an operation that scanned: what a step of the NAT view shows. */
export interface NidFrame {
  step: string; // the workload step it belongs to
  op: NidOp | null; // null: the mount
  scans: NidScan[]; // the scans this operation made (the mount's, for the first frame)
  state: Omit<NidState, "blocks"> & { loaded: Uint8Array; freeCount: Uint16Array };
}

/**
 * Runs a workload in steps (benchWorkloadSteps) one operation at a time, keeping a frame
 * after each operation that scanned: the scans and the per-block state they left. The bitmap
 * bytes are left out (a view draws free_nid_count per block), so a frame is ~1.5 KiB.
 */
export function nidFrames(m: F2fsModule, opts: NidModelOptions, steps: { step: string; ops: NidOp[] }[]): NidFrame[] {
  const model = new NidModel(m, opts);
  const frames: NidFrame[] = [];
  const keep = (step: string, op: NidOp | null) => {
    const scans = nidScansOf(model.takeEvents());
    if (!scans.length) return;
    const { blocks, ...rest } = model.state();
    frames.push({ step, op, scans, state: { ...rest, loaded: blocks.loaded, freeCount: blocks.freeCount } });
  };
  try {
    keep("mount", null);
    for (const s of steps)
      for (const op of s.ops) {
        // a batch of creates is one operation in the script; split it so each scan is its own frame
        if ((op.op === "alloc" || op.op === "allocFailed") && (op.n ?? 1) > 1) {
          for (let i = 0; i < (op.n ?? 1); i++) {
            model.run([{ op: op.op }]);
            keep(s.step, { op: op.op });
          }
        } else {
          model.run([op]);
          keep(s.step, op);
        }
      }
    return frames;
  } finally {
    model.dispose();
  }
}

/**
 * The f2fs-clue lab's steps (labs/f2fs-clue/lab.md), one shell, one writer, after a fresh
 * mkfs and mount: `files` creates in a new directory with a sync after every `every`, a sync;
 * rm -rf and a sync; drop_caches (the shrinker); the same creates again.
 */
export function oneWriterScript(files = 4000, every = 500, natBlocks = GUEST_NAT_BLOCKS): NidOp[] {
  const fill = createsScript(files, every);
  return [...fill, { op: "unlink", nid: 0, count: natBlocks * NAT_ENTRY_PER_BLOCK }, { op: "sync" }, { op: "shrink" }, ...fill];
}

/** `mkdir d; for i in $(seq 1 files); do : > d/f$i; [ $((i % every)) = 0 ] && sync; done; sync` */
export function createsScript(files: number, every: number): NidOp[] {
  const fill: NidOp[] = [{ op: "alloc", n: 1 }]; // mkdir
  for (let i = every; i <= files; i += every) fill.push({ op: "alloc", n: every }, { op: "sync" });
  if (files % every) fill.push({ op: "alloc", n: files % every });
  fill.push({ op: "sync" });
  return fill;
}
