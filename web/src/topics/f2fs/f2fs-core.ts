// The f2fs core (wasm/src/f2fs): FxMark's unlink workloads on 1..N cores, simulated over
// the locks an F2FS unlink takes, upstream and with each CLUE technique (the same bits as
// the guest's /sys/fs/f2fs/<dev>/clue). The VM has one CPU; the scaling comes from here.
// Below it, the free-NID model: the scans themselves, record for record with the guest's.
import { nidScansOf, WORDS_PER_EVENT, type NidScan } from "../../shared/events";
import { allocU32 } from "../../shared/wasm-mem";

export type Workload = "MWUL" | "MWUM";

export interface F2fsCosts {
  vfs_ns: number;
  unlink_ns: number;
  check_ns: number;
  bitmap_scan_ns: number;
  heuristic_pct: number;
  nat_scan_ns: number;
  remote_ns: number;
  cores_per_socket: number;
  low_pct: number;
}

// Chosen, not measured: costs that give the CLUE paper's shape on its 120-core, 8-socket
// server (seed 004, Figure 4): upstream flat in both workloads; CLUE ~15x upstream in MWUL,
// scaling to one socket (15 cores) and falling back past it; ~3x in MWUM, flat, where the
// shared directory's lock serializes everything. Every unlink is taken to find the free-NID
// list below its threshold (low_pct 100), the regime the paper measured.
export const FXMARK_COSTS: F2fsCosts = {
  vfs_ns: 3000,
  unlink_ns: 4000,
  check_ns: 100,
  bitmap_scan_ns: 8000,
  heuristic_pct: 40,
  nat_scan_ns: 12000,
  remote_ns: 1500,
  cores_per_socket: 15,
  low_pct: 100,
};

export const LOCKS = ["dir", "build", "bitmap", "list"] as const;

export interface FxmarkResult {
  workload: Workload;
  clue: number;
  cores: number;
  seconds: number;
  unlinks_per_sec: number;
  unlinks: number;
  bitmap_scans: number;
  nat_scans: number;
  scans_skipped: number;
  nat_deferred: number;
  wait_ms: Record<(typeof LOCKS)[number], number>; // summed over cores
}

export class F2fsError extends Error {}

function costWords(m: any, costs: F2fsCosts): number {
  const c = m._fx_malloc(9 * 4);
  const vals = [costs.vfs_ns, costs.unlink_ns, costs.check_ns, costs.bitmap_scan_ns, costs.heuristic_pct, costs.nat_scan_ns, costs.remote_ns, costs.cores_per_socket, costs.low_pct];
  m.HEAPU32.set(vals.map((v) => v >>> 0), c >>> 2);
  return c;
}

function fxmarkError(ret: number, cores: number, unlinksPerCore: number): F2fsError {
  return new F2fsError(ret === -28 ? "the simulation ran out of memory" : `refused: ${cores} cores x ${unlinksPerCore} unlinks with these costs (1..4096 cores, percentages <= 100)`);
}

/** out[16] of fx_f2fs_fxmark (and fx_f2fs_fxmark_trace) */
function resultOf(m: any, out: number, workload: Workload, clue: number, cores: number): FxmarkResult {
  const r = m.HEAPF64.slice(out >>> 3, (out >>> 3) + 16);
  return {
    workload, clue, cores,
    seconds: r[0], unlinks_per_sec: r[1], unlinks: r[2],
    bitmap_scans: r[3], nat_scans: r[4], scans_skipped: r[5], nat_deferred: r[6],
    wait_ms: Object.fromEntries(LOCKS.map((k, i) => [k, r[7 + i] / 1e6])) as FxmarkResult["wait_ms"],
  };
}

export function fxmarkUnlink(m: any, workload: Workload, clue: number, cores: number, unlinksPerCore: number, costs = FXMARK_COSTS, seed = 1): FxmarkResult {
  const c = costWords(m, costs);
  const out = m._fx_malloc(16 * 8);
  try {
    const ret = m._fx_f2fs_fxmark(workload === "MWUM" ? 1 : 0, clue, cores, unlinksPerCore, c, seed, out);
    if (ret < 0) throw fxmarkError(ret, cores, unlinksPerCore);
    return resultOf(m, out, workload, clue, cores);
  } finally {
    m._fx_free(c);
    m._fx_free(out);
  }
}

