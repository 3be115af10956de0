// mq-deadline in the kernel, decision by decision. Our kernel's tracepoint
// mq_deadline:dd_dispatch_request (kernel-image/patches/0003) says, for each request the
// scheduler hands on, why that direction and that request and its counters after; with
// block_rq_insert and _complete a trace rebuilds the scheduler's lists before every decision.
//
//   parseBlkTrace() -> BlkTrace.sched (inserts, dispatches, completions in the kernel's order)
//     -> kernelDdTimeline(): DdState after each of the kernel's dispatches, for DeadlineQueues
//     -> replayDdDecisions(): the model (wasm/src/blk/dd_replay.c) decides from the same lists
//        at each of those moments; its choice beside the kernel's
import type { BlkModule } from "@wasm/blk.mjs";
import { DD_DEFAULTS, type DdList, type DdState, type DdTimeline, type DdTunables } from "./blk-core";
import { BlkOp } from "../../shared/events";
import { allocU32 } from "../../shared/wasm-mem";
import { BlkTraceError, DD_BECAUSE, DD_PICK, type BlkTrace, type DdBecause, type DdDispatch, type DdPick, type SchedEvent } from "./blk-trace";
import { GUEST_HZ } from "./trace-replay";

export interface DdChoice {
  rq: number | null; // null: the model would dispatch nothing
  because: DdBecause;
  pick: DdPick;
  batching: number;
  starved: number;
}

export interface DdVerdict {
  kernel: DdChoice;
  model: DdChoice;
  same: boolean; // same request (and so the same direction)
  sameReasons: boolean; // and the same because, pick, batching and starved
  /** the lists rebuilt from the block events were as long as the kernel's own here */
  listsAgree: boolean;
  /** events the trace lacks that could have changed this decision (lackedEvents()) */
  couldChange: JudgementEvent[];
  /** counted: the lists agree and no event the trace lacks could have changed the decision */
  judged: boolean;
}

/**
 * The events a full judgement needs beside block_rq_insert/_issue/_complete and
 * dd_dispatch_request, which a trace may have been recorded without:
 *   dd_dispatch_none: a dispatch call that handed on nothing but moved last_dir, batching and
 *     starved (the aged-request probe: only with requests of two or more priority classes queued);
 *   block_rq_merge: a queued request merged into another leaves the lists;
 *   block_rq_requeue: a request issued goes back to the at-head list, not into the lists.
 */
export const JUDGEMENT_EVENTS = ["dd_dispatch_none", "block_rq_merge", "block_rq_requeue"] as const;
export type JudgementEvent = (typeof JUDGEMENT_EVENTS)[number];

/**
 * The judgement events of which the trace has not one: recorded without them, or none
 * happened (tracefs text does not say which). The decisions they could have changed are not
 * judged (walkKernelLists() says which); the others are.
 */
export function lackedEvents(trace: BlkTrace): JudgementEvent[] {
  const has: Record<JudgementEvent, boolean> = {
    dd_dispatch_none: trace.sched.some((e) => e.kind === "none"),
    block_rq_merge: trace.merges > 0,
    block_rq_requeue: trace.requeues > 0,
  };
  return JUDGEMENT_EVENTS.filter((e) => !has[e]);
}

export const isWrite = (op: BlkOp) => op === BlkOp.Write || op === BlkOp.Discard; // rq_data_dir()
/** A request as the panel names it: its direction and its index in the trace (R36, W12). */
export const rqName = (write: boolean, rq: number) => `${write ? "W" : "R"}${rq}`;

/** The tunables the capture recorded, else the kernel's defaults. */
export function traceTunables(trace: BlkTrace): DdTunables {
  return { ...DD_DEFAULTS, ...trace.iosched };
}

function requireDd(trace: BlkTrace) {
  if (!trace.sched.some((e) => e.kind === "dispatch"))
    throw new BlkTraceError("the trace has no mq_deadline:dd_dispatch_request events: trace them too (our kernel's patch 0003), on a device using mq-deadline");
}

/**
 * Each request's deadline (rq->fifo_time, jiffies): exact from its own dispatch (jiffies then,
 * plus the time it had left); for one never dispatched, from its insert time, placed on the
 * jiffies clock by the nearest dispatch before it.
 */
