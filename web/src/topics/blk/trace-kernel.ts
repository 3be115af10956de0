// What the kernel did, read off a parsed block trace (blk-trace.ts): each request's queue and
// service times, the order it issued them, the waits for a queue run, the device as measured,
// and its run as rows in the model's format.
import { ROW, ROW_WIDTH, type BlkDevice } from "./blk-core";
import { BlkTraceError, type BlkTrace, type TraceRequest } from "./blk-trace";

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
