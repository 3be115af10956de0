// fslab simulate <topic> [options] [--seed N] [--json]: run a model scenario, print its
// summary (or, with --json, the summary and every request). Same wasm build as the page.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { loadCoreModule } from "../../web/src/shared/node-load";
import { FXMARK_COSTS, fxmarkUnlink, type Workload, GUEST_NAT_BLOCKS, NAT_ENTRY_PER_BLOCK, NidModel, SYNC_BG_CALLS, SYNCER_EVERY, benchWorkloadSteps } from "../../web/src/topics/f2fs/f2fs-core";
import { ExfatDir } from "../../web/src/topics/exfat/exfat-dir";
import { LAYOUTS, ext4WriteFile } from "../../web/src/topics/ext4/ext4-core";
import { DEFAULT_COST, SEED_80G, deleteCost } from "../../web/src/topics/exfat/exfat-cost";
import { DiscardPolicy, NidScanPhase, nidScansOf, type NidScan } from "../../web/src/shared/events";
import { DEVICES, DD_DEFAULTS, KYBER_DEFAULTS, KYBER_DEPTH, KYBER_DOMAINS, SCHEDULERS, fioJobs, simulateBlk, stats, ROW, ROW_WIDTH, type BlkDevice, type DdTunables, type FioPattern, type KyberTunables, type OpStats, type Scheduler } from "../../web/src/topics/blk/blk-core";
import { BlkTraceError, GUEST_HZ, compareBlkTrace, kernelDispatchGaps, kernelOrder, measuredDevice, onDevice, parseBlkTrace, simulateBlkTrace, type BlkTrace } from "../../web/src/topics/blk/blk-trace";
import { BlkOp } from "../../web/src/shared/events";
import { kernelDdTimeline, replayDdDecisions, traceTunables } from "../../web/src/topics/blk/dd-kernel";
import { hex, vfatName, VfatError, type Codepage, type IoCharset } from "../../web/src/topics/vfat/vfat-core";

const USAGE = `usage: fslab simulate exfat [--size SIZE] [--cluster SIZE] [--runs N] [--request-us US] [--cluster-ns NS] [--json]
  Deletes one file under both discard policies (per cluster, Linux <= 6.14; batched, 6.15+) and
  prices it: discard requests x request-us + clusters x cluster-ns. Defaults: the seed's 80G
  file of 4k clusters in one run, costs fitted to its 4m46s -> 1.66 s.
       fslab simulate exfat-dir [--files N] [--bucket N] [--json]
  Creates files f1..fN in one directory (4 KiB clusters) with and without the Linux 6.2
  empty-entry hint; entries the empty-entry search examines per bucket (the model matches the
  guest kernel's exfat_empty_search events record for record). Defaults: seed 000's 5000 in 1000s.
       fslab simulate ext4 [--size SIZE] [--json]
  dd of SIZE (default 256M) to a new file at bs 4k..64k, buffered and direct, on 4k blocks,
  bigalloc 64k clusters and 64k blocks: allocations and bitmap-checksum bytes (crc32c over a
  whole bitmap per allocation, ext4_block_bitmap_csum_set), as seed 001 explains LBS's
  slower direct I/O.
       fslab simulate f2fs [--workload MWUL|MWUM|both] [--clue 0,1,2,4,7] [--cores 1,2,4,8,15,30,60,120]
                           [--unlinks N] [--seed N] [--json]
  FxMark's unlink workloads on many cores, upstream vs each CLUE technique (unlinks/s).
       fslab simulate f2fs-nid [--files N] [--clue 0,1,2,4,7] [--nat-blocks N] [--sync-bg N]
                               [--syncer-every N] [--json]
  fslab-bench f2fs-clue's workload (fill N files, free them all, the shrinker trims the free-NID
  list to MAX_FREE_NIDS, refill) in the free-NID model, one caller at a time, under each clue
  mask: every scan with the fields of the guest's f2fs_free_nid_scan tracepoint, and the
  clue_* counters. Defaults: the bench's 8000 files, the guest volume's 512 NAT blocks, 3
  f2fs_balance_fs_bg calls per sync (what the guest's writeback makes, sometimes 4), and the
  bench's syncer loop as a sync every 50 refill creates (0: none).
       fslab simulate blk [--sched all|none|mq-deadline|kyber|bfq|both|LIST] [--device ssd|sdcard|hdd]
                         [--numjobs N] [--iodepth N] [--bs SIZE] [--rw read|write|randread|randwrite|randrw]
                         [--size SIZE] [--fifo-batch N] [--writes-starved N] [--read-expire MS]
                         [--write-expire MS] [--read-lat-nsec NS] [--write-lat-nsec NS] [--seed N] [--json]
  SIZE takes k, M or G (powers of 1024). --sched takes one scheduler, a comma-separated list,
  both (none and mq-deadline) or all. Defaults: seed 003's pattern 4 (numjobs 4, iodepth 4,
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
       fslab simulate vfat [--mount utf8:932,utf8:437,iso8859-1:932] [--json] NAME...
  The names created in order in one directory under each mount (iocharset:codepage): the 8.3
  bytes, how code pages 437 and 932 read them, the long name, the entries and the checksum
  that Linux's VFAT writes (seed 003's three mounts by default).`;

