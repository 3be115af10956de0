// The block-trace input against a trace the guest kernel wrote, and hand-made lines for what
// that capture does not show.
//
// traces/blk-nullb-mq-deadline.trace.gz was captured in the guest (Linux 7.2.13) with
// `npx fslab vm -- "$(cat cap.sh)" > blk-nullb-mq-deadline.trace` (then gzip -9n), cap.sh being:
//   d=/sys/kernel/config/nullb/nullb1; mkdir $d
//   echo 64 > $d/size; echo 1 > $d/hw_queue_depth; echo 2 > $d/irqmode; echo 1000000 > $d/completion_nsec
//   echo 1 > $d/power                      # a null_blk disk: one tag, each request done by a 1 ms timer
//   echo mq-deadline > /sys/block/nullb1/queue/scheduler; echo 64 > /sys/block/nullb1/queue/nr_requests
//   T=/sys/kernel/tracing; echo 0 > $T/tracing_on; echo > $T/set_event; echo > $T/trace; echo 4096 > $T/buffer_size_kb
//   for e in block_bio_queue block_rq_insert block_rq_issue block_rq_complete; do echo 1 > $T/events/block/$e/enable; done
//   IFS=: read maj min < /sys/block/nullb1/dev; echo "dev == $(( (maj << 20) | min ))" > $T/events/block/filter
//   echo 1 > $T/tracing_on
//   fio --name=t --filename=/dev/nullb1 --rw=randrw --rwmixread=70 --bs=4k --iodepth=8 --numjobs=2 --ioengine=libaio \
//       --direct=1 --number_ios=100 --size=32M --randrepeat=1 --eta=never --output=/dev/null
//   echo 0 > $T/tracing_on; echo "# fslab: ..." (two lines saying the above); cat $T/trace
// 200 requests (140 reads, 60 sync writes), 800 events, none lost. The times are the
// emulator's: null_blk's 1 ms timer completed requests in 1.04 to 37.1 ms (median 1.50), and
// kblockd's queue runs took 0.45 ms (median) to 20 ms to come round on the one emulated CPU.
// traces/blk-nullb-none.trace.gz: the same, with `echo none` for the scheduler and nr_requests
// left as it is (1: without a scheduler it cannot exceed the tags). No block_rq_insert at all:
// each bio waits for the one tag and its request is issued directly.

import type { BlkModule } from "@wasm/blk.mjs";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "../../shared/node-load";
import { BlkError, DEVICES, ROW, ROW_WIDTH } from "./blk-core";
import { BlkOp } from "../../shared/events";
import { onDevice, parseBlkTrace } from "./blk-trace";
import { compareBlkTrace } from "./trace-compare";
import { kernelDispatchGaps, kernelOrder, measuredDevice } from "./trace-kernel";
import { pluggedOf, simulateBlkTrace } from "./trace-replay";
import { kernelDdTimeline, replayDdDecisions } from "./dd-kernel";
const read = (name: string) => gunzipSync(readFileSync(new URL(`./traces/${name}.trace.gz`, import.meta.url))).toString("utf8");
const text = read("blk-nullb-mq-deadline");

let m: BlkModule;
beforeAll(async () => {
  m = await loadCoreModule("blk");
});

