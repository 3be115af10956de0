// mq-deadline in the kernel against the model, decision by decision, on a trace our kernel
// wrote with its mq_deadline:dd_dispatch_request tracepoint (kernel-image/patches/0003).
//
// traces/blk-nullb-dd.trace.gz was captured in the guest (Linux 7.2.13 + patch 0003) with
// `npx fslab vm -- "$(cat cap.sh)"`, then gzip -9n, cap.sh being (the trace's own header says the rest):
//   d=/sys/kernel/config/nullb/nullb1; mkdir $d; echo 64 > $d/size; echo 1 > $d/hw_queue_depth
//   echo 2 > $d/irqmode; echo 1000000 > $d/completion_nsec; echo 1 > $d/power
//   Q=/sys/block/nullb1/queue; echo mq-deadline > $Q/scheduler; echo 64 > $Q/nr_requests
//   echo 100 > $Q/iosched/read_expire; echo 400 > $Q/iosched/write_expire
//   T=/sys/kernel/tracing; echo 4096 > $T/buffer_size_kb; block_{bio_queue,rq_insert,rq_issue,rq_complete}
//   and mq_deadline/dd_dispatch_request enabled, filtered to nullb1's dev
//   fio --filename=/dev/nullb1 --bs=4k --iodepth=16 --ioengine=libaio --direct=1 --number_ios=120 --size=32M \
//       --randrepeat=1 --name=r --rw=randread --numjobs=2 --name=w --rw=randwrite --numjobs=1
// 358 requests (the two readers, same seed, read the same sectors; a few bios merged into
// queued requests). Short expiries so that deadlines and starvation show in a short run.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { BlkModule } from "@wasm/blk.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { DD_DEFAULTS } from "./blk-core";
import { BlkTraceError, parseBlkTrace, type BlkTrace } from "./blk-trace";
import { DD_FRESH, ddEndState, kernelDdTimeline, replayDdDecisions, traceTunables } from "./dd-kernel";
import { ddRunStart, runsBefore, splitRuns } from "./dd-runs";
import { rewindLine } from "../../shared/event-table";

const text = gunzipSync(readFileSync(new URL("./traces/blk-nullb-dd.trace.gz", import.meta.url))).toString("utf8");
let m: BlkModule;
let trace: BlkTrace;
beforeAll(async () => {
  m = await loadCoreModule("blk");
  trace = parseBlkTrace(text);
});