function size(s: string, what: string): number {
  const m = s.match(/^(\d+)([kKmMgG]?)$/);
  if (!m) throw new Error(`${what}: "${s}" is not a size (e.g. 4k, 1M)`);
  return Number(m[1]) * 1024 ** " kmg".indexOf((m[2] || " ").toLowerCase());
}

function int(s: string, what: string, min: number, max: number): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${what}: "${s}" is not a whole number in ${min}..${max}`);
  return n;
}

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
    if (v.trace === undefined) throw new Error("--decisions: needs --trace FILE");
    const given = (o: string) => argv.some((a) => a === `--${o}` || a.startsWith(`--${o}=`));
    const over: Partial<DdTunables> = {};
    if (given("fifo-batch")) over.fifo_batch = int(v["fifo-batch"]!, "--fifo-batch", 1, 1 << 20);
    if (given("writes-starved")) over.writes_starved = int(v["writes-starved"]!, "--writes-starved", 0, 1 << 20);
    return simulateDecisionsCommand(v.trace, v.dev, over, int(v.hz ?? String(GUEST_HZ), "--hz", 1, 10_000), v.json!);
  }
  const named = v.sched === "all" ? [...SCHEDULERS] : v.sched === "both" ? ["none", "mq-deadline"] : v.sched!.split(",").map((x) => x.trim());
  const scheds = [...new Set(named)].filter((x): x is Scheduler => (SCHEDULERS as readonly string[]).includes(x));
  if (!named.length || scheds.length !== new Set(named).size) throw new Error(`--sched: "${v.sched}" is not all, both, or a list of ${SCHEDULERS.join(", ")}`);
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
    const hz = int(v.hz ?? String(GUEST_HZ), "--hz", 1, 10_000);
    return simulateBlkTraceCommand(v.trace, { scheds, device: v.device ?? "kernel", dev: v.dev, plugUs: num(v["plug-us"]!, "--plug-us"), dispatchGaps: v["dispatch-gaps"]!, hz, tunables, kyber, seed, json: v.json! });
  }
  for (const o of ["dev", "hz"] as const) if (v[o] !== undefined) throw new Error(`--${o} applies to --trace only`);
  if (v["dispatch-gaps"] || v["plug-us"] !== "0") throw new Error("--dispatch-gaps and --plug-us apply to --trace only");
  v.device ??= "sdcard";
  if (!(v.device in DEVICES)) throw new Error(`--device: "${v.device}" is not one of ${Object.keys(DEVICES).join(", ")}`);
  if (!["read", "write", "randread", "randwrite", "randrw"].includes(v.rw!)) throw new Error(`--rw: "${v.rw}" is not read, write, randread, randwrite or randrw`);
  const pattern: FioPattern = {
    numjobs: int(v.numjobs!, "--numjobs", 1, 256),
    iodepth: int(v.iodepth!, "--iodepth", 1, 1024),
    bs: size(v.bs!, "--bs"),
    rw: v.rw as FioPattern["rw"],
    size: size(v.size!, "--size"),
  };
  if (pattern.bs < 512 || pattern.bs % 512) throw new Error(`--bs: ${pattern.bs} bytes is not a whole number of 512-byte sectors`);
  const device = DEVICES[v.device as keyof typeof DEVICES];
  const jobs = fioJobs(pattern);
  const requests = jobs.reduce((n, j) => n + j.ios, 0);
  if (requests > 20_000_000) throw new Error(`${requests} requests is more than this command simulates (20,000,000); lower --size or --numjobs`);
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
  if (o.dispatchGaps && o.device !== "kernel") throw new Error("--dispatch-gaps: only with --device kernel (the gaps ride on the kernel's own service times)");
  if (o.device === "kernel") device = "kernel";
  else if (o.device === "measured") device = measuredDevice(trace);
  else if (o.device in DEVICES) device = DEVICES[o.device as keyof typeof DEVICES];
  else throw new Error(`--device: "${o.device}" is not kernel, measured or one of ${Object.keys(DEVICES).join(", ")}`);
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

function num(s: string, what: string): number {
  const n = Number(s);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${what}: "${s}" is not a number >= 0`);
  return n;
}

