// The blk core (wasm/src/blk): blk-mq dispatch with none, mq-deadline or kyber in simulated
// time, driven by fio-like jobs (or a recorded trace: blk-trace.ts). One call runs a whole scenario and returns typed arrays
// (transferable from a worker) plus a summary; the CLI (`fslab simulate blk`), tests and page
// share it.
import type { BlkModule } from "@wasm/blk.mjs";
import { allocU32 } from "../../shared/wasm-mem";
import { parseKyberTrace, type KyberTimerRun } from "./kyber";


export type Scheduler = "none" | "mq-deadline" | "kyber" | "bfq";
export const SCHEDULERS: readonly Scheduler[] = ["none", "mq-deadline", "kyber", "bfq"];
/** fx_blk_new's `sched` */
/** fx_blk_new's and fx_blk_new_trace's `sched` argument */
export const SCHED_CODE: Record<Scheduler, number> = { none: 0, "mq-deadline": 1, kyber: 2, bfq: 3 };

/** /sys/block/<dev>/queue/iosched/ for mq-deadline, with the kernel's defaults */
export interface DdTunables {
  read_expire_ms: number;
  write_expire_ms: number;
  prio_aging_expire_ms: number;
  writes_starved: number;
  fifo_batch: number;
}
export const DD_DEFAULTS: DdTunables = { read_expire_ms: 500, write_expire_ms: 5000, prio_aging_expire_ms: 10000, writes_starved: 2, fifo_batch: 16 };

/** /sys/block/<dev>/queue/iosched/ for kyber: the latency targets, with the kernel's defaults */
export interface KyberTunables {
  read_lat_nsec: number;
  write_lat_nsec: number;
}
export const KYBER_DEFAULTS: KyberTunables = { read_lat_nsec: 2_000_000, write_lat_nsec: 10_000_000 };

/** service time = base + sectors * per_sector + min(|seek|, seek_max) * per_seek_sector */
export interface BlkDevice {
  label: string;
  queue_depth: number; // driver tags
  channels: number; // requests served at once
  base_ns: number;
  per_sector_ns: number;
  seek_max_sectors: number;
  per_seek_sector_ns: number;
  capacity_sectors: number;
}

// Rough shapes, not any one product: a fast SSD and an SD card as in the blog series "Linuxカーネルのファイルアクセスの処理を追いかける"'s
// Raspberry Pi measurements, and a disk whose seeks make sector order matter.
export const DEVICES: Record<"ssd" | "sdcard" | "hdd", BlkDevice> = {
  ssd: { label: "NVMe-class SSD: 32 tags, 8 channels, ~3 GB/s", queue_depth: 32, channels: 8, base_ns: 20_000, per_sector_ns: 1_300, seek_max_sectors: 0, per_seek_sector_ns: 0, capacity_sectors: 2 ** 31 },
  sdcard: { label: "SD card: 2 tags, one at a time, ~40 MB/s, slow random access", queue_depth: 2, channels: 1, base_ns: 300_000, per_sector_ns: 12_000, seek_max_sectors: 2 ** 20, per_seek_sector_ns: 2, capacity_sectors: 2 ** 26 },
  hdd: { label: "disk: 1 tag, ~150 MB/s, up to 8 ms seeks", queue_depth: 1, channels: 1, base_ns: 100_000, per_sector_ns: 3_400, seek_max_sectors: 2 ** 21, per_seek_sector_ns: 3.8, capacity_sectors: 2 ** 31 },
};

export interface BlkJob {
  iodepth: number;
  bs_sectors: number;
  ios: number;
  random: boolean;
  write_pct: number; // 0 reads, 100 writes
  ioprio_class: number; // 0 none, 1 RT, 2 BE, 3 IDLE
  offset: number; // sectors
  span: number; // sectors
}

export interface FioPattern {
  numjobs: number;
  iodepth: number;
  bs: number; // bytes
  rw: "read" | "write" | "randread" | "randwrite" | "randrw";
  size: number; // bytes per job
}

/** fio's jobs: each job its own region of `size` bytes, one after the other on the device */
export function fioJobs(p: FioPattern): BlkJob[] {
  const bs = Math.max(1, Math.floor(p.bs / 512));
  const span = Math.max(bs, Math.floor(p.size / 512));
  return Array.from({ length: p.numjobs }, (_, j) => ({
    iodepth: p.iodepth,
    bs_sectors: bs,
    ios: Math.max(1, Math.floor(span / bs)),
    random: p.rw.startsWith("rand"),
    write_pct: p.rw === "randrw" ? 50 : p.rw.includes("write") ? 100 : 0,
    ioprio_class: 0,
    offset: j * span,
    span,
  }));
}

