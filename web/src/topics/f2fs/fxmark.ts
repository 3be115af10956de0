// The f2fs core's FxMark model (wasm/src/f2fs/fxmark.c): FxMark's unlink workloads on 1..N
// cores, simulated over the locks an F2FS unlink takes, upstream and with each CLUE technique
// (the same bits as the guest's /sys/fs/f2fs/<dev>/clue). The VM has one CPU; the scaling
// comes from here. The free-NID model is nid.ts.
import type { F2fsModule } from "@wasm/f2fs.mjs";
import { F2fsError } from "./f2fs-error";


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
// server (the CLUE paper, Hwang, Lee and Kim, Sogang University: Figure 4): upstream flat in both workloads; CLUE ~15x upstream in MWUL,
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

function costWords(m: F2fsModule, costs: F2fsCosts): number {
  const c = m._fx_malloc(9 * 4);
  const vals = [costs.vfs_ns, costs.unlink_ns, costs.check_ns, costs.bitmap_scan_ns, costs.heuristic_pct, costs.nat_scan_ns, costs.remote_ns, costs.cores_per_socket, costs.low_pct];
  m.HEAPU32.set(vals.map((v) => v >>> 0), c >>> 2);
  return c;
}

function fxmarkError(ret: number, cores: number, unlinksPerCore: number): F2fsError {
  return new F2fsError(ret === -28 ? "the simulation ran out of memory" : `refused: ${cores} cores x ${unlinksPerCore} unlinks with these costs (1..4096 cores, percentages <= 100)`);
}

/** out[16] of fx_f2fs_fxmark (and fx_f2fs_fxmark_trace) */
function resultOf(m: F2fsModule, out: number, workload: Workload, clue: number, cores: number): FxmarkResult {
  const r = m.HEAPF64.slice(out >>> 3, (out >>> 3) + 16);
  return {
    workload, clue, cores,
    seconds: r[0], unlinks_per_sec: r[1], unlinks: r[2],
    bitmap_scans: r[3], nat_scans: r[4], scans_skipped: r[5], nat_deferred: r[6],
    wait_ms: Object.fromEntries(LOCKS.map((k, i) => [k, r[7 + i] / 1e6])) as FxmarkResult["wait_ms"],
  };
}

export function fxmarkUnlink(m: F2fsModule, workload: Workload, clue: number, cores: number, unlinksPerCore: number, costs = FXMARK_COSTS, seed = 1): FxmarkResult {
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

export function fxmarkTrace(m: F2fsModule, workload: Workload, clue: number, cores: number, unlinksPerCore: number, opts: LockTraceOptions = {}, costs = FXMARK_COSTS, seed = 1): LockTrace {
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