async function simulateExfatCommand(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      size: { type: "string", default: "80G" },
      cluster: { type: "string", default: "4k" },
      runs: { type: "string", default: "1" },
      "request-us": { type: "string", default: DEFAULT_COST.requestUs.toFixed(3) },
      "cluster-ns": { type: "string", default: DEFAULT_COST.clusterNs.toFixed(2) },
      json: { type: "boolean", default: false },
    },
  });
  const cluster = size(v.cluster!, "--cluster");
  const bits = Math.log2(cluster / 512);
  if (!Number.isInteger(bits) || bits < 0 || bits > 16) throw new Error(`--cluster: ${cluster} B is not a power of two from 512 B to 32 MiB`);
  const clusters = Math.ceil(size(v.size!, "--size") / cluster);
  if (clusters < 1 || clusters > 100_000_000) throw new Error(`--size: ${clusters} clusters is outside 1..100,000,000`);
  const runs = int(v.runs!, "--runs", 1, Math.min(clusters, 1_000_000));
  const cost = { requestUs: num(v["request-us"]!, "--request-us"), clusterNs: num(v["cluster-ns"]!, "--cluster-ns") };
  const rows = deleteCost(await loadCoreModule("exfat"), clusters, runs, bits, cost);
  if (v.json) {
    console.log(JSON.stringify({ clusters, cluster_bytes: cluster, runs, cost, results: rows.map((r) => ({ policy: r.policy === DiscardPolicy.Batched ? "batched" : "per-cluster", discard_requests: r.discardRequests, ms: r.ms })) }));
    return 0;
  }
  console.log(`delete a file of ${clusters} clusters of ${cluster} B in ${runs} run(s), mounted -o discard`);
  console.log(`cost: ${cost.requestUs} us per discard request + ${cost.clusterNs} ns per cluster freed`);
  const time = (ms: number) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)}m${((ms % 60_000) / 1000).toFixed(0).padStart(2, "0")}s` : `${(ms / 1000).toFixed(ms < 10_000 ? 3 : 1)} s`);
  for (const r of rows) {
    const name = r.policy === DiscardPolicy.Batched ? "batched (6.15+)" : "per cluster (<= 6.14)";
    console.log(`  ${name.padEnd(24)} ${String(r.discardRequests).padStart(10)} discards  ${time(r.ms).padStart(10)}`);
  }
  if (clusters === SEED_80G.clusters && runs === 1) console.log(`  (seed, Linux 6.15's commit: 4m46s -> 1.66 s)`);
  return 0;
}

function list(s: string, what: string, min: number, max: number): number[] {
  return s.split(",").map((x) => int(x.trim(), what, min, max));
}