function deadlines(trace: BlkTrace, tun: DdTunables, hz: number): number[] {
  const out = new Array<number>(trace.requests.length).fill(NaN);
  const ref: Array<{ us: number; jiffies: number }> = [];
  trace.requests.forEach((r, i) => {
    if (r.dd) {
      out[i] = r.dd.jiffies + Math.round((r.dd.fifoLeftMs * hz) / 1000);
      ref.push({ us: r.dd.us, jiffies: r.dd.jiffies });
    }
  });
  ref.sort((a, b) => a.us - b.us);
  trace.requests.forEach((r, i) => {
    if (!Number.isNaN(out[i]) || r.insertUs === null || !ref.length) return;
    let k = 0;
    while (k + 1 < ref.length && ref[k + 1].us <= r.insertUs) k++;
    const expire = Math.round(((isWrite(r.op) ? tun.write_expire_ms : tun.read_expire_ms) * hz) / 1000);
    out[i] = ref[k].jiffies + Math.floor(((r.insertUs - ref[k].us) * hz) / 1e6) + expire;
  });
  return out;
}

/** The lists as rebuilt from the block events: [prio][dir] request indexes, and those in flight. */
interface KernelLists {
  fifo: number[][][];
  sorted: number[][][];
  inFlight: Set<number>;
}

/**
 * The scheduler's lists rebuilt from the trace, event by event, and handed to `onDecision`
 * after each of the kernel's decisions with that decision's event. `agree` says, per
 * decision, whether the rebuilt FIFO lists are as long as the kernel said its own were: the
 * rebuild is checked, not assumed. Dispatches from the at-head list (because=head) are no
 * decisions: they leave the lists, and `headDispatches` counts them.
 */
function walkKernelLists(
  trace: BlkTrace,
  onDecision: (e: SchedEvent, dd: DdDispatch, lists: KernelLists) => void = () => {},
  /** at each decision before its request leaves the lists: the lists it was made from (at: index in trace.sched) */
  onBefore: (at: number, lists: KernelLists) => void = () => {},
): { agree: boolean[]; couldChange: JudgementEvent[][]; headDispatches: number } {
  const reqs = trace.requests;
  const dir = (i: number): 0 | 1 => (isWrite(reqs[i].op) ? 1 : 0);
  const prio = (i: number) => reqs[i].dd?.prio ?? 1;
  const lists: KernelLists = { fifo: [0, 1, 2].map(() => [[], []]), sorted: [0, 1, 2].map(() => [[], []]), inFlight: new Set() };
  const { fifo, sorted, inFlight } = lists;
  const agree: boolean[] = [];
  // for each decision, which of the events the trace lacks could have changed it:
  //   dd_dispatch_none: requests of two or more priority classes were queued (inserted, not
  //     completed: dd_queued()) at some moment since the decision before, so the aged-request
  //     probe may have run and moved the counters unseen;
  //   block_rq_merge: the lists hold a request the trace never dispatches (merged away, unseen);
  //   block_rq_requeue: the lists hold a request inserted while one of its extent was in flight
  //     and never completed: that one, requeued unseen (a request of its own would complete),
  //     belongs in the at-head list
  const lacked = new Set(lackedEvents(trace));
  const couldChange: JudgementEvent[][] = [];
  const dispatched = new Set(trace.sched.filter((e) => e.kind === "dispatch").map((e) => e.rq));
  const queuedByPrio = [0, 0, 0];
  const classesQueued = () => queuedByPrio.filter((n) => n > 0).length;
  let severalClasses = false; // since the decision before
  const listed = (test: (rq: number) => boolean) => fifo.some((byDir) => byDir.some((l) => l.some(test)));
  let headDispatches = 0;
  const bySector = (a: number, b: number) => reqs[a].sector - reqs[b].sector || a - b;
  const unlist = (rq: number) => {
    for (const l of [fifo[prio(rq)][dir(rq)], sorted[prio(rq)][dir(rq)]]) {
      const at = l.indexOf(rq);
      if (at >= 0) l.splice(at, 1);
    }
  };
  for (const [at, e] of trace.sched.entries()) {
    if (e.kind === "none") continue; // counters only: the next dispatch's event has them
    const p = prio(e.rq);
    const d = dir(e.rq);
    if (e.kind === "insert") queuedByPrio[p]++;
    else if (e.kind === "complete" || e.kind === "merge") queuedByPrio[p] = Math.max(0, queuedByPrio[p] - 1);
    if (classesQueued() >= 2) severalClasses = true;
    if (e.kind === "merge") {
      // dd_merged_requests(): the survivor takes the merged one's FIFO place if that expires
      // first, i.e. was queued first (one direction, one expiry); deadlines() already gives
      // the survivor the earlier deadline, from its own dispatch
      const f = fifo[p][d];
      if (e.into !== undefined && f.includes(e.into) && f.indexOf(e.rq) >= 0 && f.indexOf(e.rq) < f.indexOf(e.into)) {
        f.splice(f.indexOf(e.into), 1);
        f.splice(f.indexOf(e.rq) + 1, 0, e.into);
      }
      unlist(e.rq);
    } else if (e.kind === "insert") {
      fifo[p][d].push(e.rq);
      const l = sorted[p][d];
      let at = l.length;
      while (at > 0 && bySector(l[at - 1], e.rq) > 0) at--;
      l.splice(at, 0, e.rq);
    } else if (e.kind === "complete") {
      inFlight.delete(e.rq);
    } else {
      const dd = e.dd!;
      if (dd.because !== "head") onBefore(at, lists);
      unlist(e.rq);
      inFlight.add(e.rq);
      if (dd.because === "head") {
        headDispatches++;
        continue;
      }
      agree.push(fifo[p][0].length === dd.fifoRead && fifo[p][1].length === dd.fifoWrite);
      const could: JudgementEvent[] = [];
      if (lacked.has("dd_dispatch_none") && severalClasses) could.push("dd_dispatch_none");
      if (lacked.has("block_rq_merge") && listed((rq) => !dispatched.has(rq))) could.push("block_rq_merge");
      if (lacked.has("block_rq_requeue") && listed((rq) => reqs[rq].reinserted === true && reqs[rq].completeUs === null)) could.push("block_rq_requeue");
      couldChange.push(could);
      severalClasses = classesQueued() >= 2;
      onDecision(e, dd, lists);
    }
  }
  return { agree, couldChange, headDispatches };
}

