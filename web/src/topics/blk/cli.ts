// fslab simulate blk: the blk models on the command line (the same wasm build as the page).
// Listed in this topic's manifest (topic.ts); bin/commands/main.ts finds it there.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { loadCoreModule } from "../../shared/node-load";
import { BlkOp } from "../../shared/events";
import { int, num, size, UsageError } from "../../shared/cli-args";
import { DEVICES, DD_DEFAULTS, KYBER_DEFAULTS, SCHEDULERS, fioJobs, simulateBlk, stats, ROW, ROW_WIDTH, type BlkDevice, type DdTunables, type FioPattern, type KyberTunables, type OpStats, type Scheduler } from "./blk-core";
import { KYBER_DEPTH, KYBER_DOMAINS } from "./kyber";
import { BlkTraceError, onDevice, parseBlkTrace, type BlkTrace } from "./blk-trace";
import { GUEST_HZ, simulateBlkTrace } from "./trace-replay";
import { compareBlkTrace } from "./trace-compare";
import { kernelDispatchGaps, kernelOrder, measuredDevice } from "./trace-kernel";
import { kernelDdTimeline, replayDdDecisions, traceTunables } from "./dd-kernel";

async function simulateBlkCommand(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      sched: { type: "string", default: "all" },
      device: { type: "string" },
      trace: { type: "string" },
      dev: { type: "string" },
      "plug-us": { type: "string", default: "0" },
      "dispatch-gaps": { type: "boolean", default: false },
      hz: { type: "string" },
      numjobs: { type: "string", default: "4" },
      iodepth: { type: "string", default: "4" },
      bs: { type: "string", default: "1M" },
      rw: { type: "string", default: "read" },
      size: { type: "string", default: "64M" },
      "fifo-batch": { type: "string", default: String(DD_DEFAULTS.fifo_batch) },
      "writes-starved": { type: "string", default: String(DD_DEFAULTS.writes_starved) },
      "read-expire": { type: "string", default: String(DD_DEFAULTS.read_expire_ms) },
      "write-expire": { type: "string", default: String(DD_DEFAULTS.write_expire_ms) },
      "read-lat-nsec": { type: "string", default: String(KYBER_DEFAULTS.read_lat_nsec) },
      "write-lat-nsec": { type: "string", default: String(KYBER_DEFAULTS.write_lat_nsec) },
      seed: { type: "string", default: "1" },
      decisions: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
  });
  if (v.decisions) {
    if (v.trace === undefined) throw new UsageError("--decisions: needs --trace FILE");
    const given = (o: string) => argv.some((a) => a === `--${o}` || a.startsWith(`--${o}=`));
    const over: Partial<DdTunables> = {};
    if (given("fifo-batch")) over.fifo_batch = int(v["fifo-batch"]!, "--fifo-batch", 1, 1 << 20);
    if (given("writes-starved")) over.writes_starved = int(v["writes-starved"]!, "--writes-starved", 0, 1 << 20);
    return simulateDecisionsCommand(v.trace, v.dev, over, int(v.hz ?? String(GUEST_HZ), "--hz", 8, 10_000), v.json!);
  }
  const named = v.sched === "all" ? [...SCHEDULERS] : v.sched === "both" ? ["none", "mq-deadline"] : v.sched!.split(",").map((x) => x.trim());
  const scheds = [...new Set(named)].filter((x): x is Scheduler => (SCHEDULERS as readonly string[]).includes(x));
  if (!named.length || scheds.length !== new Set(named).size) throw new UsageError(`--sched: "${v.sched}" is not all, both, or a list of ${SCHEDULERS.join(", ")}`);
  const tunables: DdTunables = {
    ...DD_DEFAULTS,
    fifo_batch: int(v["fifo-batch"]!, "--fifo-batch", 1, 1 << 20),
    writes_starved: int(v["writes-starved"]!, "--writes-starved", 0, 1 << 20),
    read_expire_ms: int(v["read-expire"]!, "--read-expire", 0, 1 << 24),
    write_expire_ms: int(v["write-expire"]!, "--write-expire", 0, 1 << 24),
  };
  const kyber: KyberTunables = {
    read_lat_nsec: int(v["read-lat-nsec"]!, "--read-lat-nsec", 0, 2 ** 32 - 1),
    write_lat_nsec: int(v["write-lat-nsec"]!, "--write-lat-nsec", 0, 2 ** 32 - 1),
  };
  const seed = int(v.seed!, "--seed", 0, 2 ** 32 - 1);
  if (v.trace !== undefined) {
    const hz = int(v.hz ?? String(GUEST_HZ), "--hz", 8, 10_000);
    return simulateBlkTraceCommand(v.trace, { scheds, device: v.device ?? "kernel", dev: v.dev, plugUs: num(v["plug-us"]!, "--plug-us"), dispatchGaps: v["dispatch-gaps"]!, hz, tunables, kyber, seed, json: v.json! });
  }
  for (const o of ["dev", "hz"] as const) if (v[o] !== undefined) throw new UsageError(`--${o} applies to --trace only`);
  if (v["dispatch-gaps"] || v["plug-us"] !== "0") throw new UsageError("--dispatch-gaps and --plug-us apply to --trace only");
  v.device ??= "sdcard";
  if (!(v.device in DEVICES)) throw new UsageError(`--device: "${v.device}" is not one of ${Object.keys(DEVICES).join(", ")}`);
  if (!["read", "write", "randread", "randwrite", "randrw"].includes(v.rw!)) throw new UsageError(`--rw: "${v.rw}" is not read, write, randread, randwrite or randrw`);
  const pattern: FioPattern = {
    numjobs: int(v.numjobs!, "--numjobs", 1, 256),
    iodepth: int(v.iodepth!, "--iodepth", 1, 1024),
    bs: size(v.bs!, "--bs"),
    rw: v.rw as FioPattern["rw"],
    size: size(v.size!, "--size"),
  };
  if (pattern.bs < 512 || pattern.bs % 512) throw new UsageError(`--bs: ${pattern.bs} bytes is not a whole number of 512-byte sectors`);
  const device = DEVICES[v.device as keyof typeof DEVICES];
  const jobs = fioJobs(pattern);
  const requests = jobs.reduce((n, j) => n + j.ios, 0);
  if (requests > 20_000_000) throw new UsageError(`${requests} requests is more than this command simulates (20,000,000); lower --size or --numjobs`);
  const module = await loadCoreModule("blk");
  const results = scheds.map((sched) => simulateBlk(module, { sched, device, jobs, tunables, kyber, seed }));

  if (v.json) {
    console.log(JSON.stringify({
      pattern, device, tunables, kyber_tunables: kyber, seed,
      results: results.map((r) => ({
        summary: r.summary,
        ...(r.kyber ? { kyber_timer_runs: r.kyber } : {}),
        dispatch_order: Array.from(r.order),
        requests: Array.from({ length: r.rows.length / ROW_WIDTH }, (_, i) => Object.fromEntries(Object.entries(ROW).map(([k, o]) => [k, r.rows[i * ROW_WIDTH + o]]))),
      })),
    }));
    return 0;
  }
  console.log(`${pattern.numjobs} job(s) x iodepth ${pattern.iodepth}, ${pattern.rw}, bs ${pattern.bs} B, ${pattern.size} B each: ${requests} requests`);
  console.log(`device: ${device.label}; seed ${seed}`);
  console.log(`  ${"scheduler".padEnd(12)} ${"MB/s".padStart(9)} ${"time ms".padStart(10)} ${"read mean".padStart(10)} ${"read p99".padStart(10)} ${"write mean".padStart(11)} ${"write p99".padStart(10)} ${"seek (sectors)".padStart(15)}`);
  const ms = (us: number) => `${(us / 1000).toFixed(1)}ms`;
  for (const { summary: s } of results) {
    console.log(`  ${s.sched.padEnd(12)} ${s.mb_per_s.toFixed(1).padStart(9)} ${s.elapsed_ms.toFixed(1).padStart(10)} ${ms(s.read.mean_us).padStart(10)} ${ms(s.read.p99_us).padStart(10)} ${ms(s.write.mean_us).padStart(11)} ${ms(s.write.p99_us).padStart(10)} ${String(s.seek_sectors).padStart(15)}`);
  }
  const runs = results.find((r) => r.kyber)?.kyber;
  if (runs) {
    // what kyber's timer did with its domain depths (kyber_depth[] at the start)
    const congested = runs.filter((r) => r.bad).length;
    const depths = [0, 1].map((d) => {
      const all: number[] = [KYBER_DEPTH[d], ...runs.map((r) => r.depth[d])];
      return `${KYBER_DOMAINS[d]} ${all.at(-1)} of ${KYBER_DEPTH[d]} (min ${Math.min(...all)})`;
    });
    console.log(`  kyber: ${runs.length} timer runs, ${congested} congested (a p90 I/O latency over target); depth at the end: ${depths.join(", ")}`);
  }
  return 0;
}

