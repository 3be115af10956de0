// A real block trace as the blk core's input. The guest's tracefs text of block events is
// parsed into requests (when each arrived, where, how big, which op, and when the kernel
// itself issued and completed it), replayed through the model as an open-loop trace job,
// and the model's queue and service times are set beside the kernel's, request by request.
//
//   `cat /sys/kernel/tracing/trace` (events/block/block_{bio_queue,rq_insert,rq_issue,rq_complete})
//     -> parseBlkTrace() -> BlkTrace: requests in arrival order, the kernel's times on each
//     -> simulateBlkTrace() -> fx_blk_new_trace (wasm/src/blk/exports.c: one flat array per
//        field) -> blk_sim_new_trace / blk_sim_run (sim.c) -> BlkResult, rows in the same order
//     -> compareBlkTrace() -> per request and per op: kernel queue/service beside the model's
import { BlkOp } from "../../shared/events";
import { allocU32 } from "../../shared/wasm-mem";
import {
  BlkError, DD_DEFAULTS, KYBER_DEFAULTS, ROW, ROW_WIDTH, SCHED_CODE, allocDevice, allocTunables, readBlkResult, stats,
  type BlkDevice, type BlkResult, type DdTunables, type KyberTunables, type OpStats, type Scheduler,
} from "./blk-core";

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
export const DD_BECAUSE = ["batch", "reads", "starved", "writes"] as const;
export const DD_PICK = ["sorted", "expired", "no_next"] as const;
export type DdBecause = (typeof DD_BECAUSE)[number];
export type DdPick = (typeof DD_PICK)[number];

/** What the scheduler saw, in the kernel's order: inserts, dispatches (with the tracepoint), completions. */
export interface SchedEvent {
  kind: "insert" | "dispatch" | "complete";
  rq: number; // index into BlkTrace.requests
  us: number;
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
  /** the scheduler's events in trace order; dispatches only where dd_dispatch_request was traced */
  sched: SchedEvent[];
  /** mq-deadline's tunables as the capture recorded them ("# fslab: iosched read_expire=100 ..."), if it did */
  iosched: Partial<DdTunables>;
}

export class BlkTraceError extends Error {}

