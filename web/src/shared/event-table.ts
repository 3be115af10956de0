// The machinery of the kernel events the page reads: the tracefs line, the rwbs decoder, the
// kernel's own block events, and a table's lookups. Each topic declares the events it adds (our
// patches' tracepoints) in its own events.ts (a spec each: the line's pattern, the decoder to
// typed fields and, where the models emit the same event, the records it becomes); the tables
// are gathered in topics/events.gen.ts, which `fslab readme` writes from the topic folders. The
// live trace channel (vm/machine/trace-channel.ts), the labs' expectations and the block trace
// parser read lines through them; no other file holds a tracefs pattern.
import { BlkOp, NONE } from "./events";

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

/**
 * The items whose lines are still on the timeline of the machine that runs now, in order: a
 * rewind line (REWIND_LINE) undoes the `n` lines before it, counting back over what earlier
 * rewinds left, and is itself dropped.
 */
export function undoRewinds<T>(items: Iterable<T>, lineOf: (item: T) => string): T[] {
  const kept: T[] = [];
  for (const item of items) {
    const m = lineOf(item).match(REWIND_LINE);
    if (m) kept.splice(Math.max(0, kept.length - Number(m[1])));
    else kept.push(item);
  }
  return kept;
}

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

/** a kernel int as a record field: -1 (and any negative) is NONE */
export const u32 = (n: number) => (n < 0 ? NONE : n >>> 0);

export interface TraceEventSpec<F = unknown> {
  /** the tracefs system (events/<system>/<name>) */
  system: string;
  /** the body after "<name>: ", as TP_printk prints it */
  format: RegExp;
  /** what the body should look like, for an error message */
  expect: string;
  /** a body as our kernel printed it (topics/events.test.ts decodes it, and holds its records to the topic's) */
  sample: string;
  decode(m: RegExpMatchArray): F;
  /** the model records the event becomes (4 words each), where the models emit it too */
  records?(f: F): number[];
}

/** one event's entry, its fields' type inferred from its decoder */
export const traceEvent = <F,>(s: TraceEventSpec<F>) => s;

/** events by name, as a topic declares them and topics/events.gen.ts gathers them */
export type TraceTable = Record<string, TraceEventSpec>;

/** block_rq_insert, block_rq_issue, block_rq_complete, block_rq_requeue, block_rq_merge (include/trace/events/block.h, 7.2): the ioprio "class,level,hint" came in 6.x */
const blockRq = traceEvent({
  system: "block",
  format: /^(\d+),(\d+) (\S+) (\d+ )?\((.*?)\) (\d+) \+ (\d+)(?: ([a-z]+),\d+,\d+)? \[(.*)\]$/,
  expect: "major,minor rwbs [bytes] (cmd) sector + sectors [class,level,hint] [comm]",
  sample: "254,2 WS 4096 () 2576 + 8 be,0,4 [kworker/0:1H]",
  decode: (m) => ({ dev: `${m[1]},${m[2]}`, rwbs: m[3], op: opOfRwbs(m[3]), sector: m[6], sectors: Number(m[7]), ioprio: m[8] as string | undefined }),
});

/** The kernel's own block events (include/trace/events/block.h), which every topic's traces hold. */
export const BLOCK_EVENTS = {
  block_rq_insert: blockRq,
  block_rq_issue: blockRq,
  block_rq_complete: blockRq,
  block_rq_requeue: blockRq,
  /** a queued request merged into the one before it (attempt_merge(): `next` is the traced one) */
  block_rq_merge: blockRq,
  /** include/trace/events/block.h */
  block_bio_queue: traceEvent({
    system: "block",
    format: /^(\d+),(\d+) (\S+) (\d+) \+ (\d+) \[(.*)\]$/,
    expect: "major,minor rwbs sector + sectors [comm]",
    sample: "254,1 R 16696 + 8 [fio]",
    decode: (m) => ({ dev: `${m[1]},${m[2]}`, rwbs: m[3], sector: m[4], sectors: Number(m[5]) }),
  }),
};

export type TraceFields<S> = S extends TraceEventSpec<infer F> ? F : never;

export const isTraceEvent = <T extends TraceTable>(table: T, event: string): event is keyof T & string => Object.hasOwn(table, event);

/** A body decoded by its event's entry; null if it does not have the event's format. */
export function decodeEvent<F>(spec: TraceEventSpec<F>, body: string): F | null {
  const m = body.match(spec.format);
  return m ? spec.decode(m) : null;
}

/** The model records an event line becomes: null if the line is not an event of the table, [] if the event has no record. */
export function recordsOf(table: TraceTable, line: TraceLine): number[] | null {
  if (!isTraceEvent(table, line.event)) return null;
  const s = table[line.event];
  const m = line.body.match(s.format);
  return m && s.records ? s.records(s.decode(m)) : m ? [] : null;
}