interface TraceCommand {
  scheds: Scheduler[];
  device: string;
  dev?: string;
  plugUs: number;
  dispatchGaps: boolean;
  hz: number;
  tunables: DdTunables;
  kyber: KyberTunables;
  seed: number;
  json: boolean;
}

const OP_NAME: Record<number, string> = { [BlkOp.Read]: "R", [BlkOp.Write]: "W", [BlkOp.Discard]: "D", [BlkOp.Flush]: "F", [BlkOp.Other]: "N" };

/** fslab simulate blk --trace FILE: the kernel's requests through the model, its times beside the kernel's */
async function simulateBlkTraceCommand(file: string, o: TraceCommand): Promise<number> {
  let trace: BlkTrace;
  try {
    trace = parseBlkTrace(readTrace(file));
    if (!trace.requests.length)
      throw new BlkTraceError(`no block requests in ${trace.lines} lines: capture with events/block/block_rq_insert, block_rq_issue and block_rq_complete enabled (block_bio_queue too for direct issues)`);
    if (o.dev !== undefined) trace = onDevice(trace, o.dev);
    else if (trace.devices.length > 1) throw new BlkTraceError(`requests on ${trace.devices.length} devices (${trace.devices.join(", ")}): choose one with --dev`);
  } catch (e) {
    if (e instanceof BlkTraceError) throw new Error(`--trace ${file}: ${e.message}`);
    throw e;
  }
  const measuredOk = trace.requests.some((r) => r.issueUs !== null && r.completeUs !== null);
  if ((o.device === "kernel" || o.device === "measured") && !measuredOk) throw new Error(`--trace ${file}: no request was both issued and completed: --device kernel and measured need them; choose ${Object.keys(DEVICES).join(", ")}`);
  let device: BlkDevice | "kernel";
  if (o.dispatchGaps && o.device !== "kernel") throw new UsageError("--dispatch-gaps: only with --device kernel (the gaps ride on the kernel's own service times)");
  if (o.device === "kernel") device = "kernel";
  else if (o.device === "measured") device = measuredDevice(trace);
  else if (o.device in DEVICES) device = DEVICES[o.device as keyof typeof DEVICES];
  else throw new UsageError(`--device: "${o.device}" is not kernel, measured or one of ${Object.keys(DEVICES).join(", ")}`);
  const m = await loadCoreModule("blk");
  const tun = { tunables: o.tunables, kyber: o.kyber, hz: o.hz, seed: o.seed, plugUs: o.plugUs, dispatchGaps: o.dispatchGaps };
  const runs = o.scheds.map((sched) => {
    const result = simulateBlkTrace(m, trace, sched, device, tun);
    return { sched, result, cmp: compareBlkTrace(trace, result) };
  });
  const rqs = trace.requests;
  const t0 = rqs[0].arrivalUs;
  const spanUs = rqs.reduce((end, r) => Math.max(end, r.completeUs ?? r.issueUs ?? r.arrivalUs), t0) - t0;
  const gaps = measuredOk ? stats(kernelDispatchGaps(trace)) : null;
  const deviceLabel = device === "kernel"
    ? `kernel: ${measuredDevice(trace).queue_depth} tag(s), each request in the time the kernel measured for it${o.dispatchGaps ? ", plus the time its tag stood free before the kernel issued it" : ""}`
    : device.label;
  if (o.json) {
    console.log(JSON.stringify({
      trace: { file, device: trace.devices[0], requests: rqs.length, events: trace.events, lost: trace.lost, unmatched: trace.unmatched, requeues: trace.requeues, span_us: spanUs },
      device: deviceLabel, tunables: o.tunables, kyber_tunables: o.kyber, hz: o.hz, plug_us: o.plugUs, dispatch_gaps: o.dispatchGaps, seed: o.seed,
      kernel: { dispatch_order: kernelOrder(trace), dispatch_gap: gaps, ops: runs[0]?.cmp.ops.map((c) => ({ op: OP_NAME[c.op], ...c.kernel })) },
      results: runs.map(({ sched, result, cmp }) => ({
        sched, summary: result.summary, pairs_in_kernel_order: cmp.pairsInOrder, same_position: cmp.samePosition,
        ops: cmp.ops.map((c) => ({ op: OP_NAME[c.op], ...c.model })),
        ...(result.kyber ? { kyber_timer_runs: result.kyber } : {}),
        dispatch_order: Array.from(result.order),
        requests: cmp.requests.map((c) => ({ ...c, op: OP_NAME[c.op] })),
      })),
    }));
    return 0;
  }
  const byOp = new Map<number, number>();
  for (const r of rqs) byOp.set(r.op, (byOp.get(r.op) ?? 0) + 1);
  console.log(`trace ${file}: device ${trace.devices[0]}, ${rqs.length} requests (${[...byOp].map(([op, n]) => `${n} ${OP_NAME[op]}`).join(", ")}) over ${(spanUs / 1000).toFixed(1)} ms`);
  const notes: string[] = [];
  if (trace.lost) notes.push(`${trace.lost} events lost by the ring buffer: some requests are missing`);
  if (trace.unmatched.issue + trace.unmatched.complete) notes.push(`${trace.unmatched.issue} issues and ${trace.unmatched.complete} completions of requests from before the trace, left out`);
  const open = rqs.filter((r) => r.completeUs === null).length;
  if (open) notes.push(`${open} requests not completed within the trace: the kernel has no times for them`);
  for (const n of notes) console.log(`  (${n})`);
  console.log(`device: ${deviceLabel}; HZ ${o.hz}${o.plugUs ? `; plugged within ${o.plugUs} us` : ""}`);
  const ms = (x: OpStats, w: number) => (x.requests ? `${(x.mean_us / 1000).toFixed(2)}ms`.padStart(w) + `${(x.p99_us / 1000).toFixed(2)}ms`.padStart(10) : "-".padStart(w) + "-".padStart(10));
  console.log(`  ${"op".padEnd(3)}${"run".padEnd(12)}${"queue mean".padStart(11)}${"p99".padStart(10)}${"service mean".padStart(14)}${"p99".padStart(10)}`);
  for (const op of runs[0].cmp.ops.map((c) => c.op)) {
    const k = runs[0].cmp.ops.find((c) => c.op === op)!.kernel;
    console.log(`  ${OP_NAME[op].padEnd(3)}${"kernel".padEnd(12)}${ms(k.queue, 11)}${ms(k.service, 14)}`);
    for (const { sched, cmp } of runs) {
      const mo = cmp.ops.find((c) => c.op === op)!.model;
      console.log(`  ${"".padEnd(3)}${sched.padEnd(12)}${ms(mo.queue, 11)}${ms(mo.service, 14)}`);
    }
  }
  const issued = kernelOrder(trace).length;
  if (issued > 1) console.log(`  issue order beside the kernel's (${issued} issued): pairs of requests in the kernel's order, requests at its place`);
  for (const { sched, cmp } of issued > 1 ? runs : []) console.log(`     ${sched.padEnd(12)}${`${(100 * cmp.pairsInOrder).toFixed(1)}%`.padStart(8)}${String(cmp.samePosition).padStart(8)}`);
  if (gaps)
    console.log(`  the kernel left a tag free before an issue for ${(gaps.mean_us / 1000).toFixed(2)} ms on average (p99 ${(gaps.p99_us / 1000).toFixed(2)} ms), waiting for a queue run; the model issues at once${o.dispatchGaps ? ", its device holds each request that much longer instead" : " (--dispatch-gaps: its device holds each request that much longer)"}`);
  return 0;
}