describe("parseBlkTrace on the guest's trace", () => {
  const t = parseBlkTrace(text);

  it("finds every request with its insert, issue and completion", () => {
    expect(t.requests.length).toBe(200);
    expect(t.devices).toEqual(["254,1"]);
    expect(t.events).toBe(800);
    expect(t.lost).toBe(0);
    expect(t.unmatched).toEqual({ issue: 0, complete: 0 });
    expect(t.requests.filter((r) => r.op === BlkOp.Read).length).toBe(140);
    expect(t.requests.filter((r) => r.op === BlkOp.Write).length).toBe(60);
    for (const r of t.requests) {
      expect(r.insertUs).not.toBeNull();
      expect(r.bioUs! <= r.insertUs! && r.insertUs! <= r.issueUs! && r.issueUs! <= r.completeUs!).toBe(true);
    }
    for (let i = 1; i < t.requests.length; i++) expect(t.requests[i].arrivalUs).toBeGreaterThanOrEqual(t.requests[i - 1].arrivalUs);
  });

  it("reads the first request's fields as the lines say (lines 15, 16, 41, 44)", () => {
    // fio-66 ... 9.491706: block_bio_queue: 254,1 R 3952 + 8 [fio]
    // fio-66 ... 9.491801: block_rq_insert: 254,1 R 4096 () 3952 + 8 be,0,4 [fio]
    // kworker/0:1H-63 ... 9.557752: block_rq_issue: 254,1 R 4096 () 3952 + 8 be,0,4 [kworker/0:1H]
    // fio-65 ... 9.559827: block_rq_complete: 254,1 R () 3952 + 8 be,0,4 [0]
    expect(t.requests[0]).toEqual({
      dev: "254,1", rwbs: "R", op: BlkOp.Read, sector: 3952, sectors: 8, ioprioClass: 2, task: "fio-66", line: 16,
      arrivalUs: 9491801, bioUs: 9491706, insertUs: 9491801, issueUs: 9557752, completeUs: 9559827, dd: null,
    });
  });

  it("the kernel's mq-deadline issued them out of arrival order; its first: the lowest write, as last_dir starts WRITE", () => {
    const order = kernelOrder(t);
    expect(order.length).toBe(200);
    expect(order).not.toEqual(order.slice().sort((a, b) => a - b));
    // eight inserted before kblockd's first run: writes 30800 and 24936 among them
    expect(t.requests[order[0]]).toMatchObject({ rwbs: "WS", sector: 24936 });
    expect(t.requests[order[1]]).toMatchObject({ rwbs: "WS", sector: 30800 });
  });

  it("the kernel's waits for a queue run with its tag free: the first issue came 7.649 ms after its insert", () => {
    const gaps = kernelDispatchGaps(t);
    expect(gaps.length).toBe(200);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(0);
    // WS 24936: inserted at 9.510195 (the disk idle), issued by kblockd at 9.517844
    expect(gaps[0]).toBeCloseTo(7649, 6);
  });

  it("measures a one-tag device whose service time is the kernel's mean", () => {
    const d = measuredDevice(t);
    expect(d.queue_depth).toBe(1);
    expect(d.channels).toBe(1);
    const mean = t.requests.reduce((a, r) => a + r.completeUs! - r.issueUs!, 0) / t.requests.length;
    expect(d.base_ns).toBe(Math.round(mean * 1000)); // 6.19 ms: null_blk's 1 ms timer, late in the emulator
    expect(d.per_sector_ns).toBe(0); // every request is 4 KiB
  });
});