/**
 * The scheduler's lists after each of the kernel's decisions, rebuilt from the trace, with
 * the tracepoint's counters; `lengthsAgree` counts the decisions at which they are as long
 * as the kernel's own (`agree`, per decision; walkKernelLists() above).
 */
export function kernelDdTimeline(
  trace: BlkTrace,
  tun: DdTunables = traceTunables(trace),
  hz = GUEST_HZ,
): DdTimeline & { lengthsAgree: number; agree: boolean[]; headDispatches: number } {
  requireDd(trace);
  const reqs = trace.requests;
  const deadline = deadlines(trace, tun, hz);
  const t0 = trace.sched[0].us;
  const states: DdState[] = [];
  const order: number[] = [];
  const { agree, headDispatches } = walkKernelLists(trace, (e, dd, { fifo, sorted, inFlight }) => {
    const lists: DdList[][] = [0, 1, 2].map((pp) =>
      [0, 1].map((dd2) => ({ fifo: fifo[pp][dd2].map((rq) => ({ rq, deadline: deadline[rq] })), sorted: [...sorted[pp][dd2]] })),
    );
    states.push({
      nowUs: Math.round(e.us - t0), jiffies: dd.jiffies, batching: dd.batching, starved: dd.starved, lastDir: dd.dir,
      tagsUsed: inFlight.size, inService: inFlight.size, fifoBatch: tun.fifo_batch, writesStarved: tun.writes_starved,
      lists, dispatched: [...inFlight], noneQueue: [], because: DD_BECAUSE.indexOf(dd.because), pick: DD_PICK.indexOf(dd.pick),
    });
    order.push(e.rq);
  });
  return {
    source: "kernel",
    steps: states.length,
    at: (k) => states[k],
    op: (rq) => (isWrite(reqs[rq].op) ? 1 : 0),
    sector: (rq) => reqs[rq].sector,
    hz,
    finished: true,
    dispatched: (k) => order[k],
    lengthsAgree: agree.filter(Boolean).length,
    agree,
    headDispatches,
  };
}

/**
 * Per kernel decision (as replay.verdicts counts them), whether the deadline check decided it:
 * a batch begun (not one going on) with a next request in sector order to take instead, while
 * the chosen direction's FIFO held its oldest request past its deadline and its newest not, so
 * checking the oldest (upstream's deadline_check_fifo()) and checking another request part
 * there. Under deadlines every request has missed, or none reaches, there is none such.
 */