export interface BlkScenario {
  sched: Scheduler;
  device: BlkDevice;
  jobs: BlkJob[];
  tunables?: DdTunables;
  kyber?: KyberTunables;
  hz?: number; // jiffies per second (Debian: 250)
  seed?: number;
}

/** Per request, in submission order: */
export const ROW = { job: 0, op: 1, prio: 2, sector: 3, sectors: 4, insert_us: 5, dispatch_us: 6, complete_us: 7 } as const;
export const ROW_WIDTH = 8;

export interface OpStats {
  requests: number;
  mean_us: number;
  p99_us: number;
  max_us: number;
}
export interface BlkSummary {
  sched: Scheduler;
  requests: number;
  elapsed_ms: number;
  mb_per_s: number;
  read: OpStats;
  write: OpStats;
  seek_sectors: number; // distance the device head travelled between dispatched requests
}

export interface BlkResult {
  rows: Float64Array; // ROW_WIDTH per request
  order: Uint32Array; // request indices in dispatch order
  summary: BlkSummary;
  kyber?: KyberTimerRun[]; // kyber: every run of its timer
}

export class BlkError extends Error {}

/** count, mean, p99 (nearest rank) and max of a list of µs */
export function stats(lat: number[]): OpStats {
  if (!lat.length) return { requests: 0, mean_us: 0, p99_us: 0, max_us: 0 };
  const s = [...lat].sort((a, b) => a - b);
  return {
    requests: s.length,
    mean_us: s.reduce((a, b) => a + b, 0) / s.length,
    p99_us: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))],
    max_us: s[s.length - 1],
  };
}

export function summarize(sched: Scheduler, rows: Float64Array, order: Uint32Array): BlkSummary {
  const n = rows.length / ROW_WIDTH;
  const lat: number[][] = [[], []];
  let end = 0;
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const r = i * ROW_WIDTH;
    lat[rows[r + ROW.op] === 1 ? 1 : 0].push(rows[r + ROW.complete_us] - rows[r + ROW.insert_us]);
    end = Math.max(end, rows[r + ROW.complete_us]);
    bytes += rows[r + ROW.sectors] * 512;
  }
  let head = 0;
  let seek = 0;
  for (const i of order) {
    const sector = rows[i * ROW_WIDTH + ROW.sector];
    seek += Math.abs(sector - head);
    head = sector + rows[i * ROW_WIDTH + ROW.sectors];
  }
  return { sched, requests: n, elapsed_ms: end / 1000, mb_per_s: end ? bytes / end : 0, read: stats(lat[0]), write: stats(lat[1]), seek_sectors: seek };
}

/** tun[7] of wasm/src/blk/exports.c in wasm memory (free it with _fx_free): mq-deadline's tunables, then kyber's targets. */
export function allocTunables(m: BlkModule, t: DdTunables, k: KyberTunables): number {
  return allocU32(m, tunableWords(t, k));
}

/** tun[7] of wasm/src/blk/exports.c: mq-deadline's five tunables, then kyber's two targets. */
export function tunableWords(t: DdTunables, k: KyberTunables): number[] {
  for (const ns of [k.read_lat_nsec, k.write_lat_nsec]) {
    if (!Number.isInteger(ns) || ns < 0 || ns >= 2 ** 32) throw new BlkError("kyber's latency targets are whole nanoseconds below 2^32 (4.29 s)");
  }
  return [t.read_expire_ms, t.write_expire_ms, t.prio_aging_expire_ms, t.writes_starved, t.fifo_batch, k.read_lat_nsec, k.write_lat_nsec];
}

/** dev[7] of wasm/src/blk/exports.c in wasm memory (free it with _fx_free). */
export function allocDevice(m: BlkModule, d: BlkDevice): number {
  return allocU32(m, deviceWords(d));
}

/** dev[7] of wasm/src/blk/exports.c (the seek cost in thousandths of a ns). */
export function deviceWords(d: BlkDevice): number[] {
  return [d.queue_depth, d.channels, d.base_ns, d.per_sector_ns, d.seek_max_sectors, Math.round(d.per_seek_sector_ns * 1000), Math.min(d.capacity_sectors, 2 ** 32 - 1)];
}

/** A simulation ready to run (free it with _fx_blk_free): the scenario marshalled as flat
 *  u32 arrays for fx_blk_new (wasm/src/blk/exports.c). */
