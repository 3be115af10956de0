// A real block trace as the blk core's input: the guest's tracefs text of block events parsed
// into requests (when each arrived, where, how big, which op, and when the kernel itself issued
// and completed it), and the scheduler's own events in the kernel's order.
//
//   `cat /sys/kernel/tracing/trace` (events/block/block_{bio_queue,rq_insert,rq_issue,rq_complete})
//     -> parseBlkTrace() -> BlkTrace: requests in arrival order, the kernel's times on each
//     -> trace-kernel.ts: what the kernel did (its order, its times, its device as measured)
//     -> trace-replay.ts simulateBlkTrace(): the same arrivals through the model (wasm/src/blk/sim.c)
//     -> trace-compare.ts compareBlkTrace(): the model's queue and service times beside the kernel's
import { BlkOp } from "../../shared/events";
import { BLOCK_EVENTS, decodeEvent, opOfRwbs, splitTraceLine } from "../../shared/event-table";
import { traceEvents } from "./events";

/** the events this parser reads: the kernel's block events and our mq-deadline ones */
const TRACE_EVENTS = { ...BLOCK_EVENTS, ...traceEvents };
import type { DdTunables } from "./blk-core";

/** One request as the kernel's block events tell it. Times are the trace clock's, in µs. */
export interface TraceRequest {
  dev: string; // "major,minor"
  rwbs: string; // as the events print it: R, WS, FWFS, D, FF...
  op: BlkOp;
  sector: number;
  sectors: number;
  ioprioClass: number; // IOPRIO_CLASS_NONE 0, RT 1, BE 2, IDLE 3
  task: string; // comm-pid of the task whose event made it arrive (a kworker for a flusher's I/O)
  line: number; // the line of that event, 1-based
  arrivalUs: number; // insertUs, else bioUs (issued with no insert: none's direct issue, a flush)
  bioUs: number | null; // block_bio_queue of its first bio
  insertUs: number | null; // block_rq_insert: into the scheduler (or none's list)
  issueUs: number | null; // block_rq_issue: the driver has it
  completeUs: number | null; // block_rq_complete
  /** our kernel's mq_deadline:dd_dispatch_request for it (kernel-image/patches/0003), if traced */
  dd: DdDispatch | null;
  /** inserted while a request of its key was issued and not completed, with no block_rq_requeue between: that one requeued out of sight, if this one never completes */
  reinserted?: true;
}

/** Why mq-deadline dispatched a request, as our kernel's tracepoint says (after the choice). */
export interface DdDispatch {
  us: number;
  line: number;
  prio: number; // 0 RT, 1 BE, 2 IDLE (enum dd_prio)
  dir: 0 | 1; // read, write
  because: DdBecause;
  pick: DdPick;
  batching: number;
  starved: number;
  jiffies: number;
  fifoLeftMs: number; // its own deadline, from the dispatch; negative: expired
  fifoRead: number; // the lengths of its priority's FIFO lists, after it left them
  fifoWrite: number;
}
// "head": served from the at-head list (dd->dispatch: requeues, at-head inserts) before any
// choice, so not a scheduler decision (kernel-image/patches/0003)
export const DD_BECAUSE = ["batch", "reads", "starved", "writes", "head"] as const;
export const DD_PICK = ["sorted", "expired", "no_next", "head"] as const;
export type DdBecause = (typeof DD_BECAUSE)[number];
export type DdPick = (typeof DD_PICK)[number];

/**
 * What the scheduler saw, in the kernel's order: inserts, dispatches (with the tracepoint),
 * completions; queued requests merged into the one before them (block_rq_merge); dispatch
 * calls that handed on nothing but moved the counters (our dd_dispatch_none).
 */
export interface SchedEvent {
  kind: "insert" | "dispatch" | "complete" | "merge" | "none";
  rq: number; // index into BlkTrace.requests (merge: the request merged away; none: -1)
  us: number;
  dd?: DdDispatch; // dispatch (always there): this dispatch's event (a requeued request is dispatched twice)
  into?: number; // merge: the request that took it over, if the trace has it
  none?: DdNone; // none: the counters after the call
}

/** A dd_dispatch_request() call that dispatched nothing but changed the counters. */
export interface DdNone {
  lastDir: 0 | 1;
  batching: number;
  starved: number;
  jiffies: number;
  line: number;
}

export interface BlkTrace {
  requests: TraceRequest[]; // in arrival order (ties: in line order)
  devices: string[]; // every device with a request, as "major,minor"
  lines: number; // lines read
  events: number; // block events used
  ignored: number; // event lines of other events (plug, merge, other tracepoints)
  lost: number; // events the ring buffer dropped ("[LOST n EVENTS]"; "entries-written" beyond the buffer)
  unmatched: { issue: number; complete: number }; // issues/completions of requests that arrived before the trace began
  requeues: number;
  merges: number; // block_rq_merge events: queued requests that another took over
  /** the scheduler's events in trace order; dispatches only where dd_dispatch_request was traced */
  sched: SchedEvent[];
  /** mq-deadline's tunables as the capture recorded them ("# fslab: iosched read_expire=100 ..."), if it did */
  iosched: Partial<DdTunables>;
}