export function deadlineDecisions(trace: BlkTrace, tun: DdTunables = traceTunables(trace), hz = GUEST_HZ): boolean[] {
  requireDd(trace);
  const deadline = deadlines(trace, tun, hz);
  const out: boolean[] = [];
  walkKernelLists(trace, () => {}, (at, { fifo }) => {
    const dd = trace.sched[at].dd!;
    const f = fifo[dd.prio]?.[dd.dir] ?? [];
    // time_after_eq(jiffies, rq->fifo_time): an unknown deadline (NaN) counts as neither;
    // with no next request the FIFO's head is taken whatever the check says (pick=no_next)
    const expired = (rq: number) => dd.jiffies >= deadline[rq];
    out.push(dd.because !== "batch" && dd.pick !== "no_next" && f.length > 1 && expired(f[0]) && deadline[f[f.length - 1]] > dd.jiffies);
  });
  return out;
}

/** What the newest run's verdict asks of the run itself (ddRunVerdict): its fifo_batch, and the decisions the deadline check made. */
export function runLimits(trace: BlkTrace): { fifoBatch: number; deadlineDecided: boolean[] } {
  const tun = traceTunables(trace);
  return { fifoBatch: tun.fifo_batch, deadlineDecided: deadlineDecisions(trace, tun) };
}

/** What mq-deadline carries from one dispatch to the next (a trace that starts mid-stream needs it). */
export interface DdStart {
  lastDir: 0 | 1;
  batching: number;
  starved: number;
  latestPos: number[][]; // [prio][dir]: the sector of the last request dispatched
}

/** The scheduler just switched on (dd_init_sched): last_dir WRITE, counters and positions 0. */
export const DD_FRESH: DdStart = { lastDir: 1, batching: 0, starved: 0, latestPos: [[0, 0], [0, 0], [0, 0]] };

/** The scheduler's carried state after a trace's dispatches, from `start` (a run after earlier runs begins where they ended). */
export function ddEndState(trace: BlkTrace, start: DdStart = DD_FRESH): DdStart {
  const end: DdStart = { ...start, latestPos: start.latestPos.map((p) => [...p]) };
  for (const e of trace.sched) {
    if (e.none) {
      end.lastDir = e.none.lastDir;
      end.batching = e.none.batching;
      end.starved = e.none.starved;
    }
    const d = e.kind === "dispatch" ? e.dd! : null;
    if (!d) continue;
    // an at-head dispatch leaves last_dir, batching and starved alone (dd_start_request only)
    if (d.because !== "head") {
      end.lastDir = d.dir;
      end.batching = d.batching;
      end.starved = d.starved;
    }
    end.latestPos[d.prio][d.dir] = trace.requests[e.rq].sector;
  }
  return end;
}

export interface DdReplay {
  verdicts: DdVerdict[]; // one per kernel decision (at-head dispatches are none), in order
  /** the judgement events the trace has none of (lackedEvents()) */
  lacked: JudgementEvent[];
  /** of those, how many decisions (with the lists agreeing) each could have changed: not judged */
  couldChange: Partial<Record<JudgementEvent, number>>;
  judged: number; // decisions whose rebuilt lists were as long as the kernel's and that no lacked event could change: the ones counted below
  same: number; // of those, the model chose the kernel's request
  sameReasons: number; // ... for the same reasons, with the same counters after
}

/** What dd_replay() (wasm/src/blk/dd_replay.c) takes for a trace, as the u32 words it reads. */
export interface DdReplayWords {
  tun: number[]; // read_expire_ms write_expire_ms prio_aging_expire_ms writes_starved fifo_batch
  start: number[]; // last_dir batching starved, then per prio and dir latest_pos low, high
  rq: number[]; // 4 per request: sector low, high, write, dd prio
  // 4 per event: kind (0 insert, 1 dispatch, 2 complete, 3 merge, 4 none, 5 at-head dispatch),
  // request (none: last_dir), jiffies (merge: the survivor, ~0 if unknown), batching | starved << 16
  ev: number[];
  kernel: DdChoice[]; // the kernel's decisions, one per dispatch event
}