async function simulateF2fsCommand(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      workload: { type: "string", default: "both" },
      clue: { type: "string", default: "0,1,2,4,7" },
      cores: { type: "string", default: "1,2,4,8,15,30,60,120" },
      unlinks: { type: "string", default: "10000" },
      seed: { type: "string", default: "1" },
      json: { type: "boolean", default: false },
    },
  });
  const w = v.workload!.toUpperCase();
  const workloads: Workload[] = w === "BOTH" ? ["MWUL", "MWUM"] : w === "MWUL" || w === "MWUM" ? [w] : [];
  if (!workloads.length) throw new Error(`--workload: "${v.workload}" is not MWUL, MWUM or both`);
  const clues = list(v.clue!, "--clue", 0, 7);
  const cores = list(v.cores!, "--cores", 1, 4096);
  const unlinks = int(v.unlinks!, "--unlinks", 1, 1_000_000);
  const seed = int(v.seed!, "--seed", 0, 2 ** 32 - 1);
  const m = await loadCoreModule("f2fs");
  const results = workloads.flatMap((wl) => clues.flatMap((c) => cores.map((n) => fxmarkUnlink(m, wl, c, n, unlinks, FXMARK_COSTS, seed))));
  if (v.json) {
    console.log(JSON.stringify({ costs: FXMARK_COSTS, unlinks_per_core: unlinks, seed, results }));
    return 0;
  }
  console.log(`FxMark unlink, ${unlinks} unlinks per core; thousands of unlinks/s (simulated; costs in web/src/topics/f2fs/f2fs-core.ts)`);
  const names: Record<number, string> = { 0: "upstream", 1: "optimistic", 2: "heuristic", 4: "lazy", 7: "CLUE (all)" };
  for (const wl of workloads) {
    console.log(`\n${wl}${wl === "MWUL" ? " (private directories)" : " (one shared directory)"}`);
    console.log(`  ${"clue".padEnd(16)}${cores.map((n) => String(n).padStart(8)).join("")}   vs upstream at ${cores[cores.length - 1]}`);
    const base = results.find((r) => r.workload === wl && r.clue === 0 && r.cores === cores[cores.length - 1]);
    for (const c of clues) {
      const row = results.filter((r) => r.workload === wl && r.clue === c);
      const last = row[row.length - 1];
      const ratio = base ? `${(last.unlinks_per_sec / base.unlinks_per_sec).toFixed(1)}x` : "";
      console.log(`  ${`${c} ${names[c] ?? ""}`.padEnd(16)}${row.map((r) => (r.unlinks_per_sec / 1000).toFixed(0).padStart(8)).join("")}   ${ratio}`);
    }
  }
  console.log(`\nseed 004 (120 cores): CLUE ~15x upstream in MWUL, scaling to 15 cores; ~3x in MWUM`);
  return 0;
}