export class BlkTraceError extends Error {}

const IOSCHED: Record<string, keyof DdTunables> = {
  read_expire: "read_expire_ms", write_expire: "write_expire_ms", prio_aging_expire: "prio_aging_expire_ms", writes_starved: "writes_starved", fifo_batch: "fifo_batch",
};
const IOPRIO_CLASS: Record<string, number> = { none: 0, rt: 1, be: 2, idle: 3, invalid: 0 };

/** secs.frac to µs: tracefs prints µs (6 digits), ns (9) with some clocks */
function micros(secs: string, frac: string): number {
  return Number(secs) * 1e6 + Number(frac) / 10 ** (frac.length - 6);
}

/** FIFO lists by key: the oldest open request with that key is the one an event completes */
class Open<T> {
  private m = new Map<string, T[]>();
  push(k: string, v: T) {
    const l = this.m.get(k);
    if (l) l.push(v);
    else this.m.set(k, [v]);
  }
  unshift(k: string, v: T) {
    const l = this.m.get(k);
    if (l) l.unshift(v);
    else this.m.set(k, [v]);
  }
  peek(k: string): T | undefined {
    return this.m.get(k)?.[0];
  }
  shift(k: string): T | undefined {
    const l = this.m.get(k);
    const v = l?.shift();
    if (l && !l.length) this.m.delete(k);
    return v;
  }
  delete(k: string) {
    this.m.delete(k);
  }
  get size() {
    return this.m.size;
  }
  keys() {
    return [...this.m.keys()];
  }
}

/**
 * Parses tracefs text (`cat trace`) of block events. A request is matched across its events
 * by device, sector and size, oldest first: block_rq_insert opens it, block_rq_issue and
 * block_rq_complete follow; a block_bio_queue at its sector before the insert gives bioUs.
 * A request issued without an insert (none's direct issue, a flush) arrives at its bio, or
 * at its issue. Other events and comment lines are passed over; a malformed block event line
 * is an error that names the line.
 */