/** A trace marshalled for dd_replay(): also what the trace harness's seeds are made of (wasm/src/blk/fuzz/trace-seeds.ts). */
export function ddReplayWords(trace: BlkTrace, tun: DdTunables = traceTunables(trace), hz = GUEST_HZ, start: DdStart = DD_FRESH): DdReplayWords {
  requireDd(trace);
  const reqs = trace.requests;
  const deadline = deadlines(trace, tun, hz);
  const rq: number[] = [];
  for (const r of reqs) rq.push(r.sector % 2 ** 32, Math.floor(r.sector / 2 ** 32), isWrite(r.op) ? 1 : 0, r.dd?.prio ?? 1);
  const ev: number[] = [];
  const kernel: DdChoice[] = [];
  for (const e of trace.sched) {
    const r = reqs[e.rq];
    if (e.kind === "insert") {
      if (Number.isNaN(deadline[e.rq])) continue; // never dispatched and no jiffies to place it by
      const expire = Math.round(((isWrite(r.op) ? tun.write_expire_ms : tun.read_expire_ms) * hz) / 1000);
      ev.push(0, e.rq, deadline[e.rq] - expire, 0);
    } else if (e.kind === "dispatch") {
      const d = e.dd!;
      if (d.because === "head") {
        ev.push(5, e.rq, d.jiffies, 0); // not a decision: the at-head list comes first
        continue;
      }
      ev.push(1, e.rq, d.jiffies, (d.batching & 0xffff) | ((d.starved & 0xffff) << 16));
      kernel.push({ rq: e.rq, because: d.because, pick: d.pick, batching: d.batching, starved: d.starved });
    } else if (e.kind === "merge") {
      if (Number.isNaN(deadline[e.rq])) continue; // never given to the model
      ev.push(3, e.rq, e.into !== undefined && !Number.isNaN(deadline[e.into]) ? e.into : 0xffffffff, 0);
    } else if (e.kind === "none") {
      const n = e.none!;
      ev.push(4, n.lastDir, n.jiffies, (n.batching & 0xffff) | ((n.starved & 0xffff) << 16));
    } else ev.push(2, e.rq, 0, 0);
  }
  return {
    tun: [tun.read_expire_ms, tun.write_expire_ms, tun.prio_aging_expire_ms, tun.writes_starved, tun.fifo_batch],
    // jiffies are unsigned long in a 32-bit kernel: keep them as the u32 words they are
    start: [start.lastDir, start.batching, start.starved, ...start.latestPos.flatMap((p) => p.flatMap((s) => [s % 2 ** 32, Math.floor(s / 2 ** 32)]))],
    rq,
    ev,
    kernel,
  };
}

/**
 * The model decides at each of the kernel's dispatches from the kernel's own lists (the same
 * inserts at the same jiffies; after each decision, the kernel's choice and counters), so
 * every decision is judged on its own: a difference does not carry into the next.
 */
export function replayDdDecisions(m: BlkModule, trace: BlkTrace, tun: DdTunables = traceTunables(trace), hz = GUEST_HZ, start: DdStart = DD_FRESH): DdReplay {
  const w = ddReplayWords(trace, tun, hz, start);
  const { ev, kernel } = w;
  const tunPtr = allocU32(m, w.tun);
  const startPtr = allocU32(m, w.start);
  const rqPtr = allocU32(m, w.rq);
  const evPtr = allocU32(m, ev);
  const outPtr = m._fx_malloc(Math.max(1, kernel.length) * 5 * 4);
  try {
    if (!tunPtr || !startPtr || !rqPtr || !evPtr || !outPtr) throw new BlkTraceError("out of memory for the replay");
    const n = m._fx_dd_replay(tunPtr, hz, startPtr, rqPtr, w.rq.length / 4, evPtr, ev.length / 4, outPtr);
    if (n < 0) throw new BlkTraceError("the trace's block events cannot be replayed: a request inserted twice, or dispatched while not queued");
    if (n !== kernel.length) throw new BlkTraceError(`the replay stopped after ${n} of ${kernel.length} decisions`);
    return ddVerdicts(trace, kernel, m.HEAPU32.slice(outPtr >>> 2, (outPtr >>> 2) + 5 * n));
  } finally {
    for (const p of [tunPtr, startPtr, rqPtr, evPtr, outPtr]) if (p) m._fx_free(p);
  }
}

/**
 * dd_replay()'s output (5 words per decision: request, because, pick, batching, starved) judged
 * against the kernel's decisions: the wasm model's (replayDdDecisions) or a learner's function's
 * (grader.ts, the mq-deadline code step).
 */