async function simulateF2fsNidCommand(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      files: { type: "string", default: "8000" },
      clue: { type: "string", default: "0,1,2,4,7" },
      "nat-blocks": { type: "string", default: String(GUEST_NAT_BLOCKS) },
      "sync-bg": { type: "string", default: String(SYNC_BG_CALLS) },
      "syncer-every": { type: "string", default: String(SYNCER_EVERY) },
      json: { type: "boolean", default: false },
    },
  });
  const natBlocks = int(v["nat-blocks"]!, "--nat-blocks", 1, 4096);
  const syncBg = int(v["sync-bg"]!, "--sync-bg", 0, 100);
  const syncerEvery = int(v["syncer-every"]!, "--syncer-every", 0, 1_000_000);
  const maxNid = natBlocks * NAT_ENTRY_PER_BLOCK;
  const files = int(v.files!, "--files", 0, maxNid - 9); // the bench's files, 5 directories and NIDs 0-3
  const clues = list(v.clue!, "--clue", 0, 7);
  const m = await loadCoreModule("f2fs");
  const steps = benchWorkloadSteps(files, maxNid, syncBg, syncerEvery);
  const results = clues.map((clue) => {
    const model = new NidModel(m, { natBlocks, clue });
    try {
      const bySteps = [{ step: "mount", scans: nidScansOf(model.takeEvents()) }];
      for (const s of steps) {
        model.run(s.ops);
        bySteps.push({ step: s.step, scans: nidScansOf(model.takeEvents()) });
      }
      const st = model.state();
      return { clue, counters: st.counters, steps: bySteps, free_nids: st.free, available_nids: st.availableNids, next_scan_nid: st.nextScanNid, next_bitmap_blk: st.nextBitmapBlk };
    } finally {
      model.dispose();
    }
  });
  if (v.json) {
    console.log(JSON.stringify({ files, nat_blocks: natBlocks, max_nid: maxNid, sync_bg: syncBg, syncer_every: syncerEvery, results }));
    return 0;
  }
  const names: Record<number, string> = { 0: "upstream", 1: "optimistic", 2: "heuristic", 4: "lazy", 7: "CLUE (all)" };
  console.log(`fslab-bench f2fs-clue's workload in the free-NID model: ${files} files, ${natBlocks} NAT blocks (NIDs 0..${maxNid - 1}),`);
  console.log(`one caller at a time, ${syncBg} f2fs_balance_fs_bg call(s) per sync, ${syncerEvery ? `the syncer's sync every ${syncerEvery} refill creates` : "no syncer"}`);
  console.log(`counters as the bench reads them (reset after the mount):`);
  console.log(`  ${"clue".padEnd(16)}${["bitmap_scans", "nat_scans", "scans_skipped", "nat_deferred", "nids_scanned"].map((h) => h.padStart(15)).join("")}`);
  for (const r of results) {
    const c = r.counters;
    console.log(`  ${`${r.clue} ${names[r.clue] ?? ""}`.padEnd(16)}${[c.bitmap_scans, c.nat_scans, c.scans_skipped, c.nat_deferred, c.nids_scanned].map((x) => String(x).padStart(15)).join("")}`);
  }
  const phase = (s: NidScan) => (s.skipped ? "skipped" : { [NidScanPhase.Bitmap]: "bitmap", [NidScanPhase.Nat]: "nat", [NidScanPhase.Deferred]: "deferred" }[s.phase] ?? String(s.phase));
  for (const r of results) {
    console.log(`\nclue ${r.clue} ${names[r.clue] ?? ""}: the f2fs_free_nid_scan records (start and end are NIDs)`);
    for (const st of r.steps) {
      console.log(`  ${st.step}${st.scans.length ? "" : ": none"}`);
      for (const s of st.scans) console.log(`    ${phase(s).padEnd(9)} start ${String(s.start).padStart(6)}  end ${String(s.end).padStart(6)}  scanned ${String(s.scanned).padStart(6)}  found ${String(s.found).padStart(5)}`);
    }
  }
  console.log(`\nOne caller at a time, the optimistic bit (1) changes nothing: no scan is ever found running.`);
  console.log(`Not modelled: the NAT journal, the guest's concurrent syncer, writeback and GC threads (see wasm/src/f2fs/nid.c).`);
  return 0;
}

async function simulateExfatDirCommand(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: { files: { type: "string", default: "5000" }, bucket: { type: "string", default: "1000" }, json: { type: "boolean", default: false } },
  });
  const files = int(v.files!, "--files", 1, 1_000_000);
  const bucket = int(v.bucket!, "--bucket", 1, files);
  const m = await loadCoreModule("exfat");
  const rows = [true, false].map((hint) => {
    const d = new ExfatDir(m, hint);
    const perBucket: number[] = [];
    let before = 0;
    try {
      for (let i = 1; i <= files; i++) {
        d.create(`f${i}`.length);
        if (i % bucket === 0 || i === files) {
          perBucket.push(d.examined - before);
          before = d.examined;
        }
      }
      return { empty_hint: hint ? 1 : 0, examined_per_bucket: perBucket, clusters: d.clusters };
    } finally {
      d.dispose();
    }
  });
  if (v.json) {
    console.log(JSON.stringify({ files, bucket, results: rows }));
    return 0;
  }
  console.log(`create f1..f${files} in one directory (4 KiB clusters, 128 entries each): entries the empty-entry search examines`);
  console.log(`  ${"files".padEnd(14)} ${"hint (6.2+)".padStart(12)} ${"no hint".padStart(12)}`);
  rows[0].examined_per_bucket.forEach((x, b) => {
    const range = `${b * bucket + 1}-${Math.min(files, (b + 1) * bucket)}`;
    console.log(`  ${range.padEnd(14)} ${String(x).padStart(12)} ${String(rows[1].examined_per_bucket[b]).padStart(12)}`);
  });
  console.log("  (seed 000, Linux 6.2: creating 5000 files 14% to 57% faster with the hint, bucket by bucket)");
  return 0;
}