// ---- Lock-wait timelines (struct f2fs_fxmark_trace in fslab/f2fs.h) ----
// The same run, with when each traced core waited for and held each lock. Spans nest: in
// MWUM the directory's i_rwsem is held (depth 0) around build_lock's wait and hold (depth 1);
// at one depth a core's spans never overlap; outside every span a core does its own work.

export type LockName = (typeof LOCKS)[number];

/** the kernel's names for the model's locks */
export const LOCK_LABELS: Record<LockName, string> = {
  dir: "i_rwsem (directory)",
  build: "build_lock",
  bitmap: "bitmap_scan_lock",
  list: "nid_list_lock",
};

export interface LockSpan {
  lock: LockName;
  kind: "wait" | "hold";
  depth: number; // locks the core held when it began
  from: number; // simulated ns
  to: number;
}

export interface CoreTimeline {
  core: number;
  socket: number; // core / cores_per_socket
  doneNs: number; // when it finished its last unlink
  spans: LockSpan[]; // by start, outer before inner
}

/** The bound on what a trace keeps, so 120 cores stay small: a window of simulated time,
 *  every `every`-th core (0, every, ...), at most `maxSpans` spans per traced core. */
export interface LockTraceOptions {
  fromNs?: number; // default 0
  untilNs?: number; // default TIMELINE_WINDOW_NS; Infinity: the whole run
  every?: number; // default timelineStride(cores)
  maxSpans?: number; // default TIMELINE_MAX_SPANS
}

export interface LockTrace {
  result: FxmarkResult; // equal to fxmarkUnlink's for the same scenario
  fromNs: number;
  untilNs: number;
  every: number;
  maxSpans: number;
  cores: CoreTimeline[];
  dropped: number; // spans in the window past a core's maxSpans, not kept
}

export const TIMELINE_ROWS = 16;
export const TIMELINE_WINDOW_NS = 250_000;
export const TIMELINE_MAX_SPANS = 512;

/** the stride that traces at most `rows` of `cores` cores */
export const timelineStride = (cores: number, rows = TIMELINE_ROWS): number => Math.max(1, Math.ceil(cores / rows));

const SPAN_WORDS = 5;

export function fxmarkTrace(m: any, workload: Workload, clue: number, cores: number, unlinksPerCore: number, opts: LockTraceOptions = {}, costs = FXMARK_COSTS, seed = 1): LockTrace {
  const fromNs = opts.fromNs ?? 0;
  const untilNs = opts.untilNs ?? TIMELINE_WINDOW_NS;
  const every = opts.every ?? timelineStride(cores);
  const maxSpans = opts.maxSpans ?? TIMELINE_MAX_SPANS;
  const traced = Math.ceil(cores / Math.max(1, every));
  const cap = 3 + traced * (4 + SPAN_WORDS * maxSpans);
  const c = costWords(m, costs);
  const win = m._fx_malloc(4 * 8);
  const out = m._fx_malloc(16 * 8);
  const words = m._fx_malloc(cap * 4);
  try {
    m.HEAPF64.set([fromNs, Number.isFinite(untilNs) ? untilNs : 0, every, maxSpans], win >>> 3);
    const n = m._fx_f2fs_fxmark_trace(workload === "MWUM" ? 1 : 0, clue, cores, unlinksPerCore, c, seed, win, out, words, cap);
    if (n < 0) {
      if (n === -22 && cores >= 1 && cores <= 4096) throw new F2fsError(`cannot trace every ${every} of ${cores} cores with ${maxSpans} spans each (at most 2^20 in all)`);
      throw fxmarkError(n, cores, unlinksPerCore);
    }
    const w = m.HEAPU32.slice(words >>> 2, (words >>> 2) + n) as Uint32Array;
    const u64 = (i: number) => w[i] + w[i + 1] * 2 ** 32;
    const rows: CoreTimeline[] = [];
    let i = 3;
    for (let k = 0; k < w[0]; k++) {
      const core = w[i];
      const len = w[i + 1];
      const doneNs = u64(i + 2);
      i += 4;
      const spans: LockSpan[] = [];
      for (let j = 0; j < len; j++, i += SPAN_WORDS) {
        const code = w[i];
        spans.push({ lock: LOCKS[code & 0xff], kind: (code >> 8) & 0xff ? "hold" : "wait", depth: code >>> 16, from: u64(i + 1), to: u64(i + 3) });
      }
      // the core lists them as they ended; a view reads them as they began
      spans.sort((a, b) => a.from - b.from || a.depth - b.depth);
      rows.push({ core, socket: Math.floor(core / costs.cores_per_socket), doneNs, spans });
    }
    return { result: resultOf(m, out, workload, clue, cores), fromNs, untilNs, every, maxSpans, cores: rows, dropped: u64(1) };
  } finally {
    m._fx_free(c);
    m._fx_free(win);
    m._fx_free(out);
    m._fx_free(words);
  }
}

