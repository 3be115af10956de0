// The one table of kernel events the page reads: for each, its tracefs line (the format the
// kernel's TP_printk prints, as a pattern), the decoder from that line to typed fields, and,
// where the models emit the same event, the record it becomes (shared/events.ts, mirroring
// wasm/include/fslab/events.h; event-table.test.ts holds the two equal). The live trace
// channel (vm/machine/trace-channel.ts) and the block trace parser (topics/blk/blk-trace.ts) both read
// lines through this table; no other file holds a tracefs pattern.
import { BlkOp, EV, NONE, NidScanPhase } from "./events";

/** A tracefs line: task-pid, an optional (tgid), [cpu], optional irq/preempt flags, secs.frac: event: body. */
export const TRACE_LINE = /^\s*(.*?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+(?:[^\s:]+\s+)?(\d+)\.(\d+):\s+([A-Za-z0-9_]+):\s?(.*)$/;

/**
 * The line the live trace channel (vm/machine/trace-channel.ts) puts in the stream where the guest's
 * sequence numbers went back: the machine was put back to a snapshot ("Reset this step"), and
 * the `n` lines before it, received since that snapshot, never happened on the machine that
 * runs now. A comment line, as tracefs's own headers are: parsers pass over it.
 */
export const REWIND_LINE = /^# fslab-trace: the machine was put back: the (\d+) lines? before this (?:was|were) undone$/;
export const rewindLine = (n: number) => `# fslab-trace: the machine was put back: the ${n} line${n === 1 ? "" : "s"} before this ${n === 1 ? "was" : "were"} undone`;

export interface TraceLine {
  comm: string;
  pid: number;
  cpu: number;
  secs: string;
  frac: string;
  event: string;
  body: string;
}

/** A line split by TRACE_LINE, or null if it is not an event line. */
export function splitTraceLine(line: string): TraceLine | null {
  const m = line.match(TRACE_LINE);
  return m ? { comm: m[1], pid: Number(m[2]), cpu: Number(m[3]), secs: m[4], frac: m[5], event: m[6], body: m[7] } : null;
}

/**
 * blk_fill_rwbs() (block/blk-core.c): an optional F (REQ_PREFLUSH), then the op (W, D, DE, F,
 * R, N), then flags (F for FUA, A, S, M). "FF" is a flush, "FWS" a write after a flush, "WFS"
 * a FUA write, "FN" a flush ahead of no data. The one rwbs decoder.
 */
export function opOfRwbs(rwbs: string): BlkOp {
  const c = rwbs.length > 1 && rwbs[0] === "F" && "WDFRN".includes(rwbs[1]) ? rwbs[1] : rwbs[0];
  return c === "R" ? BlkOp.Read : c === "W" ? BlkOp.Write : c === "D" ? BlkOp.Discard : c === "F" ? BlkOp.Flush : BlkOp.Other;
}

const u32 = (n: number) => (n < 0 ? NONE : n >>> 0);

interface EventSpec<F> {
  /** the tracefs system (events/<system>/<name>) */
  system: string;
  /** the body after "<name>: ", as TP_printk prints it */
  format: RegExp;
  /** what the body should look like, for an error message */
  expect: string;
  decode(m: RegExpMatchArray): F;
  /** the model records the event becomes (4 words each), where the models emit it too */
  records?(f: F): number[];
}

const spec = <F,>(s: EventSpec<F>) => s;

/** block_rq_insert, block_rq_issue, block_rq_complete, block_rq_requeue, block_rq_merge (include/trace/events/block.h, 7.2): the ioprio "class,level,hint" came in 6.x */
const blockRq = spec({
  system: "block",
  format: /^(\d+),(\d+) (\S+) (\d+ )?\((.*?)\) (\d+) \+ (\d+)(?: ([a-z]+),\d+,\d+)? \[(.*)\]$/,
  expect: "major,minor rwbs [bytes] (cmd) sector + sectors [class,level,hint] [comm]",
  decode: (m) => ({ dev: `${m[1]},${m[2]}`, rwbs: m[3], op: opOfRwbs(m[3]), sector: m[6], sectors: Number(m[7]), ioprio: m[8] as string | undefined }),
});

export const TRACE_EVENTS = {
  /** our patch 0001: one per discard __exfat_free_cluster() issues */
  exfat_discard: spec({
    system: "exfat",
    format: /^dev (\d+),(\d+) clu (\d+) count (\d+) batched (\d)/,
    expect: "dev major,minor clu N count N batched 0|1",
    decode: (m) => ({ clu: Number(m[3]), count: Number(m[4]), batched: Number(m[5]) }),
    records: (f) => [EV.EXFAT_DISCARD, f.clu, f.count, f.batched],
  }),
  /** our patch 0001: one per empty-entry search of exfat_find_dir_entry() / exfat_search_empty_slot() */
  exfat_empty_search: spec({
    system: "exfat",
    format: /^dev (\d+),(\d+) hint (-?\d+) start -?\d+ examined (\d+) result (-?\d+)/,
    expect: "dev major,minor hint N start N examined N result N",
    decode: (m) => ({ hint: Number(m[3]), examined: Number(m[4]), result: Number(m[5]) }),
    records: (f) => [EV.EXFAT_EMPTY_SEARCH, f.examined, u32(f.hint), u32(f.result)],
  }),
  /** our patch 0002: one per free-NID scan phase */
  f2fs_free_nid_scan: spec({
    system: "f2fs",
    // blocks, sync and caller since the patch's fixes (issue 17); older traces end at skipped
    format: /^dev = \((\d+),(\d+)\), phase = (\w+), start = (\d+), end = (\d+), scanned = (\d+), found = (\d+), skipped = (\d)(?:, blocks = (\d+), sync = (\d), caller = (\S+))?/,
    expect: "dev = (major,minor), phase = bitmap|nat|deferred, start = N, end = N, scanned = N, found = N, skipped = 0|1[, blocks = N, sync = 0|1, caller = symbol+off/size]",
    decode: (m) => ({
      phase: ({ bitmap: NidScanPhase.Bitmap, nat: NidScanPhase.Nat, deferred: NidScanPhase.Deferred } as Record<string, number>)[m[3]] ?? 255,
      start: Number(m[4]), end: Number(m[5]), scanned: Number(m[6]), found: Number(m[7]), skipped: Number(m[8]),
      blocks: Number(m[9] ?? 0), sync: Number(m[10] ?? 0), caller: m[11] ?? "",
    }),
    records: (f) => [EV.F2FS_NID_SCAN, f.phase | (f.skipped << 8) | ((f.sync & 1) << 9), f.start, f.end, EV.F2FS_NID_SCAN_RESULT, f.scanned, f.found, f.blocks],
  }),
  block_rq_insert: blockRq,
  block_rq_issue: blockRq,
  block_rq_complete: blockRq,
  block_rq_requeue: blockRq,
  /** a queued request merged into the one before it (attempt_merge(): `next` is the traced one) */
  block_rq_merge: blockRq,
  /** include/trace/events/block.h */
  block_bio_queue: spec({
    system: "block",
    format: /^(\d+),(\d+) (\S+) (\d+) \+ (\d+) \[(.*)\]$/,
    expect: "major,minor rwbs sector + sectors [comm]",
    decode: (m) => ({ dev: `${m[1]},${m[2]}`, rwbs: m[3], sector: m[4], sectors: Number(m[5]) }),
  }),
  /** our patch 0003 (include/trace/events/mq_deadline.h): one per request mq-deadline hands on */
  /** our patch 0003: a dispatch call that handed on nothing but moved the shared counters */
  dd_dispatch_none: spec({
    system: "mq_deadline",
    format: /^(\d+),(\d+) last_dir=([RW]) batching=(\d+) starved=(\d+) jiffies=(\d+)$/,
    expect: "major,minor last_dir=R|W batching= starved= jiffies=",
    decode: (m) => ({ dev: `${m[1]},${m[2]}`, lastDir: (m[3] === "W" ? 1 : 0) as 0 | 1, batching: Number(m[4]), starved: Number(m[5]), jiffies: Number(m[6]) }),
  }),
  dd_dispatch_request: spec({
    system: "mq_deadline",
    format: /^(\d+),(\d+) ([RW]) (\d+) \+ (\d+) prio=(RT|BE|IDLE) because=([a-z_]+) pick=([a-z_]+) batching=(\d+) starved=(\d+) jiffies=(\d+) fifo_left_ms=(-?\d+) fifo=(\d+),(\d+)$/,
    expect: "major,minor R|W sector + sectors prio= because= pick= batching= starved= jiffies= fifo_left_ms= fifo=r,w",
    decode: (m) => ({
      dev: `${m[1]},${m[2]}`, dir: m[3] as "R" | "W", sector: m[4], sectors: Number(m[5]), prio: m[6] as "RT" | "BE" | "IDLE",
      because: m[7], pick: m[8], batching: Number(m[9]), starved: Number(m[10]), jiffies: Number(m[11]),
      fifoLeftMs: Number(m[12]), fifoRead: Number(m[13]), fifoWrite: Number(m[14]),
    }),
  }),
};

export type TraceEventName = keyof typeof TRACE_EVENTS;
export type TraceFields<N extends TraceEventName> = ReturnType<(typeof TRACE_EVENTS)[N]["decode"]>;

export const isTraceEvent = (event: string): event is TraceEventName => Object.hasOwn(TRACE_EVENTS, event);

/** A body decoded by its event's entry; null if it does not have the event's format. */
export function decodeEvent<N extends TraceEventName>(event: N, body: string): TraceFields<N> | null {
  const s = TRACE_EVENTS[event] as EventSpec<TraceFields<N>>;
  const m = body.match(s.format);
  return m ? s.decode(m) : null;
}

/** The model records an event line becomes: null if the line is not an event of the table, [] if the event has no record. */
export function recordsOf(line: TraceLine): number[] | null {
  if (!isTraceEvent(line.event)) return null;
  const s = TRACE_EVENTS[line.event] as EventSpec<unknown>;
  const m = line.body.match(s.format);
  return m && s.records ? s.records(s.decode(m)) : m ? [] : null;
}