// the tracefs line: task-pid, optional (tgid), [cpu], optional irq/preempt flags, secs.frac: event: body
const LINE = /^\s*(.*?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+(?:[^\s:]+\s+)?(\d+)\.(\d+):\s+([A-Za-z0-9_]+):\s?(.*)$/;
// print fmts from include/trace/events/block.h (7.2); the ioprio "class,level,hint" came in 6.x
const RQ = /^(\d+),(\d+) (\S+) (\d+ )?\((.*?)\) (\d+) \+ (\d+)(?: ([a-z]+),\d+,\d+)? \[(.*)\]$/;
const BIO = /^(\d+),(\d+) (\S+) (\d+) \+ (\d+) \[(.*)\]$/;
// include/trace/events/mq_deadline.h (our patch 0003)
const DD = /^(\d+),(\d+) ([RW]) (\d+) \+ (\d+) prio=(RT|BE|IDLE) because=([a-z_]+) pick=([a-z_]+) batching=(\d+) starved=(\d+) jiffies=(\d+) fifo_left_ms=(-?\d+) fifo=(\d+),(\d+)$/;
const IOSCHED: Record<string, keyof DdTunables> = {
  read_expire: "read_expire_ms", write_expire: "write_expire_ms", prio_aging_expire: "prio_aging_expire_ms", writes_starved: "writes_starved", fifo_batch: "fifo_batch",
};
const IOPRIO_CLASS: Record<string, number> = { none: 0, rt: 1, be: 2, idle: 3, invalid: 0 };

/**
 * blk_fill_rwbs(): an optional F (REQ_PREFLUSH), then the op (W, D, DE, F, R, N), then flags
 * (F for FUA, A, S, M). "FF" is a flush, "FWS" a write after a flush, "WFS" a FUA write.
 */
export function opOfRwbs(rwbs: string): BlkOp {
  const c = rwbs.length > 1 && rwbs[0] === "F" && "WDFRN".includes(rwbs[1]) ? rwbs[1] : rwbs[0];
  return c === "R" ? BlkOp.Read : c === "W" ? BlkOp.Write : c === "D" ? BlkOp.Discard : c === "F" ? BlkOp.Flush : BlkOp.Other;
}

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
  const out: BlkTrace = { requests: [], devices: [], lines: 0, events: 0, ignored: 0, lost: 0, unmatched: { issue: 0, complete: 0 }, requeues: 0, sched: [], iosched: {} };
  const sched: Array<{ kind: SchedEvent["kind"]; r: TraceRequest; us: number }> = [];
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
    const m = raw.match(LINE);
    if (!m) fail(n, "not a tracefs event line (task-pid [cpu] flags seconds: event: ...)", raw);
    const [, comm, pid, , secs, frac, event, body] = m!;
    const task = `${comm}-${pid}`;
    const us = micros(secs, frac);
    if (event === "block_bio_queue") {
      const b = body.match(BIO);
      if (!b) fail(n, "block_bio_queue: expected \"major,minor rwbs sector + sectors [comm]\"", raw);
      bios.push(`${b![1]},${b![2]},${b![4]}`, { us, task, line: n });
      out.events++;
      continue;
    }
    if (event === "tracing_mark_write" && body.startsWith("fslab: iosched ")) {
      // the same line written into the trace (trace_marker) by a lab before a run
      for (const [, k, v] of body.matchAll(/(\w+)=(\d+)/g)) if (IOSCHED[k]) out.iosched[IOSCHED[k]] = Number(v);
      continue;
    }
    if (event === "dd_dispatch_request") {
      const d = body.match(DD);
      if (!d) fail(n, "dd_dispatch_request: expected \"major,minor R|W sector + sectors prio= because= pick= batching= starved= jiffies= fifo_left_ms= fifo=r,w\"", raw);
      const [, major, minor, dir, sec, cnt, prio, because, pick, batching, starved, jiffies, left, fr, fw] = d!;
      if (!(DD_BECAUSE as readonly string[]).includes(because) || !(DD_PICK as readonly string[]).includes(pick)) fail(n, `dd_dispatch_request: unknown reason ${because}/${pick}`, raw);
      // still in the scheduler's hands: inserted, not yet issued (block_rq_issue follows)
      const ops = dir === "W" ? [BlkOp.Write, BlkOp.Discard] : [BlkOp.Read, BlkOp.Flush, BlkOp.Other];
      let r: TraceRequest | undefined;
      for (const op of ops) r ??= inserted.peek(`${major},${minor},${sec},${cnt},${op}`);
      if (!r) {
        // bios merged into it since the insert (block_bio_backmerge/frontmerge): the request
        // grew to cover more; it goes on under its new extent, which its issue and completion show
        const lo = Number(sec);
        const hi = lo + Number(cnt);
        const k = inserted.keys().find((x) => {
          const [ma, mi, s0, n0, op] = x.split(",").map(Number);
          return `${ma},${mi}` === `${major},${minor}` && ops.includes(op) && s0 >= lo && s0 + n0 <= hi;
        });
        if (k) {
          r = inserted.shift(k)!;
          r.sector = lo;
          r.sectors = Number(cnt);
          inserted.push(`${major},${minor},${sec},${cnt},${r.op}`, r);
        }
      }
      if (r) {
        r.dd = {
          us, line: n, prio: ["RT", "BE", "IDLE"].indexOf(prio), dir: dir === "W" ? 1 : 0, because: because as DdBecause, pick: pick as DdPick,
          batching: Number(batching), starved: Number(starved), jiffies: Number(jiffies), fifoLeftMs: Number(left), fifoRead: Number(fr), fifoWrite: Number(fw),
        };
        sched.push({ kind: "dispatch", r, us });
      } else out.unmatched.issue++;
      out.events++;
      continue;
    }
    if (event !== "block_rq_insert" && event !== "block_rq_issue" && event !== "block_rq_complete" && event !== "block_rq_requeue") {
      out.ignored++;
      continue;
    }
    const b = body.match(RQ);
    if (!b) fail(n, `${event}: expected "major,minor rwbs [bytes] (cmd) sector + sectors [class,level,hint] [comm]"`, raw);
    const [, major, minor, rwbs, , , sec, cnt, prio] = b!;
    const sector = Number(sec);
    const sectors = Number(cnt);
    if (!Number.isSafeInteger(sector)) fail(n, `sector ${sec} is too large`, raw);
    const dev = `${major},${minor}`;
    // the op too: a read and a write of the same sectors can be queued at once
    const key = `${dev},${sector},${sectors},${opOfRwbs(rwbs)}`;
    out.events++;
    if (event === "block_rq_insert") {
      const r = newRequest(dev, rwbs, sector, sectors, prio, task, n, us, true);
      inserted.push(key, r);
      sched.push({ kind: "insert", r, us });
    } else if (event === "block_rq_issue") {
      let r = inserted.shift(key);
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
  out.sched = sched.filter((e) => index.has(e.r)).map((e) => ({ kind: e.kind, rq: index.get(e.r)!, us: e.us }));
  out.devices = [...new Set(out.requests.map((r) => r.dev))].sort();
  return out;
}

/** The requests of one device (a trace may hold several); the others are left out. */
export function onDevice(trace: BlkTrace, dev: string): BlkTrace {
  if (!trace.devices.includes(dev)) throw new BlkTraceError(`no requests on device ${dev}; the trace has ${trace.devices.join(", ") || "none"}`);
  return { ...trace, requests: trace.requests.filter((r) => r.dev === dev), devices: [dev] };
}

/** the kernel's own times for a request, µs (null where the trace does not have them) */
export function kernelQueueUs(r: TraceRequest): number | null {
  return r.issueUs === null ? null : r.issueUs - r.arrivalUs;
}
export function kernelServiceUs(r: TraceRequest): number | null {
  return r.issueUs === null || r.completeUs === null ? null : r.completeUs - r.issueUs;
}

/** Request indices in the order the kernel issued them (those it issued). */
export function kernelOrder(trace: BlkTrace): number[] {
  return trace.requests
    .map((r, i) => [r.issueUs, i] as const)
    .filter((x): x is readonly [number, number] => x[0] !== null)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map((x) => x[1]);
}

/**
 * For each request the kernel issued (in its issue order): how long it waited with a tag
 * free, from the later of its arrival and the moment a tag came free to its issue, µs. The
 * model issues at once then; in the kernel it is the wait for a queue run (kblockd, the CPU).
 * Tags: as many as the kernel ever had in flight.
 */
export function kernelDispatchGaps(trace: BlkTrace): number[] {
  const order = kernelOrder(trace);
  const tags = measuredDevice(trace).queue_depth;
  const events: Array<[number, number, number]> = []; // [µs, 0 complete | 1 issue, request]
  trace.requests.forEach((r, i) => {
    if (r.issueUs !== null) events.push([r.issueUs, 1, i]);
    if (r.completeUs !== null) events.push([r.completeUs, 0, i]);
  });
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const gap = new Map<number, number>();
  let inFlight = 0;
  let freeSince: number | null = -Infinity;
  for (const [us, isIssue, i] of events) {
    if (isIssue) {
      gap.set(i, us - Math.max(trace.requests[i].arrivalUs, freeSince ?? us));
      if (++inFlight >= tags) freeSince = null;
    } else if (--inFlight < tags && freeSince === null) freeSince = us;
  }
  return order.map((i) => gap.get(i)!);
}

/**
 * A device like the one the trace ran on, from the kernel's own numbers: as many tags (and
 * channels) as it ever had requests issued and not completed, and a service time (issue ->
 * complete) fitted to them by least squares: the mean, plus a per-sector cost when sizes
 * differ. Means, not medians: how long queues grow depends on how busy the device is, slow
 * outliers included. No seek cost: a trace says nothing of the medium.
 */
export function measuredDevice(trace: BlkTrace): BlkDevice {
  const edges: Array<[number, number]> = [];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const r of trace.requests) {
    const svc = kernelServiceUs(r);
    if (svc === null) continue;
    edges.push([r.issueUs!, 1], [r.completeUs!, -1]);
    xs.push(r.sectors);
    ys.push(svc);
  }
  if (!edges.length) throw new BlkTraceError("no request was both issued and completed in the trace: nothing to measure a device from");
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // a completion before an issue at the same µs
  let depth = 0;
  let tags = 1;
  for (const [, d] of edges) tags = Math.max(tags, (depth += d));
  const n = xs.length;
  const mx = xs.reduce((a, x) => a + x, 0) / n;
  const my = ys.reduce((a, y) => a + y, 0) / n;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0);
  const perSectorUs = sxx > 0 ? Math.max(0, sxy / sxx) : 0;
  const baseUs = Math.max(0, my - perSectorUs * mx);
  const base_ns = Math.round(baseUs * 1000);
  const per_sector_ns = Math.round(perSectorUs * 1000);
  return {
    label: `as measured: ${tags} tag(s), service ${(baseUs / 1000).toFixed(3)} ms${per_sector_ns ? ` + ${per_sector_ns} ns/sector` : ""} (fitted to the kernel's issue -> complete)`,
    queue_depth: tags,
    channels: tags,
    base_ns,
    per_sector_ns,
    seek_max_sectors: 0,
    per_seek_sector_ns: 0,
    capacity_sectors: 2 ** 32 - 1,
  };
}