export function ddVerdicts(trace: BlkTrace, kernel: DdChoice[], out: ArrayLike<number>): DdReplay {
  // a decision judged from lists that are not the kernel's would blame the model for the
  // trace's gaps (requests merged or requeued out of sight): such decisions are not counted
  // nor one that an event the trace lacks could have changed: it is not judged, not "different"
  const { agree, couldChange } = walkKernelLists(trace);
  const verdicts = kernel.map((k, i): DdVerdict => {
    const rq = out[5 * i] === 0xffffffff ? null : out[5 * i];
    const model: DdChoice = { rq, because: DD_BECAUSE[out[5 * i + 1]] ?? "batch", pick: DD_PICK[out[5 * i + 2]] ?? "sorted", batching: out[5 * i + 3], starved: out[5 * i + 4] };
    const same = rq === k.rq;
    const sameReasons = same && model.because === k.because && model.pick === k.pick && model.batching === k.batching && model.starved === k.starved;
    const listsAgree = agree[i] ?? false;
    const could = couldChange[i] ?? [];
    return { kernel: k, model, same, sameReasons, listsAgree, couldChange: could, judged: listsAgree && could.length === 0 };
  });
  const judged = verdicts.filter((v) => v.judged);
  const lacked = lackedEvents(trace);
  const count: Partial<Record<JudgementEvent, number>> = {};
  for (const ev of lacked) count[ev] = verdicts.filter((v) => v.listsAgree && v.couldChange.includes(ev)).length;
  return { verdicts, lacked, couldChange: count, judged: judged.length, same: judged.filter((v) => v.same).length, sameReasons: judged.filter((v) => v.sameReasons).length };
}

/**
 * What decision `k` (0-based, at-head dispatches not counted) was made from, a line each: the
 * clock, the counters and positions the kernel carried in, and each non-empty list (FIFO oldest
 * first with each request's deadline; sorted by sector). For a learner whose function chose
 * otherwise (the mq-deadline code step).
 */
export function ddDecisionInputs(trace: BlkTrace, k: number, tun: DdTunables = traceTunables(trace), hz = GUEST_HZ, start: DdStart = DD_FRESH): string[] {
  const reqs = trace.requests;
  const deadline = deadlines(trace, tun, hz);
  const out: string[] = [];
  let seen = 0;
  walkKernelLists(trace, () => {}, (at, { fifo, sorted }) => {
    if (seen++ !== k) return;
    const dd = trace.sched[at].dd!;
    const before = ddEndState({ ...trace, sched: trace.sched.slice(0, at) }, start);
    const dir = ["read", "write"];
    const now = dd.jiffies;
    out.push(`jiffies ${now}; fifo_batch ${tun.fifo_batch}, writes_starved ${tun.writes_starved}; read_expire ${tun.read_expire_ms} ms, write_expire ${tun.write_expire_ms} ms (HZ ${hz})`);
    out.push(`coming in: last_dir ${dir[before.lastDir].toUpperCase()}, batching ${before.batching}, starved ${before.starved}`);
    const rq = (i: number) => `rq ${i} @${reqs[i].sector}`;
    for (let p = 0; p < 3; p++)
      for (const d of [0, 1]) {
        if (!fifo[p][d].length) continue;
        const prio = ["RT", "BE", "IDLE"][p];
        const shown = (xs: number[], f: (i: number) => string) => xs.slice(0, 12).map(f).join(", ") + (xs.length > 12 ? `, ... (${xs.length} in all)` : "");
        out.push(`${prio} ${dir[d]}s FIFO, oldest first: ${shown(fifo[p][d], (i) => `${rq(i)} (fifo_time ${deadline[i]}${deadline[i] <= now ? ", expired" : ""})`)}`);
        out.push(`${prio} ${dir[d]}s by sector: ${shown(sorted[p][d], rq)}; latest_pos[${dir[d].toUpperCase()}] ${before.latestPos[p][d]}`);
      }
  });
  return out;
}

/** A decision as a line: the request and the tracepoint's reasons and counters after. */
export function ddChoiceLine(trace: BlkTrace, c: DdChoice): string {
  const what = c.rq === null ? "nothing" : `rq ${c.rq} (${isWrite(trace.requests[c.rq].op) ? "write" : "read"} @${trace.requests[c.rq].sector})`;
  return `${what}, because=${c.because} pick=${c.pick}, batching ${c.batching}, starved ${c.starved}`;
}