/** --trace FILE's text: gzipped or not; a file that is not tracefs text is a BlkTraceError */
function readTrace(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new Error(`--trace: cannot read ${file}: ${err.code === "ENOENT" ? "no such file" : err.message}`);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (e) {
      throw new BlkTraceError(`a damaged gzip file (${(e as Error).message})`);
    }
  }
  const text = bytes.toString("utf8");
  if (text.includes("\0")) throw new BlkTraceError("binary data, not tracefs text (cat /sys/kernel/tracing/trace, not trace_pipe_raw)");
  return text;
}

async function simulateDecisionsCommand(file: string, dev: string | undefined, over: Partial<DdTunables>, hz: number, json: boolean): Promise<number> {
  let trace: BlkTrace;
  try {
    trace = parseBlkTrace(readTrace(file));
    const d = dev ?? trace.requests.find((r) => r.dd)?.dev;
    if (d) trace = onDevice(trace, d);
  } catch (e) {
    if (e instanceof BlkTraceError) throw new Error(`--trace ${file}: ${e.message}`);
    throw e;
  }
  const tun = { ...traceTunables(trace), ...over };
  const m = await loadCoreModule("blk");
  let tl, r;
  try {
    tl = kernelDdTimeline(trace, tun, hz);
    r = replayDdDecisions(m, trace, tun, hz);
  } catch (e) {
    if (e instanceof BlkTraceError) throw new Error(`--trace ${file}: ${e.message}`);
    throw e;
  }
  const name = (rq: number | null) => (rq === null ? "nothing" : `${tl.op(rq) ? "W" : "R"}${rq}@${trace.requests[rq].sector}`);
  const differ = r.verdicts.map((v, i) => ({ i, ...v })).filter((v) => v.judged && !v.sameReasons);
  const notJudged = r.verdicts.filter((v) => v.listsAgree && !v.judged).length;
  if (json) {
    console.log(JSON.stringify({ device: trace.devices[0], tunables: tun, hz, dispatches: tl.steps, head_dispatches: tl.headDispatches, merges: trace.merges, requeues: trace.requeues, lists_agree: tl.lengthsAgree, lacked_events: r.lacked, could_change: r.couldChange, not_judged_for_lacked_events: notJudged, judged: r.judged, same_request: r.same, same_reasons: r.sameReasons, differences: differ }));
    return 0;
  }
  console.log(`${file}: ${tl.steps} mq-deadline dispatches on ${trace.devices[0]} (fifo_batch ${tun.fifo_batch}, writes_starved ${tun.writes_starved}, read_expire ${tun.read_expire_ms} ms, write_expire ${tun.write_expire_ms} ms, HZ ${hz})`);
  if (tl.headDispatches || trace.merges || trace.requeues)
    console.log(`  ${trace.merges} queued requests merged, ${trace.requeues} requeued, ${tl.headDispatches} served from the at-head list (no decision)`);
  console.log(`  lists rebuilt from the block events as long as the kernel's: ${tl.lengthsAgree} of ${tl.steps} decisions; only those are judged`);
  // what the trace lacks for a full judgement: the decisions those events could change are not judged, not called different
  if (r.lacked.length) {
    const could = r.lacked.map((ev) => `${ev} ${r.couldChange[ev] ?? 0}`).join(", ");
    console.log(`  the trace has no ${r.lacked.join(", ")} events (recorded without them, or none happened); decisions they could change: ${could}`);
    console.log(
      notJudged
        ? `  so ${notJudged} of those decisions are not judged: trace ${r.lacked.filter((ev) => r.couldChange[ev]).join(", ")} too (\`fslab-trace start mq-deadline\` does) for a full judgement`
        : `  none of its decisions depends on them: all judged`,
    );
  }
  console.log(`  the model's choice from the same lists: the kernel's request ${r.same} of ${r.judged} judged decisions, for the same reasons and counters ${r.sameReasons} times`);
  for (const d of differ.slice(0, 20))
    console.log(`  #${d.i}: kernel ${name(d.kernel.rq)} (${d.kernel.because}/${d.kernel.pick}, batching ${d.kernel.batching}, starved ${d.kernel.starved}); model ${name(d.model.rq)} (${d.model.because}/${d.model.pick}, batching ${d.model.batching}, starved ${d.model.starved})`);
  if (differ.length > 20) console.log(`  ... and ${differ.length - 20} more`);
  return 0;
}