export interface TraceTunables {
  tunables?: DdTunables;
  kyber?: KyberTunables;
  hz?: number; // jiffies per second: the guest kernel's CONFIG_HZ_100 by default
  seed?: number; // kyber's token hints
  /**
   * µs: an arrival followed within plugUs by the next arrival from the same task is plugged
   * (no queue run between them), as one io_submit()'s requests reach the scheduler before
   * kblockd's async run dispatches any on one CPU. 0 (the default): every arrival runs the queue.
   */
  plugUs?: number;
  /**
   * With the "kernel" device: each request also holds its tag for the time the kernel left
   * that tag free before issuing it (kernelDispatchGaps(): the wait for a queue run, which the
   * model, with no CPU, does not have), so the device is busy as long as the kernel's was.
   * The model's service times then exceed the kernel's by those gaps.
   */
  dispatchGaps?: boolean;
}

/** The guest's kernel runs at HZ 100 (kernel-image/config: CONFIG_HZ_100). */
export const GUEST_HZ = 100;

/** plugged[i]: no queue run after request i's insert (see TraceTunables.plugUs) */
export function pluggedOf(requests: TraceRequest[], plugUs: number): number[] {
  return requests.map((r, i) => {
    const next = requests[i + 1];
    return plugUs > 0 && next && next.task === r.task && next.arrivalUs - r.arrivalUs <= plugUs ? 1 : 0;
  });
}