export function newBlkSim(m: BlkModule, sc: BlkScenario): number {
  const t = sc.tunables ?? DD_DEFAULTS;
  const k = sc.kyber ?? KYBER_DEFAULTS;
  const d = sc.device;
  for (const j of sc.jobs) {
    if (j.span > 2 ** 32 || j.offset > 2 ** 32) throw new BlkError("job regions beyond 2 TiB are not supported");
  }
  const tun = allocTunables(m, t, k);
  const dev = allocDevice(m, d);
  const jobs = allocU32(m, sc.jobs.flatMap((j) => [j.iodepth, j.bs_sectors, j.ios, j.random ? 1 : 0, j.write_pct, j.ioprio_class, j.offset, j.span, 0]));
  const sim = m._fx_blk_new(SCHED_CODE[sc.sched], tun, dev, jobs, sc.jobs.length, sc.hz ?? 250, sc.seed ?? 1);
  m._fx_free(tun);
  m._fx_free(dev);
  m._fx_free(jobs);
  if (!sim) throw new BlkError("the scenario was refused: no jobs, no requests, or a device without tags or channels");
  return sim;
}

export function simulateBlk(m: BlkModule, sc: BlkScenario): BlkResult {
  const sim = newBlkSim(m, sc);
  try {
    return readBlkResult(m, sim, sc.sched, m._fx_blk_run(sim));
  } finally {
    m._fx_blk_free(sim);
  }
}

/** A finished run's rows, order and summary, copied out of wasm memory (ret: fx_blk_run's). */
export function readBlkResult(m: BlkModule, sim: number, sched: Scheduler, ret: number): BlkResult {
  if (ret < 0) throw new BlkError("the simulation ran out of memory");
  const n = m._fx_blk_count(sim);
  const rowsPtr = m._fx_blk_rows(sim);
  if (!rowsPtr) throw new BlkError("the simulation ran out of memory");
  const rows = m.HEAPF64.slice(rowsPtr >>> 3, (rowsPtr >>> 3) + n * ROW_WIDTH);
  m._fx_free(rowsPtr);
  const op = m._fx_blk_order(sim) >>> 2;
  const order = m.HEAPU32.slice(op, op + n);
  const result: BlkResult = { rows, order, summary: summarize(sched, rows, order) };
  if (sched === "kyber") result.kyber = parseKyberTrace(readWords(m, m._fx_blk_kyber_trace, sim));
  return result;
}

/** A whole "words" export (fx_blk_state and its kind: (sim, out, cap) -> words needed), copied out. */
function readWords(m: BlkModule, fn: (sim: number, out: number, cap: number) => number, sim: number): Uint32Array {
  const n = fn(sim, 0, 0);
  const buf = m._fx_malloc(Math.max(1, n) * 4);
  if (!buf) throw new BlkError("out of memory for the scheduler's state");
  try {
    fn(sim, buf, n);
    return m.HEAPU32.slice(buf >>> 2, (buf >>> 2) + n);
  } finally {
    m._fx_free(buf);
  }
}

export interface DdList {
  fifo: Array<{ rq: number; deadline: number }>; // oldest first; deadline = rq->fifo_time, jiffies
  sorted: number[]; // by sector
}

/** The scheduler and the queue after one step (wasm/src/blk/exports.c fx_blk_state). */
export interface DdState {
  nowUs: number;
  jiffies: number;
  batching: number;
  starved: number;
  lastDir: number; // 0 read, 1 write
  tagsUsed: number;
  inService: number;
  fifoBatch: number;
  writesStarved: number;
  lists: DdList[][]; // [prio: RT, BE, IDLE][dir: READ, WRITE]
  dispatched: number[]; // given to the driver, not completed
  noneQueue: number[]; // "none": waiting for a tag
  because: number; // why the last dispatch took its direction: DD_BECAUSE (blk-trace.ts) index
  pick: number; // and its request: DD_PICK index
}

export const DD_PRIOS = ["RT", "BE", "IDLE"] as const;
export const DD_DIRS = ["read", "write"] as const;

export function parseDdState(w: Uint32Array): DdState {
  let o = 11;
  const take = (pairs: boolean) => {
    const n = w[o++];
    const out = Array.from({ length: n }, (_, i) => (pairs ? w[o + 2 * i] : w[o + i]));
    const deadlines = pairs ? Array.from({ length: n }, (_, i) => w[o + 2 * i + 1]) : [];
    o += pairs ? 2 * n : n;
    return { out, deadlines };
  };
  const lists = DD_PRIOS.map(() =>
    DD_DIRS.map(() => {
      const f = take(true);
      return { fifo: f.out.map((rq, i) => ({ rq, deadline: f.deadlines[i] })), sorted: take(false).out };
    }),
  );
  const dispatched = take(false).out;
  const noneQueue = take(false).out;
  const because = w[o++];
  const pick = w[o++];
  return {
    nowUs: w[0], jiffies: w[1], batching: w[2], starved: w[3], lastDir: w[4], tagsUsed: w[5], inService: w[6], fifoBatch: w[7], writesStarved: w[8],
    lists, dispatched, noneQueue, because, pick,
  };
}