describe("simulateBlkTrace on the guest's trace", () => {
  const t = parseBlkTrace(text);
  const t0 = t.requests[0].arrivalUs;

  it("none keeps the kernel's arrival order; every request arrives when the kernel saw it", () => {
    const r = simulateBlkTrace(m, t, "none", "kernel");
    expect(r.summary.requests).toBe(200);
    expect(Array.from(r.order)).toEqual(t.requests.map((_, i) => i));
    for (let i = 0; i < 200; i++) {
      const row = r.rows.subarray(i * ROW_WIDTH, (i + 1) * ROW_WIDTH);
      expect(row[ROW.insert_us]).toBeCloseTo(t.requests[i].arrivalUs - t0, 6);
      expect(row[ROW.sector]).toBe(t.requests[i].sector);
      // the "kernel" device serves each request in the time the kernel measured for it
      expect(row[ROW.complete_us] - row[ROW.dispatch_us]).toBeCloseTo(t.requests[i].completeUs! - t.requests[i].issueUs!, 6);
    }
  });

  it("mq-deadline and kyber reorder the same arrivals; the comparison puts the kernel's times beside the model's", () => {
    const dd = simulateBlkTrace(m, t, "mq-deadline", "kernel");
    expect(Array.from(dd.order)).not.toEqual(t.requests.map((_, i) => i));
    const c = compareBlkTrace(t, dd);
    expect(c.requests.length).toBe(200);
    // the first request: the kernel queued it 65.951 ms (insert 9.491801 -> issue 9.557752) and served it in 2.075 ms
    expect(c.requests[0].kernel.queueUs).toBeCloseTo(65951, 6);
    expect(c.requests[0].kernel.serviceUs).toBeCloseTo(2075, 6);
    expect(c.requests[0].model.serviceUs).toBeCloseTo(2075, 6);
    expect(c.requests[0].model.queueUs).toBe(0); // the model's disk is idle and it runs the queue at once
    expect(c.ops.map((o) => o.op)).toEqual([BlkOp.Read, BlkOp.Write]);
    expect(c.ops[0].kernel.queue.requests).toBe(140);
    expect(c.ops[1].model.service.requests).toBe(60);
    expect(c.pairsInOrder).toBeGreaterThan(0.5);
    expect(c.pairsInOrder).toBeLessThanOrEqual(1);
    const ky = simulateBlkTrace(m, t, "kyber", "kernel");
    expect(ky.kyber!.length).toBeGreaterThan(0);
  });

  it("with the kernel's dispatch gaps, mq-deadline is the model that keeps writes waiting as the kernel's did", () => {
    // the kernel (mq-deadline) queued writes far longer than reads: reads first, writes_starved 2
    const kernel = compareBlkTrace(t, simulateBlkTrace(m, t, "none", "kernel")).ops.map((o) => o.kernel.queue.mean_us);
    expect(kernel[1]).toBeGreaterThan(2 * kernel[0]);
    const run = (sched: "none" | "mq-deadline") => compareBlkTrace(t, simulateBlkTrace(m, t, sched, "kernel", { dispatchGaps: true }));
    const none = run("none");
    const dd = run("mq-deadline");
    const [r, w] = dd.ops.map((o) => o.model.queue.mean_us);
    expect(w).toBeGreaterThan(2 * r);
    const [nr, nw] = none.ops.map((o) => o.model.queue.mean_us);
    expect(Math.abs(nw - nr)).toBeLessThan(0.2 * nr); // none: one FIFO, reads and writes alike
    expect(dd.pairsInOrder).toBeGreaterThan(none.pairsInOrder);
    // the gap rides on each request's service time
    const gaps = kernelDispatchGaps(t);
    const first = kernelOrder(t)[0];
    expect(dd.requests[first].model.serviceUs).toBeCloseTo(dd.requests[first].kernel.serviceUs! + gaps[0], 3);
    expect(() => simulateBlkTrace(m, t, "none", DEVICES.hdd, { dispatchGaps: true })).toThrow(BlkError);
    // how near: the model's mean queue times within 30% of the kernel's (reads 53.8 against 70.5 ms, writes 167.4 against 202.7)
    dd.ops.forEach((o) => expect(Math.abs(o.model.queue.mean_us - o.kernel.queue.mean_us)).toBeLessThan(0.3 * o.kernel.queue.mean_us));
  });

  it("a modelled device and plugging change the run, not the arrivals", () => {
    const sd = simulateBlkTrace(m, t, "mq-deadline", DEVICES.sdcard);
    const plugged = simulateBlkTrace(m, t, "mq-deadline", "kernel", { plugUs: 1000 });
    for (const r of [sd, plugged])
      for (let i = 0; i < 200; i++) expect(r.rows[i * ROW_WIDTH + ROW.insert_us]).toBeCloseTo(t.requests[i].arrivalUs - t0, 6);
    expect(pluggedOf(t.requests, 1000).filter(Boolean).length).toBeGreaterThan(0);
  });
});

describe("the guest's trace under none: direct issues", () => {
  const t = parseBlkTrace(read("blk-nullb-none"));

  it("every request arrives with its bio, and the kernel issued them in that order", () => {
    expect(t.requests.length).toBe(200);
    expect(t.unmatched).toEqual({ issue: 0, complete: 0 });
    // fio-67 9.234968: block_bio_queue: 254,1 R 16696 + 8 [fio]; 9.235067: block_rq_issue: ... 16696 + 8 be,0,4 [fio]
    expect(t.requests[0]).toMatchObject({ sector: 16696, task: "fio-67", line: 15, arrivalUs: 9234968, bioUs: 9234968, insertUs: null, issueUs: 9235067, completeUs: 9257071 });
    for (const r of t.requests) expect(r.insertUs === null && r.arrivalUs === r.bioUs).toBe(true);
    expect(kernelOrder(t)).toEqual(t.requests.map((_, i) => i));
  });

  it("the model's none issues them in the kernel's order, and with the dispatch gaps waits about as long", () => {
    const c = compareBlkTrace(t, simulateBlkTrace(m, t, "none", "kernel", { dispatchGaps: true }));
    expect(c.pairsInOrder).toBe(1);
    expect(c.samePosition).toBe(200);
    // reads 11.7 against 13.9 ms, writes 10.5 against 12.0
    c.ops.forEach((o) => expect(Math.abs(o.model.queue.mean_us - o.kernel.queue.mean_us)).toBeLessThan(0.2 * o.kernel.queue.mean_us));
  });
});