export interface CoreTimelineTotals {
  core: number;
  socket: number;
  wait_us: Record<LockName, number>; // waited for each lock, inside the window
  holding_us: number; // held at least one lock
  working_us: number; // neither: its own work (until it finished)
}

/** Per traced core, what the window shows added up: the view's table. Depth-0 spans never
 *  overlap, so a core's window splits into waiting, holding and its own work. */
export function timelineTotals(t: LockTrace): CoreTimelineTotals[] {
  const end = Math.min(t.untilNs, t.result.seconds * 1e9);
  const clip = (s: { from: number; to: number }) => Math.max(0, Math.min(s.to, end) - Math.max(s.from, t.fromNs));
  return t.cores.map((c) => {
    const wait_us = Object.fromEntries(LOCKS.map((l) => [l, 0])) as Record<LockName, number>;
    let waiting = 0;
    let holding = 0;
    for (const s of c.spans) {
      const d = clip(s);
      if (s.kind === "wait") wait_us[s.lock] += d / 1e3;
      if (s.depth === 0) {
        if (s.kind === "wait") waiting += d;
        else holding += d;
      }
    }
    const alive = Math.max(0, Math.min(c.doneNs, end) - t.fromNs);
    return { core: c.core, socket: c.socket, wait_us, holding_us: holding / 1e3, working_us: (alive - waiting - holding) / 1e3 };
  });
}

// ---- The free-NID model (wasm/src/f2fs/nid.c, fslab/f2fs_nid.h) ----
// F2FS's free node IDs after fs/f2fs/node.c with our CLUE patch, one caller at a time: the
// NAT's blocks (loaded or not, their free-NID bitmaps and counts), the free-NID list, and
// the scans that refill it. Its F2FS_NID_SCAN records carry the fields of the guest's
// f2fs_free_nid_scan tracepoint, so a model run and a kernel trace compare record by record.

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

function nidError(ret: number, what: string): F2fsError {
  if (ret === -28) return new F2fsError(`${what}: no free NID left (available_nids is 0)`);
  if (ret === -22) return new F2fsError(`${what}: refused (a NID without a node, a clue mask over 7, or an unknown op)`);
  return new F2fsError(`${what}: failed (${ret})`);
}

export class NidModel {
  private nm: number;

  /** mkfs.f2fs's NAT, mounted: the mount's NAT entry scan is the first record */
  constructor(private m: any, opts: NidModelOptions = {}) {
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
    const words = ops.flatMap((o): number[] => {
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
    const p = this.m._fx_malloc(16 * 4);
    try {
      this.m._fx_f2fs_nid_stats(this.nm, p);
      const s = this.m.HEAPU32.slice(p >>> 2, (p >>> 2) + 16);
      return {
        natBlocks: s[0], maxNid: s[1], clue: s[2], free: s[3], prealloc: s[4], availableNids: s[5],
        nextScanNid: s[6], nextBitmapBlk: s[7], natScanDeferred: s[8] !== 0, validNodes: s[9], dirtyNat: s[10],
        counters: { bitmap_scans: s[11], nat_scans: s[12], scans_skipped: s[13], nat_deferred: s[14], nids_scanned: s[15] },
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

export function nidModel(m: any, opts: NidModelOptions = {}): NidModel {
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
export function nidRun(m: any, opts: NidModelOptions, ops: NidOp[]): NidRun {
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
export function nidFrames(m: any, opts: NidModelOptions, steps: { step: string; ops: NidOp[] }[]): NidFrame[] {
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
  const fill: NidOp[] = [{ op: "alloc", n: 1 }]; // mkdir
  for (let i = every; i <= files; i += every) fill.push({ op: "alloc", n: every }, { op: "sync" });
  if (files % every) fill.push({ op: "alloc", n: files % every });
  fill.push({ op: "sync" });
  return [...fill, { op: "unlink", nid: 0, count: natBlocks * NAT_ENTRY_PER_BLOCK }, { op: "sync" }, { op: "shrink" }, ...fill];
}