/** One source of mq-deadline states for the DeadlineQueues view: the model's steps (modelDdTimeline) or the kernel's decisions (dd-kernel.ts). */
export interface DdTimeline {
  source: "model" | "kernel";
  steps: number;
  at(k: number): DdState; // after step k
  op(rq: number): 0 | 1; // 0 read, 1 write
  sector(rq: number): number;
  hz: number;
  finished: boolean; // the steps are the whole run
  /** kernel: the request the kernel dispatched at step k */
  dispatched?(k: number): number;
}

/** The model's steps as a timeline: each step a completion and what it set off. */
export function modelDdTimeline(steps: BlkSteps, hz = 250): DdTimeline {
  const row = (rq: number, f: number) => steps.rows[rq * ROW_WIDTH + f];
  return {
    source: "model",
    steps: steps.offsets.length - 1,
    at: (k) => parseDdState(steps.words.subarray(steps.offsets[k], steps.offsets[k + 1])),
    op: (rq) => (row(rq, ROW.op) ? 1 : 0),
    sector: (rq) => row(rq, ROW.sector),
    hz,
    finished: steps.finished,
  };
}

/** The first `maxSteps` steps of a run, with the queues after each (parse one with parseDdState(words.subarray(offsets[k], offsets[k + 1]))). */
export interface BlkSteps {
  words: Uint32Array;
  offsets: Uint32Array; // steps + 1
  rows: Float64Array; // ROW_WIDTH per request submitted so far; dispatch/complete 0 while pending
  finished: boolean; // the run ended within maxSteps
  /** kyber: its state after each step too (parseKyberState(kyber.words.subarray(kyber.offsets[k], kyber.offsets[k + 1]))) */
  kyber?: { words: Uint32Array; offsets: Uint32Array };
}

export function stepBlk(m: BlkModule, sc: BlkScenario, maxSteps: number): BlkSteps {
  const sim = newBlkSim(m, sc);
  let cap = 4096;
  let buf = m._fx_malloc(cap * 4);
  try {
    const chunks: Uint32Array[] = [];
    const offsets = [0];
    const kyChunks: Uint32Array[] = [];
    const kyOffsets = [0];
    let ret = 1;
    while (chunks.length < maxSteps && (ret = m._fx_blk_step(sim)) > 0) {
      if (sc.sched === "kyber") {
        const k = readWords(m, m._fx_blk_kyber_state, sim);
        kyChunks.push(k);
        kyOffsets.push(kyOffsets.at(-1)! + k.length);
      }
      let n = m._fx_blk_state(sim, buf, cap);
      if (n > cap) {
        m._fx_free(buf);
        cap = n * 2;
        buf = m._fx_malloc(cap * 4);
        if (!buf) throw new BlkError("out of memory for the queue state");
        n = m._fx_blk_state(sim, buf, cap);
      }
      chunks.push(m.HEAPU32.slice(buf >>> 2, (buf >>> 2) + n));
      offsets.push(offsets.at(-1)! + n);
    }
    if (ret < 0) throw new BlkError("the simulation ran out of memory");
    const words = new Uint32Array(offsets.at(-1)!);
    chunks.forEach((c, i) => words.set(c, offsets[i]));
    let kyber: BlkSteps["kyber"];
    if (sc.sched === "kyber") {
      kyber = { words: new Uint32Array(kyOffsets.at(-1)!), offsets: Uint32Array.from(kyOffsets) };
      kyChunks.forEach((c, i) => kyber!.words.set(c, kyOffsets[i]));
    }
    const count = m._fx_blk_count(sim);
    const rowsPtr = m._fx_blk_rows(sim);
    if (!rowsPtr) throw new BlkError("the simulation ran out of memory");
    const rows = m.HEAPF64.slice(rowsPtr >>> 3, (rowsPtr >>> 3) + count * ROW_WIDTH);
    m._fx_free(rowsPtr);
    // stopped at maxSteps: one more step tells whether that was the end (the sim is freed next)
    const finished = ret === 0 || m._fx_blk_step(sim) === 0;
    return kyber ? { words, offsets: Uint32Array.from(offsets), rows, finished, kyber } : { words, offsets: Uint32Array.from(offsets), rows, finished };
  } finally {
    m._fx_free(buf);
    m._fx_blk_free(sim);
  }
}