// traces/blk-nullb-flush.trace.gz: a null_blk disk with a volatile cache (memory_backed 1,
// cache_size 4 MiB: write_cache "write back") under mq-deadline, written four times by
// `dd if=/dev/urandom of=/dev/fl bs=4k count=8 seek=$((i*64)) conv=fsync`, with block_bio_queue,
// rq_insert, rq_issue, rq_complete, rq_merge, rq_requeue and our dd_dispatch_request enabled
// (captured with `npx fslab vm`, Linux 7.2.13). Each fsync sends a flush: issued as "FF 0 () 0 + 0"
// and completed as "FF () 18446744073709551615 + 0", (sector_t)-1 for a request with no data.
// `fslab simulate blk --trace` refused the whole trace at that line ("sector ... is too large").
describe("a trace with fsync's flushes (a device with a volatile cache)", () => {
  const t = parseBlkTrace(read("blk-nullb-flush"));

  it("reads every flush, issued at sector 0 and completed at (sector_t)-1, as one request", () => {
    const flushes = t.requests.filter((r) => r.op === BlkOp.Flush);
    expect(flushes).toHaveLength(4);
    for (const f of flushes) {
      expect(f).toMatchObject({ rwbs: "FF", sector: 0, sectors: 0, dd: null });
      expect(f.completeUs! - f.issueUs!).toBeGreaterThan(0);
    }
    // the four 32 KiB writes went through mq-deadline and its tracepoint
    expect(t.requests.filter((r) => r.dd).map((r) => [r.sector, r.sectors])).toEqual([[512, 64], [1024, 64], [1536, 64], [2048, 64]]);
  });

  it("replays under every scheduler, and the model makes the kernel's mq-deadline choices", () => {
    for (const sched of ["none", "mq-deadline", "kyber", "bfq"] as const) expect(simulateBlkTrace(m, t, sched, "kernel").summary.requests).toBe(t.requests.length);
    const r = replayDdDecisions(m, onDevice(t, "254,1"));
    expect(r.verdicts).toHaveLength(4);
    expect([r.same, r.sameReasons]).toEqual([4, 4]);
  });
});