async function simulateExt4Command(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({ args: argv, options: { size: { type: "string", default: "256M" }, json: { type: "boolean", default: false } } });
  const bytes = size(v.size!, "--size");
  if (bytes < 65536 || bytes > 2 ** 40) throw new Error(`--size: ${bytes} B is outside 64k..1T`);
  const m = await loadCoreModule("ext4");
  const rows = [false, true].flatMap((direct) =>
    LAYOUTS.flatMap((l) => [4096, 8192, 16384, 32768, 65536].map((bs) => ({ mode: direct ? "direct" : "buffered", layout: l.name, bs, ...ext4WriteFile(m, l, direct, bytes, bs) }))),
  );
  if (v.json) {
    console.log(JSON.stringify({ bytes, rows }));
    return 0;
  }
  console.log(`dd of ${bytes} B to a new file: bitmap checksum bytes per byte written (allocations)`);
  for (const mode of ["buffered", "direct"]) {
    console.log(`\n  ${mode.padEnd(14)}${[4, 8, 16, 32, 64].map((k) => `bs=${k}k`.padStart(17)).join("")}`);
    for (const l of LAYOUTS) {
      const cells = rows.filter((r) => r.mode === mode && r.layout === l.name).map((r) => `${(r.csum_bytes / bytes).toFixed(4)} (${r.allocations})`.padStart(17));
      console.log(`  ${l.name.padEnd(14)}${cells.join("")}`);
    }
  }
  console.log(`\n  direct: bytes the device writes per byte of data (zeros iomap writes after sub-block writes)`);
  console.log(`  ${"".padEnd(14)}${[4, 8, 16, 32, 64].map((k) => `bs=${k}k`.padStart(17)).join("")}`);
  for (const l of LAYOUTS) {
    const cells = rows.filter((r) => r.mode === "direct" && r.layout === l.name).map((r) => `${((bytes + r.zero_bytes) / bytes).toFixed(2)}x`.padStart(17));
    console.log(`  ${l.name.padEnd(14)}${cells.join("")}`);
  }
  console.log(`\n  A 64k-block bitmap is 16 times the bytes of a 4k one, so each allocation's checksum costs 16 times more;`);
  console.log(`  direct writes allocate per write, buffered ones per writeback extent. Seed 001 blames crc32c in`);
  console.log(`  ext4_block_bitmap_csum_set() for LBS's direct I/O being up to 30% slower, most at small bs; checksums`);
  console.log(`  alone do not grow as bs shrinks. What does: a direct write smaller than the block, extending the file,`);
  console.log(`  makes iomap_dio_bio_iter() write zeros to the end of its block, so 4k writes into 64k blocks send 8.5x`);
  console.log(`  the data to the device (the guest's kernel measured the same); 4k blocks are never written in part.`);
  return 0;
}