const USAGE_BLK = `usage: fslab simulate blk [--sched all|none|mq-deadline|kyber|bfq|both|LIST] [--device ssd|sdcard|hdd]
                         [--numjobs N] [--iodepth N] [--bs SIZE] [--rw read|write|randread|randwrite|randrw]
                         [--size SIZE] [--fifo-batch N] [--writes-starved N] [--read-expire MS]
                         [--write-expire MS] [--read-lat-nsec NS] [--write-lat-nsec NS] [--seed N] [--json]
  SIZE takes k, M or G (powers of 1024). --sched takes one scheduler, a comma-separated list,
  both (none and mq-deadline) or all. Defaults: pattern 4 of the I/O scheduler comparison in the blog series "Linuxカーネルのファイルアクセスの処理を追いかける" (numjobs 4, iodepth 4,
  bs 1M, read) on 64M per job, all four schedulers, the sdcard device; kyber's targets 2 ms
  (reads) and 10 ms (writes).
       fslab simulate blk --trace FILE [--sched ...] [--device kernel|measured|ssd|sdcard|hdd] [--dev MAJ,MIN]
                         [--dispatch-gaps] [--plug-us US] [--hz N] [the mq-deadline and kyber tunables above] [--json]
  Replays a block trace from the guest (tracefs text, gzipped or not, of block_rq_insert,
  block_rq_issue, block_rq_complete and block_bio_queue: \`cat /sys/kernel/tracing/trace\`):
  each request arrives when the kernel inserted it, open loop, and goes through the model's
  scheduler and device; prints the model's queue (arrival -> issue) and service (issue ->
  complete) times per op beside the kernel's own. --device kernel (the default): as many tags
  as the kernel had in flight, each request served in the time the kernel measured for it;
  measured: the same tags, one service time (plus a per-sector one) fitted to the kernel's. --dispatch-gaps (with kernel): each request
  also holds its tag as long as the kernel left that tag free before issuing it (the wait for
  a queue run, which the model has not: in the emulated guest it is milliseconds). --plug-us:
  an arrival followed that soon by the same task's next runs no queue (one io_submit's
  requests, see blk-trace.ts). --hz: the guest's 100 by default.
       fslab simulate blk --trace FILE --decisions [--dev MAJ,MIN] [--fifo-batch N] [--writes-starved N] [--json]
  A trace with our kernel's mq_deadline:dd_dispatch_request events (kernel-image/patches/0003):
  at each of the kernel's dispatches the model decides from the same lists (rebuilt from the
  block events) and the two choices are compared, reasons and counters included. Tunables:
  the trace's "# fslab: iosched ..." line, else the kernel's defaults; the options override.
  A trace with no dd_dispatch_none, block_rq_merge or block_rq_requeue events is named as
  such, and the decisions those events could have changed are counted as not judged.`;

export const cli = {
  "blk": { run: simulateBlkCommand, usage: USAGE_BLK },
};