// Three traces recorded in the guest (Linux 7.2.13 with our patch 0003, null_blk under
// mq-deadline, 0.5 ms a request, one at a time), with block_rq_insert/issue/complete/merge/
// requeue and mq_deadline:dd_dispatch_request/dd_dispatch_none enabled (the set
// `fslab-trace start mq-deadline` streams), each run by fio:
//   blk-nullb-dd-merge: fifo_batch 5, writes_starved 1; two writers of every other 4 KiB
//     (rw=write:4k, offsets 0 and 4k) and a random reader, so a bio that fills a gap makes two
//     queued requests contiguous and the kernel merges them (block_rq_merge);
//   blk-nullb-dd-fsync: a volatile cache (memory_backed 1, cache_size 4 MiB), two random
//     writers with fsync every 4 writes (18 flushes) and a random reader;
//   blk-nullb-dd-prio: three random jobs in the RT, BE and IDLE classes (fio --prioclass), so
//     the aged-request probe runs and twice moves the counters without dispatching.
describe("recorded traces with merges, flushes and three priority classes", () => {
  const load = (name: string) => {
    const t = parseBlkTrace(read(name));
    return onDevice(t, t.requests.find((r) => r.dd)!.dev);
  };
  const without = (name: string, event: string) => {
    const t = parseBlkTrace(read(name).split("\n").filter((l) => !l.includes(` ${event}: `)).join("\n"));
    return onDevice(t, t.requests.find((r) => r.dd)!.dev);
  };

  it("merges: the lists stay the kernel's at every decision, and the model makes all 233 for the same reasons", () => {
    const t = load("blk-nullb-dd-merge");
    expect(t.merges).toBe(2);
    const tl = kernelDdTimeline(t);
    expect([tl.steps, tl.lengthsAgree]).toEqual([233, 233]);
    expect(replayDdDecisions(m, t)).toMatchObject({ judged: 233, same: 233, sameReasons: 233 });
    // without block_rq_merge the merged-away requests stay in the rebuilt lists: they drift
    // from the kernel's at almost every decision, and those are not judged
    const blind = without("blk-nullb-dd-merge", "block_rq_merge");
    expect(kernelDdTimeline(blind).lengthsAgree).toBeLessThan(20);
    const r = replayDdDecisions(m, blind);
    expect(r.judged).toBeLessThan(20);
    // and the decisions whose lists hold a request the trace never dispatches are not judged
    // either: none is judged different for what the trace lacks
    expect(r.lacked).toContain("block_rq_merge");
    expect(r.sameReasons).toBe(r.judged);
  });

  it("fsync's flushes: parsed (completed at (sector_t)-1), and all 119 decisions the model's", () => {
    const text = read("blk-nullb-dd-fsync");
    expect(text.match(/block_rq_complete: \S+ FF \(\) 18446744073709551615 \+ 0/g)).toHaveLength(18);
    expect(replayDdDecisions(m, load("blk-nullb-dd-fsync"))).toMatchObject({ judged: 119, same: 119, sameReasons: 119 });
  });

  it("three priority classes: with dd_dispatch_none all 180 decisions for the same reasons; without it one differs", () => {
    const t = load("blk-nullb-dd-prio");
    expect(t.sched.filter((e) => e.kind === "none")).toHaveLength(2);
    expect(new Set(t.requests.map((r) => r.dd?.prio))).toEqual(new Set([0, 1, 2]));
    expect(replayDdDecisions(m, t)).toMatchObject({ judged: 180, same: 180, sameReasons: 180 });
    // without it the replay says so, and the decisions an unseen dd_dispatch_none could have
    // changed (two or more classes queued) are not judged: the one that differed among them
    const blind = replayDdDecisions(m, without("blk-nullb-dd-prio", "dd_dispatch_none"));
    expect(blind.lacked).toContain("dd_dispatch_none");
    expect(blind.couldChange.dd_dispatch_none).toBeGreaterThan(0);
    expect(blind.judged).toBe(180 - blind.couldChange.dd_dispatch_none!);
    expect(blind.sameReasons).toBe(blind.judged);
    const differed = blind.verdicts.filter((v) => v.listsAgree && !v.sameReasons);
    expect(differed).toHaveLength(1);
    expect(differed[0]).toMatchObject({ judged: false, couldChange: ["dd_dispatch_none"] });
  });

  it("a trace lacking events no decision depends on is judged whole: one priority class, nothing requeued", () => {
    // merges traced; no dd_dispatch_none and no requeue among its lines, but one class queued
    // and no request inserted twice: none of its 233 decisions could have changed
    const merged = replayDdDecisions(m, load("blk-nullb-dd-merge"));
    expect(merged.lacked).toEqual(["dd_dispatch_none", "block_rq_requeue"]);
    expect(merged.couldChange).toEqual({ dd_dispatch_none: 0, block_rq_requeue: 0 });
    expect(merged.judged).toBe(233);
    // blk-nullb-dd: one class, no merges, no requeues; none of its 358 decisions could change
    const t = parseBlkTrace(read("blk-nullb-dd"));
    const one = replayDdDecisions(m, onDevice(t, "254,1"));
    expect(one.lacked).toEqual(["dd_dispatch_none", "block_rq_merge", "block_rq_requeue"]);
    expect(one.couldChange).toEqual({ dd_dispatch_none: 0, block_rq_merge: 0, block_rq_requeue: 0 });
    expect(one).toMatchObject({ judged: 358, sameReasons: 358 });
  });
});