export function parseBlkTrace(text: string): BlkTrace {
  const requests: Array<TraceRequest & { seq: number }> = [];
  const bios = new Open<{ us: number; task: string; line: number }>(); // by dev,sector
  const inserted = new Open<TraceRequest>(); // by dev,sector,sectors
  const issued = new Open<TraceRequest>();
  const out: BlkTrace = { requests: [], devices: [], lines: 0, events: 0, ignored: 0, lost: 0, unmatched: { issue: 0, complete: 0 }, requeues: 0, merges: 0, sched: [], iosched: {} };
  const sched: Array<{ kind: SchedEvent["kind"]; r: TraceRequest | null; us: number; dd?: DdDispatch; into?: TraceRequest; none?: DdNone }> = [];
  const requeued = new Set<TraceRequest>(); // back in `inserted` after block_rq_requeue, until re-inserted or issued
  // a queued request of `dev` whose extent and op pass `fits`, taken out of `inserted` and
  // put back under the extent it has grown to (bios or another request merged into it)
  const regrow = (dev: string, fits: (sector: number, sectors: number, op: BlkOp) => boolean, extent: (r: TraceRequest) => [number, number]) => {
    const k = inserted.keys().find((x) => {
      const [ma, mi, s0, n0, op] = x.split(",").map(Number);
      return `${ma},${mi}` === dev && fits(s0, n0, op);
    });
    if (!k) return undefined;
    const r = inserted.shift(k)!;
    [r.sector, r.sectors] = extent(r);
    inserted.push(`${dev},${r.sector},${r.sectors},${r.op}`, r);
    return r;
  };
  const lines = text.split("\n");
  let seq = 0;
  const fail = (n: number, why: string, line: string) => {
    const l = line.trim();
    throw new BlkTraceError(`line ${n}: ${why}: ${l.length > 120 ? l.slice(0, 120) + "..." : l}`);
  };
  // a request's first event: an insert, or an issue that had none (then it arrived with its bio, if traced)
  const newRequest = (dev: string, rwbs: string, sector: number, sectors: number, prio: string | undefined, task: string, line: number, us: number, inserted: boolean) => {
    const bio = bios.shift(`${dev},${sector}`);
    // bios queued inside it were merged into it: none of them starts a later request (look
    // up its sectors or the bios waiting, whichever are fewer)
    if (sectors - 1 < bios.size) for (let x = sector + 1; x < sector + sectors; x++) bios.delete(`${dev},${x}`);
    else
      for (const k of bios.keys()) {
        const x = Number(k.slice(k.lastIndexOf(",") + 1));
        if (k.startsWith(`${dev},`) && x > sector && x < sector + sectors) bios.delete(k);
      }
    const byBio = !inserted && bio !== undefined;
    const r = {
      dev, rwbs, op: opOfRwbs(rwbs), sector, sectors, ioprioClass: IOPRIO_CLASS[prio ?? "none"] ?? 0,
      task: byBio ? bio.task : task, line: byBio ? bio.line : line, arrivalUs: byBio ? bio.us : us,
      bioUs: bio ? bio.us : null, insertUs: inserted ? us : null, issueUs: null, completeUs: null, dd: null, seq: seq++,
    };
    requests.push(r);
    return r as TraceRequest;
  };

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, "");
    const n = i + 1;
    if (!raw.trim()) continue;
    out.lines = n;
    if (raw.startsWith("#")) {
      // "# entries-in-buffer/entries-written: 800/800": more written than kept means the ring overran
      const e = raw.match(/entries-in-buffer\/entries-written: (\d+)\/(\d+)/);
      if (e) out.lost += Math.max(0, Number(e[2]) - Number(e[1]));
      if (raw.startsWith("# fslab: iosched "))
        for (const [, k, v] of raw.matchAll(/(\w+)=(\d+)/g)) if (IOSCHED[k]) out.iosched[IOSCHED[k]] = Number(v);
      continue;
    }
    const lost = raw.match(/^\s*CPU:\d+ \[LOST (\d+) EVENTS\]/);
    if (lost) {
      out.lost += Number(lost[1]);
      continue;
    }
    const m = splitTraceLine(raw);
    if (!m) fail(n, "not a tracefs event line (task-pid [cpu] flags seconds: event: ...)", raw);
    const { comm, pid, secs, frac, event, body } = m!;
    const task = `${comm}-${pid}`;
    const us = micros(secs, frac);
    if (event === "block_bio_queue") {
      const b = decodeEvent(TRACE_EVENTS.block_bio_queue, body);
      if (!b) fail(n, `block_bio_queue: expected "${TRACE_EVENTS.block_bio_queue.expect}"`, raw);
      bios.push(`${b!.dev},${b!.sector}`, { us, task, line: n });
      out.events++;
      continue;
    }
    if (event === "tracing_mark_write" && body.startsWith("fslab: iosched ")) {
      // the same line written into the trace (trace_marker) by a lab before a run
      for (const [, k, v] of body.matchAll(/(\w+)=(\d+)/g)) if (IOSCHED[k]) out.iosched[IOSCHED[k]] = Number(v);
      continue;
    }
    if (event === "dd_dispatch_request") {
      const d = decodeEvent(TRACE_EVENTS.dd_dispatch_request, body);
      if (!d) fail(n, `dd_dispatch_request: expected "${TRACE_EVENTS.dd_dispatch_request.expect}"`, raw);
      const { dev: ddDev, dir, sector: sec, sectors: cnt, prio, because, pick, batching, starved, jiffies, fifoLeftMs, fifoRead, fifoWrite } = d!;
      if (!(DD_BECAUSE as readonly string[]).includes(because) || !(DD_PICK as readonly string[]).includes(pick)) fail(n, `dd_dispatch_request: unknown reason ${because}/${pick}`, raw);
      // still in the scheduler's hands: inserted, not yet issued (block_rq_issue follows)
      const ops = dir === "W" ? [BlkOp.Write, BlkOp.Discard] : [BlkOp.Read, BlkOp.Flush, BlkOp.Other];
      let r: TraceRequest | undefined;
      for (const op of ops) r ??= inserted.peek(`${ddDev},${sec},${cnt},${op}`);
      if (!r) {
        // bios merged into it since the insert (block_bio_backmerge/frontmerge): the request
        // grew to cover more; it goes on under its new extent, which its issue and completion show
        const lo = Number(sec);
        const hi = lo + Number(cnt);
        r = regrow(ddDev, (s0, n0, op) => ops.includes(op) && s0 >= lo && s0 + n0 <= hi, () => [lo, Number(cnt)]);
      }
      if (r) {
        const dd: DdDispatch = {
          us, line: n, prio: ["RT", "BE", "IDLE"].indexOf(prio), dir: dir === "W" ? 1 : 0, because: because as DdBecause, pick: pick as DdPick,
          batching, starved, jiffies, fifoLeftMs, fifoRead, fifoWrite,
        };
        // a requeued request's second dispatch (at head) keeps its first for the deadline
        if (!r.dd || dd.because !== "head") r.dd = dd;
        sched.push({ kind: "dispatch", r, us, dd });
      } else out.unmatched.issue++;
      out.events++;
      continue;
    }
    if (event === "dd_dispatch_none") {
      const d = decodeEvent(TRACE_EVENTS.dd_dispatch_none, body);
      if (!d) fail(n, `dd_dispatch_none: expected "${TRACE_EVENTS.dd_dispatch_none.expect}"`, raw);
      const { dev: _dev, ...none } = d!;
      sched.push({ kind: "none", r: null, us, none: { ...none, line: n } });
      out.events++;
      continue;
    }
    if (event !== "block_rq_insert" && event !== "block_rq_issue" && event !== "block_rq_complete" && event !== "block_rq_requeue" && event !== "block_rq_merge") {
      out.ignored++;
      continue;
    }
    const b = decodeEvent(TRACE_EVENTS[event], body);
    if (!b) fail(n, `${event}: expected "${TRACE_EVENTS[event].expect}"`, raw);
    const { dev, rwbs, sector: sec, sectors, ioprio: prio } = b!;
    // a request with no data (a flush on a device with a volatile cache) has no sector: it is
    // issued as "0 + 0" and completes as "18446744073709551615 + 0" ((sector_t)-1); one key,
    // sector 0, for all of it
    const sector = Number(sectors) === 0 ? 0 : Number(sec);
    if (!Number.isSafeInteger(sector)) fail(n, `sector ${sec} is too large`, raw);
    // the op too: a read and a write of the same sectors can be queued at once
    const key = `${dev},${sector},${sectors},${opOfRwbs(rwbs)}`;
    out.events++;
    if (event === "block_rq_insert") {
      const again = inserted.peek(key);
      if (again && requeued.has(again)) {
        // a requeued request goes back in at the head (dd->dispatch), not into the lists
        requeued.delete(again);
        continue;
      }
      const r = newRequest(dev, rwbs, sector, sectors, prio, task, n, us, true);
      if (issued.peek(key)) r.reinserted = true;
      inserted.push(key, r);
      sched.push({ kind: "insert", r, us });
    } else if (event === "block_rq_merge") {
      // attempt_merge(req, next) traces next, which ends here; req (ending at next's first
      // sector) takes over its sectors. A request merged as it was inserted was never in the
      // lists: only req grows.
      out.merges++;
      const next = inserted.shift(key);
      const op = opOfRwbs(rwbs);
      const into = regrow(dev, (s0, n0, o) => o === op && s0 + n0 === sector, (r) => [r.sector, r.sectors + Number(sectors)]);
      if (next) sched.push({ kind: "merge", r: next, us, into });
    } else if (event === "block_rq_issue") {
      let r = inserted.shift(key);
      if (r) requeued.delete(r);
      if (!r) {
        // issued without an insert (none's direct issue, a flush): it arrived with its bio;
        // with no bio traced either, it was queued before the trace began
        r = newRequest(dev, rwbs, sector, sectors, prio, task, n, us, false);
        if (r.bioUs === null) out.unmatched.issue++;
      }
      r.issueUs = us;
      issued.push(key, r);
    } else if (event === "block_rq_requeue") {
      // back to the head of hctx->dispatch: the next issue with this key is its own
      const r = issued.shift(key);
      if (r) {
        r.issueUs = null;
        inserted.unshift(key, r);
        requeued.add(r);
        out.requeues++;
      }
    } else {
      const r = issued.shift(key);
      if (r) {
        r.completeUs = us;
        if (r.dd) sched.push({ kind: "complete", r, us });
      } else out.unmatched.complete++;
    }
  }
  // a request the trace saw issued but not inserted, with no bio either, began before the
  // trace: its arrival is unknown, so it is left out rather than replayed at its issue
  const known = requests.filter((r) => r.insertUs !== null || r.bioUs !== null);
  known.sort((a, b) => a.arrivalUs - b.arrivalUs || a.seq - b.seq);
  out.requests = known.map(({ seq: _, ...r }) => r);
  const index = new Map<TraceRequest, number>(known.map((r, i) => [r, i]));
  out.sched = sched
    .filter((e) => e.r === null || index.has(e.r))
    .map((e) => ({
      kind: e.kind, rq: e.r === null ? -1 : index.get(e.r)!, us: e.us,
      ...(e.dd && { dd: e.dd }), ...(e.none && { none: e.none }),
      ...(e.into && index.has(e.into) && { into: index.get(e.into)! }),
    }));
  out.devices = [...new Set(out.requests.map((r) => r.dev))].sort();
  return out;
}

/** The requests of one device (a trace may hold several); the others are left out. */
export function onDevice(trace: BlkTrace, dev: string): BlkTrace {
  if (!trace.devices.includes(dev)) throw new BlkTraceError(`no requests on device ${dev}; the trace has ${trace.devices.join(", ") || "none"}`);
  return { ...trace, requests: trace.requests.filter((r) => r.dev === dev), devices: [dev] };
}