/**
 * Replays a trace's requests (one device) through the model: each arrives when the kernel
 * saw it arrive, relative to the first, whatever the model's device has done by then. The
 * device is a model (DEVICES, measuredDevice()) or "kernel": measuredDevice()'s tags, and each
 * request served in the time the kernel measured for it (issue -> complete), in whatever order
 * the model's scheduler dispatches it (measuredDevice()'s time for one the trace never saw complete).
 * The rows are in the trace's request order; insert_us is the arrival, from the first at 0.
 */
export function simulateBlkTrace(m: any, trace: BlkTrace, sched: Scheduler, device: BlkDevice | "kernel", tun: TraceTunables = {}): BlkResult {
  if (trace.devices.length > 1) throw new BlkError(`the trace holds requests on ${trace.devices.join(" and ")}: replay one device (onDevice)`);
  const rqs = trace.requests;
  if (!rqs.length) throw new BlkError("the trace has no requests to replay");
  const t = tun.tunables ?? DD_DEFAULTS;
  const k = tun.kyber ?? KYBER_DEFAULTS;
  const d = device === "kernel" ? measuredDevice(trace) : device;
  if (tun.dispatchGaps && device !== "kernel") throw new BlkError("dispatch gaps are added to the kernel's own service times: use the \"kernel\" device");
  const gap = new Map<number, number>();
  if (tun.dispatchGaps) {
    const gaps = kernelDispatchGaps(trace);
    kernelOrder(trace).forEach((rq, k) => gap.set(rq, gaps[k]));
  }
  // a measured 0 µs (under the clock's resolution) is kept as 1 ns: 0 means "the device model's"
  const service = rqs.map((r, i) => {
    const us = device === "kernel" ? kernelServiceUs(r) : null;
    return us === null ? 0 : Math.max(1, Math.round((us + (gap.get(i) ?? 0)) * 1000));
  });
  const t0 = rqs[0].arrivalUs;
  const plugged = pluggedOf(rqs, tun.plugUs ?? 0);
  const f64 = (xs: number[]) => {
    const p = m._fx_malloc(xs.length * 8);
    m.HEAPF64.set(xs, p >>> 3);
    return p;
  };
  const bufs = [
    allocTunables(m, t, k),
    allocDevice(m, d),
    f64(rqs.map((r) => Math.round((r.arrivalUs - t0) * 1000))),
    f64(rqs.map((r) => r.sector)),
    f64(service),
    allocU32(m, rqs.map((r) => r.sectors)),
    allocU32(m, rqs.map((r) => r.op)),
    allocU32(m, rqs.map((r) => r.ioprioClass)),
    allocU32(m, plugged),
  ];
  const sim = m._fx_blk_new_trace(SCHED_CODE[sched], ...bufs, rqs.length, tun.hz ?? GUEST_HZ, tun.seed ?? 1);
  for (const b of bufs) m._fx_free(b);
  if (!sim) throw new BlkError("the trace was refused: a device without tags or channels, or a request the model cannot take");
  try {
    const ret = m._fx_blk_run(sim);
    return readBlkResult(m, sim, sched, ret);
  } finally {
    m._fx_blk_free(sim);
  }
}

/** One request: the kernel's queue (arrival -> issue) and service (issue -> complete) times beside the model's. */
export interface RequestComparison {
  rq: number; // index in trace.requests and in the model's rows
  op: BlkOp;
  sector: number;
  sectors: number;
  arrivalUs: number; // from the first arrival
  kernel: { queueUs: number | null; serviceUs: number | null; position: number | null }; // position: in the kernel's issue order
  model: { queueUs: number; serviceUs: number; position: number };
}

