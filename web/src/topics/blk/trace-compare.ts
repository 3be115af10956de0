// The model's replay of a trace beside the kernel's run, request by request and per op: queue
// (arrival -> issue) and service (issue -> complete) times, and how much of the kernel's issue
// order the model kept.
import { BlkOp } from "../../shared/events";
import { stats, ROW, ROW_WIDTH, type BlkResult, type OpStats, type Scheduler } from "./blk-core";
import type { BlkTrace } from "./blk-trace";
import { kernelOrder, kernelQueueUs, kernelServiceUs } from "./trace-kernel";

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