/** --trace FILE's text: gzipped or not; a file that is not tracefs text is a BlkTraceError */
function readTrace(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e: any) {
    throw new Error(`--trace: cannot read ${file}: ${e.code === "ENOENT" ? "no such file" : e.message}`);
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
  const differ = r.verdicts.map((v, i) => ({ i, ...v })).filter((v) => !v.sameReasons);
  if (json) {
    console.log(JSON.stringify({ device: trace.devices[0], tunables: tun, hz, dispatches: tl.steps, lists_agree: tl.lengthsAgree, same_request: r.same, same_reasons: r.sameReasons, differences: differ }));
    return 0;
  }
  console.log(`${file}: ${tl.steps} mq-deadline dispatches on ${trace.devices[0]} (fifo_batch ${tun.fifo_batch}, writes_starved ${tun.writes_starved}, read_expire ${tun.read_expire_ms} ms, write_expire ${tun.write_expire_ms} ms, HZ ${hz})`);
  console.log(`  lists rebuilt from the block events as long as the kernel's: ${tl.lengthsAgree} of ${tl.steps}`);
  console.log(`  the model's choice from the same lists: the kernel's request ${r.same} times, for the same reasons and counters ${r.sameReasons} times`);
  for (const d of differ.slice(0, 20))
    console.log(`  #${d.i}: kernel ${name(d.kernel.rq)} (${d.kernel.because}/${d.kernel.pick}, batching ${d.kernel.batching}, starved ${d.kernel.starved}); model ${name(d.model.rq)} (${d.model.because}/${d.model.pick}, batching ${d.model.batching}, starved ${d.model.starved})`);
  if (differ.length > 20) console.log(`  ... and ${differ.length - 20} more`);
  return 0;
}

async function simulateVfatCommand(argv: string[]): Promise<number> {
  const { values: v, positionals: names } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { mount: { type: "string", default: "utf8:932,utf8:437,iso8859-1:932" }, json: { type: "boolean", default: false } },
  });
  if (!names.length) throw new Error("fslab simulate vfat: give one or more names");
  const mounts = v.mount!.split(",").map((x) => {
    const [io, cp] = x.split(":");
    if ((io !== "utf8" && io !== "iso8859-1") || (cp !== "437" && cp !== "932")) throw new Error(`--mount: "${x}" is not iocharset:codepage with utf8 or iso8859-1, and 437 or 932`);
    return { io: io as IoCharset, cp: Number(cp) as Codepage };
  });
  const m = await loadCoreModule("vfat");
  const rows = mounts.flatMap(({ io, cp }) => {
    const existing: Uint8Array[] = [];
    return names.map((name) => {
      try {
        const r = vfatName(m, name, io, cp, existing);
        existing.push(r.short);
        return { mount: `${io}:${cp}`, name, short: hex(r.short), cp437: r.asCp437, cp932: r.asCp932, long_name: r.longName, entries: r.lfnSlots + 1, checksum: r.checksum, lcase: r.lcase };
      } catch (e) {
        if (e instanceof VfatError) return { mount: `${io}:${cp}`, name, error: e.message };
        throw e;
      }
    });
  });
  if (v.json) {
    console.log(JSON.stringify({ rows }));
    return 0;
  }
  for (const r of rows)
    console.log("error" in r ? `  ${r.mount.padEnd(15)} ${r.name}: ${r.error}` : `  ${r.mount.padEnd(15)} ${r.name}: 8.3 ${r.short} (cp437 "${r.cp437}", cp932 "${r.cp932}"), long name ${r.long_name === null ? "none" : `"${r.long_name}"`}, ${r.entries} entries, checksum 0x${r.checksum.toString(16).padStart(2, "0")}`);
  return 0;
}

export async function simulateCommand(args: string[]): Promise<number> {
  const [topic, ...rest] = args;
  if (topic === "blk") return simulateBlkCommand(rest);
  if (topic === "exfat") return simulateExfatCommand(rest);
  if (topic === "exfat-dir") return simulateExfatDirCommand(rest);
  if (topic === "f2fs") return simulateF2fsCommand(rest);
  if (topic === "f2fs-nid") return simulateF2fsNidCommand(rest);
  if (topic === "ext4") return simulateExt4Command(rest);
  if (topic === "vfat") return simulateVfatCommand(rest);
  throw new Error(topic ? `no model for "${topic}" (exfat, exfat-dir, ext4, f2fs, f2fs-nid, blk, vfat)\n${USAGE}` : USAGE);
}
