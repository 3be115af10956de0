// A parsed block trace replayed through the model, open loop: each request arrives when the
// kernel inserted it and goes through the model's scheduler to a device (the kernel's own
// service times, or a modelled one): fx_blk_new_trace (wasm/src/blk/exports.c, one flat array
// per field) -> blk_sim_new_trace / blk_sim_run (sim.c) -> BlkResult, rows in the trace's order.
import type { BlkModule } from "@wasm/blk.mjs";
import { allocU32 } from "../../shared/wasm-mem";
import { BlkError, DD_DEFAULTS, KYBER_DEFAULTS, SCHED_CODE, allocDevice, allocTunables, readBlkResult, type BlkDevice, type BlkResult, type DdTunables, type KyberTunables, type Scheduler } from "./blk-core";
import type { BlkTrace, TraceRequest } from "./blk-trace";
import { kernelDispatchGaps, kernelOrder, kernelServiceUs, measuredDevice } from "./trace-kernel";

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

/** What fx_blk_new_trace() (wasm/src/blk/exports.c) takes for a trace, one array per field; also the trace harness's seeds (wasm/src/blk/fuzz/trace-seeds.ts). */
export interface BlkTraceWords {
  device: BlkDevice;
  arrivalNs: number[]; // from the first arrival at 0
  sector: number[];
  serviceNs: number[]; // 0: the device model's
  sectors: number[];
  op: number[];
  ioprioClass: number[];
  plugged: number[];
}

export function blkTraceWords(trace: BlkTrace, device: BlkDevice | "kernel", tun: TraceTunables = {}): BlkTraceWords {
  if (trace.devices.length > 1) throw new BlkError(`the trace holds requests on ${trace.devices.join(" and ")}: replay one device (onDevice)`);
  const rqs = trace.requests;
  if (!rqs.length) throw new BlkError("the trace has no requests to replay");
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
  return {
    device: d,
    arrivalNs: rqs.map((r) => Math.round((r.arrivalUs - t0) * 1000)),
    sector: rqs.map((r) => r.sector),
    serviceNs: service,
    sectors: rqs.map((r) => r.sectors),
    op: rqs.map((r) => r.op),
    ioprioClass: rqs.map((r) => r.ioprioClass),
    plugged: pluggedOf(rqs, tun.plugUs ?? 0),
  };
}

/**
 * Replays a trace's requests (one device) through the model: each arrives when the kernel
 * saw it arrive, relative to the first, whatever the model's device has done by then. The
 * device is a model (DEVICES, measuredDevice()) or "kernel": measuredDevice()'s tags, and each
 * request served in the time the kernel measured for it (issue -> complete), in whatever order
 * the model's scheduler dispatches it (measuredDevice()'s time for one the trace never saw complete).
 * The rows are in the trace's request order; insert_us is the arrival, from the first at 0.
 */
export function simulateBlkTrace(m: BlkModule, trace: BlkTrace, sched: Scheduler, device: BlkDevice | "kernel", tun: TraceTunables = {}): BlkResult {
  const w = blkTraceWords(trace, device, tun);
  const f64 = (xs: number[]) => {
    const p = m._fx_malloc(xs.length * 8);
    m.HEAPF64.set(xs, p >>> 3);
    return p;
  };
  const bufs: [number, number, number, number, number, number, number, number, number] = [
    allocTunables(m, tun.tunables ?? DD_DEFAULTS, tun.kyber ?? KYBER_DEFAULTS),
    allocDevice(m, w.device),
    f64(w.arrivalNs),
    f64(w.sector),
    f64(w.serviceNs),
    allocU32(m, w.sectors),
    allocU32(m, w.op),
    allocU32(m, w.ioprioClass),
    allocU32(m, w.plugged),
  ];
  const n = w.op.length;
  const sim = m._fx_blk_new_trace(SCHED_CODE[sched], ...bufs, n, tun.hz ?? GUEST_HZ, tun.seed ?? 1);
  for (const b of bufs) m._fx_free(b);
  if (!sim) throw new BlkError("the trace was refused: a device without tags or channels, or a request the model cannot take");
  try {
    const ret = m._fx_blk_run(sim);
    return readBlkResult(m, sim, sched, ret);
  } finally {
    m._fx_blk_free(sim);
  }
}