describe("the kernel's mq-deadline decisions", () => {
  it("parses every dispatch with its reasons and the capture's tunables", () => {
    expect(trace.requests).toHaveLength(358);
    expect(trace.requests.every((r) => r.dd !== null)).toBe(true);
    expect(trace.unmatched).toEqual({ issue: 0, complete: 0 });
    expect(traceTunables(trace)).toEqual({ ...DD_DEFAULTS, read_expire_ms: 100, write_expire_ms: 400 });
    const reasons = new Map<string, number>();
    for (const r of trace.requests) reasons.set(`${r.dd!.because}/${r.dd!.pick}`, (reasons.get(`${r.dd!.because}/${r.dd!.pick}`) ?? 0) + 1);
    // counted with grep in the raw trace
    expect(Object.fromEntries(reasons)).toEqual({
      "batch/sorted": 327, "reads/expired": 9, "reads/no_next": 7, "reads/sorted": 4, "starved/no_next": 3, "starved/sorted": 6, "writes/no_next": 2,
    });
  });

  it("rebuilds the scheduler's lists: their lengths are the kernel's at every dispatch", () => {
    const tl = kernelDdTimeline(trace);
    expect(tl.steps).toBe(358);
    expect(tl.lengthsAgree).toBe(358);
    // a state: after the first dispatch the read FIFO holds what the kernel said, oldest first
    const s0 = tl.at(0);
    const first = trace.requests[tl.dispatched!(0)].dd!;
    expect(s0.lists[1][0].fifo.length).toBe(first.fifoRead);
    const fifo = s0.lists[1][0].fifo.map((f) => trace.requests[f.rq].insertUs!);
    expect([...fifo].sort((a, b) => a - b)).toEqual(fifo);
    const sorted = s0.lists[1][0].sorted.map((rq) => trace.requests[rq].sector);
    expect([...sorted].sort((a, b) => a - b)).toEqual(sorted);
    expect(s0.batching).toBe(first.batching);
  });

  it("the model, judged at each decision from the kernel's lists, makes every one of the kernel's 358 choices for its reasons", () => {
    const r = replayDdDecisions(m, trace);
    expect(r.verdicts).toHaveLength(358);
    expect(r.same).toBe(358);
    expect(r.sameReasons).toBe(358);
  });

  it("would see the difference: a model with fifo_batch 8 ends batches the kernel went on with", () => {
    const r = replayDdDecisions(m, trace, { ...traceTunables(trace), fifo_batch: 8 });
    const differ = r.verdicts.filter((v) => !v.sameReasons);
    expect(differ.length).toBeGreaterThan(0);
    // the first: the kernel's ninth request of a batch, where the model starts a new one
    expect(differ[0].kernel).toMatchObject({ because: "batch", batching: 9 });
    expect(differ[0].model.because).not.toBe("batch");
  });

  it("cuts a live stream into runs at the lab's marks, each with its own tunables, each starting where the last ended", () => {
    const mark = (fb: number) => `   bash-60 [000] .....   9.5: tracing_mark_write: fslab: iosched read_expire=100 write_expire=400 fifo_batch=${fb} writes_starved=2`;
    const lines = text.split("\n").filter((l) => !l.startsWith("#"));
    const runs = splitRuns([mark(16), ...lines, mark(1), "x"]);
    expect(runs.map((r) => r.length)).toEqual([lines.length + 1, 2]);
    expect(traceTunables(parseBlkTrace(runs[0].join("\n"))).fifo_batch).toBe(16);
    expect(splitRuns(["a", mark(4), "b"])).toEqual([["a"], [mark(4), "b"]]);
    // the state the first run leaves: its last dispatch's counters and each direction's last sector
    const end = ddEndState(trace);
    const dispatches = trace.sched.filter((e) => e.kind === "dispatch").map((e) => trace.requests[e.rq]);
    const last = dispatches.at(-1)!;
    expect(end).toMatchObject({ lastDir: last.dd!.dir, batching: last.dd!.batching, starved: last.dd!.starved });
    expect(end.latestPos[1][1]).toBe(dispatches.filter((r) => r.dd!.dir === 1).at(-1)!.sector);
    expect(DD_FRESH.latestPos[1]).toEqual([0, 0]); // not changed by it
    // the start state is used: had a read batch been under way above the kernel's first
    // request, the model would have gone on with it (and so differ from this trace's kernel)
    const fresh = replayDdDecisions(m, trace);
    expect(fresh.verdicts[0].sameReasons).toBe(true);
    const first = trace.requests[fresh.verdicts[0].kernel.rq!];
    const midBatch = { ...DD_FRESH, lastDir: 0 as const, latestPos: [[0, 0], [first.sector + 1, 0], [0, 0]] };
    const carried = replayDdDecisions(m, trace, undefined, undefined, midBatch);
    expect(carried.verdicts[0].model.because).toBe("batch");
    expect(carried.verdicts[0].same).toBe(false);
  });

  it("leaves out of a run's start the runs a reset undid, as the rewind lines in the stream say", () => {
    const line = (n: number) => `   fio-60 [000] .....   ${n}.000000: block_rq_insert: 7,0 R 4096 () ${8 * n} + 8 be,0,4 [fio]`;
    const run = (...ns: number[]) => ns.map(line);
    // runs 1 and 2 on one machine: run 2 starts where run 1 ended
    expect(runsBefore([run(1, 2), run(3, 4)], 1)).toEqual([0]);
    expect(runsBefore([run(1, 2), run(3, 4), run(5, 6)], 2)).toEqual([0, 1]);
    // put back to a snapshot taken after run 1: run 2's two lines undone, run 3 starts where run 1 left the scheduler
    const reset = [run(1, 2), [...run(3, 4), rewindLine(2)], run(5, 6)];
    expect(runsBefore(reset, 2)).toEqual([0]);
    // and a run after that carries run 3's state, not run 2's
    expect(runsBefore([...reset, run(7)], 3)).toEqual([0, 2]);
    // one line of run 2 undone: run 2's first line still happened, and ddRunStart carries its state from there
    expect(runsBefore([run(1, 2), [...run(3, 4), rewindLine(1)], run(5)], 2)).toEqual([0, 1]);
    // put back before run 1 (the step's start): nothing carried
    expect(runsBefore([run(1, 2), [...run(3, 4), rewindLine(4)], run(5)], 2)).toEqual([]);
    // two resets: the second counts back over what the first left, not over what it undid
    expect(runsBefore([run(1, 2), [...run(3, 4), rewindLine(2)], [...run(5), rewindLine(2)], run(6)], 3)).toEqual([0]);
    expect(runsBefore([run(1, 2), [...run(3, 4), rewindLine(2)], [...run(5), rewindLine(1)], run(6)], 3)).toEqual([0]);
    // a run whose tail a reset undid: the next run starts from the state of its kept part
    const lines = text.split("\n").filter((l) => l.trim());
    const cut = lines.findIndex((l, i) => i > lines.length / 2 && l.includes(" dd_dispatch_request: "));
    const kept = lines.slice(0, cut);
    const cutShort = [...lines, rewindLine(lines.length - cut)];
    const all = [cutShort, lines];
    const traces = all.map((r) => parseBlkTrace(r.join("\n")));
    const { before, start } = ddRunStart(all, [0, 1], traces, 1);
    expect(before).toEqual([0]);
    expect(start).toEqual(ddEndState(parseBlkTrace(kept.join("\n"))));
    expect(start).not.toEqual(ddEndState(traces[0])); // the whole run would have carried another state
    expect(parseBlkTrace([...run(3, 4), rewindLine(2)].join("\n")).requests).toHaveLength(2);
    // a run whose settings line says the scheduler was switched on afresh starts from dd_init's state
    const mark = (fresh: string) => `             load-200     [000] .....   100.000000: tracing_mark_write: fslab: iosched ${fresh}read_expire=100 write_expire=400 fifo_batch=16 writes_starved=2`;
    const freshRun = [mark("fresh=1 "), ...lines];
    const after = ddRunStart([lines, freshRun], [0, 1], [traces[1], parseBlkTrace(freshRun.join("\n"))], 1);
    expect(after).toEqual({ before: [0], start: DD_FRESH, fresh: true });
    expect(ddRunStart([lines, [mark(""), ...lines]], [0, 1], [traces[1], traces[1]], 1)).toEqual({ before: [0], start: ddEndState(traces[1]), fresh: false });
  });

  it("says what is missing when the trace has no dd_dispatch_request events", () => {
    const plain = parseBlkTrace(gunzipSync(readFileSync(new URL("./traces/blk-nullb-mq-deadline.trace.gz", import.meta.url))).toString("utf8"));
    expect(() => kernelDdTimeline(plain)).toThrow(BlkTraceError);
    expect(() => replayDdDecisions(m, plain)).toThrow(/dd_dispatch_request/);
  });

  it("names the line of a malformed dd_dispatch_request event", () => {
    const bad = "  kworker/0:1H-66 [000] ...1.  4.25: dd_dispatch_request: 254,1 R 3952 + 8 prio=BE because=maybe pick=sorted batching=1 starved=0 jiffies=1 fifo_left_ms=1 fifo=0,0\n";
    expect(() => parseBlkTrace(bad)).toThrow(/line 1: dd_dispatch_request: unknown reason/);
  });
});