export interface OpComparison {
  op: BlkOp;
  kernel: { queue: OpStats; service: OpStats };
  model: { queue: OpStats; service: OpStats };
}

export interface TraceComparison {
  sched: Scheduler;
  requests: RequestComparison[];
  ops: OpComparison[]; // each op the trace has, Read, Write, Discard, Flush, Other
  /** of every pair of requests the kernel issued, the share the model issued in the same order (1: the kernel's order) */
  pairsInOrder: number;
  samePosition: number; // requests the model issued at the kernel's position in the order
}

/** pairs out of order in xs (merge sort), for the order agreement */
function inversions(xs: number[]): number {
  if (xs.length < 2) return 0;
  const mid = xs.length >> 1;
  const a = xs.slice(0, mid);
  const b = xs.slice(mid);
  let n = inversions(a) + inversions(b);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    if (a[i] <= b[j]) xs[k++] = a[i++];
    else {
      xs[k++] = b[j++];
      n += a.length - i;
    }
  }
  while (i < a.length) xs[k++] = a[i++];
  while (j < b.length) xs[k++] = b[j++];
  return n;
}

export function compareBlkTrace(trace: BlkTrace, result: BlkResult): TraceComparison {
  const t0 = trace.requests[0]?.arrivalUs ?? 0;
  const kOrder = kernelOrder(trace);
  const kPos = new Map(kOrder.map((rq, i) => [rq, i]));
  const mPos = new Map(Array.from(result.order, (rq, i) => [rq, i]));
  const rows = result.rows;
  const requests: RequestComparison[] = trace.requests.map((r, i) => {
    const row = rows.subarray(i * ROW_WIDTH, (i + 1) * ROW_WIDTH);
    return {
      rq: i, op: r.op, sector: r.sector, sectors: r.sectors, arrivalUs: r.arrivalUs - t0,
      kernel: { queueUs: kernelQueueUs(r), serviceUs: kernelServiceUs(r), position: kPos.get(i) ?? null },
      model: { queueUs: row[ROW.dispatch_us] - row[ROW.insert_us], serviceUs: row[ROW.complete_us] - row[ROW.dispatch_us], position: mPos.get(i)! },
    };
  });
  const ops = [BlkOp.Read, BlkOp.Write, BlkOp.Discard, BlkOp.Flush, BlkOp.Other]
    .filter((op) => requests.some((c) => c.op === op))
    .map((op) => {
      const of = requests.filter((c) => c.op === op);
      const known = (xs: Array<number | null>) => xs.filter((x): x is number => x !== null);
      return {
        op,
        kernel: { queue: stats(known(of.map((c) => c.kernel.queueUs))), service: stats(known(of.map((c) => c.kernel.serviceUs))) },
        model: { queue: stats(of.map((c) => c.model.queueUs)), service: stats(of.map((c) => c.model.serviceUs)) },
      };
    });
  const modelPositions = kOrder.map((rq) => mPos.get(rq)!);
  const pairs = (kOrder.length * (kOrder.length - 1)) / 2;
  return {
    sched: result.summary.sched,
    requests,
    ops,
    pairsInOrder: pairs ? 1 - inversions(modelPositions) / pairs : 1,
    samePosition: kOrder.filter((rq, i) => mPos.get(rq) === i).length,
  };
}

/**
 * The kernel's own run as rows in the model's format (ROW_WIDTH per request; the "job" field
 * holds the op), so the offset-vs-time plot can draw it beside a replay: arrival as insert,
 * block_rq_issue as dispatch, block_rq_complete as complete, µs from the first arrival.
 * Requests the trace never saw issued or completed take their arrival time there.
 */
export function kernelRows(trace: BlkTrace): Float64Array {
  const t0 = trace.requests[0]?.arrivalUs ?? 0;
  const rows = new Float64Array(trace.requests.length * ROW_WIDTH);
  trace.requests.forEach((r, i) => {
    const at = r.arrivalUs - t0;
    const o = i * ROW_WIDTH;
    rows[o + ROW.job] = r.op;
    rows[o + ROW.op] = r.op;
    rows[o + ROW.prio] = r.ioprioClass;
    rows[o + ROW.sector] = r.sector;
    rows[o + ROW.sectors] = r.sectors;
    rows[o + ROW.insert_us] = at;
    rows[o + ROW.dispatch_us] = r.issueUs === null ? at : r.issueUs - t0;
    rows[o + ROW.complete_us] = r.completeUs === null ? at : r.completeUs - t0;
  });
  return rows;
}
