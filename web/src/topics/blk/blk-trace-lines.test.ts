// The block-trace input on hand-made lines: what the guest's recorded traces do not show
// (blk-trace.test.ts reads those).
import type { BlkModule } from "@wasm/blk.mjs";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "../../shared/node-load";
import { BlkError, DEVICES } from "./blk-core";
import { BlkOp } from "../../shared/events";
import { BlkTraceError, onDevice, parseBlkTrace } from "./blk-trace";
import { measuredDevice } from "./trace-kernel";
import { simulateBlkTrace } from "./trace-replay";
import { DD_FRESH, ddEndState, kernelDdTimeline, replayDdDecisions } from "./dd-kernel";


let m: BlkModule;
beforeAll(async () => {
  m = await loadCoreModule("blk");
});

describe("parseBlkTrace on hand-made lines", () => {
  const ev = (task: string, us: string, event: string, body: string) => `${task.padStart(16)} [000] ..... ${us.padStart(12)}: ${event}: ${body}`;
  const dd = (us: string, body: string) => ev("fio-70", us, "dd_dispatch_request", body);

  it("a queued request merged into the one before it leaves the lists; the survivor dispatches with both extents", () => {
    const t = parseBlkTrace([
      ev("fio-70", "1.000000", "block_rq_insert", "7,0 W 4096 () 100 + 8 be,0,4 [fio]"),
      ev("fio-70", "1.000010", "block_rq_insert", "7,0 R 4096 () 500 + 8 be,0,4 [fio]"),
      ev("fio-70", "1.000020", "block_rq_insert", "7,0 W 4096 () 108 + 8 be,0,4 [fio]"),
      ev("fio-70", "1.000030", "block_rq_merge", "7,0 W 4096 () 108 + 8 be,0,4 [fio]"),
      // a fresh scheduler's last direction is WRITE: the batch goes on with the (merged) write
      dd("1.000040", "7,0 W 100 + 16 prio=BE because=batch pick=sorted batching=1 starved=0 jiffies=100 fifo_left_ms=5000 fifo=1,0"),
      dd("1.000050", "7,0 R 500 + 8 prio=BE because=reads pick=sorted batching=1 starved=0 jiffies=100 fifo_left_ms=500 fifo=0,0"),
    ].join("\n"));
    expect(t.merges).toBe(1);
    expect(t.sched.map((e) => e.kind)).toEqual(["insert", "insert", "insert", "merge", "dispatch", "dispatch"]);
    const survivor = t.requests.find((r) => r.sector === 100)!;
    expect(survivor.sectors).toBe(16);
    // the rebuilt lists: the read left when the write goes (the merged write is gone), none after
    const tl = kernelDdTimeline(t);
    expect(tl.agree).toEqual([true, true]);
    const r = replayDdDecisions(m, t);
    expect([r.judged, r.sameReasons]).toEqual([2, 2]);
  });

  it("a requeued request goes back at the head: one request, two dispatches, the second no decision", () => {
    const t = parseBlkTrace([
      ev("fio-70", "1.000000", "block_rq_insert", "7,0 R 4096 () 10 + 8 be,0,4 [fio]"),
      dd("1.000010", "7,0 R 10 + 8 prio=BE because=reads pick=sorted batching=1 starved=0 jiffies=100 fifo_left_ms=500 fifo=0,0"),
      ev("fio-70", "1.000020", "block_rq_issue", "7,0 R 4096 () 10 + 8 be,0,4 [fio]"),
      ev("fio-70", "1.000030", "block_rq_requeue", "7,0 R 4096 () 10 + 8 be,0,4 [fio]"),
      ev("kworker-9", "1.000040", "block_rq_insert", "7,0 R 4096 () 10 + 8 be,0,4 [kworker]"),
      dd("1.000050", "7,0 R 10 + 8 prio=BE because=head pick=head batching=1 starved=0 jiffies=101 fifo_left_ms=-10 fifo=0,0"),
      ev("kworker-9", "1.000060", "block_rq_issue", "7,0 R 4096 () 10 + 8 be,0,4 [kworker]"),
      ev("<idle>-0", "1.000070", "block_rq_complete", "7,0 R () 10 + 8 be,0,4 [0]"),
    ].join("\n"));
    expect(t.requests).toHaveLength(1);
    expect(t.requeues).toBe(1);
    expect(t.sched.map((e) => [e.kind, e.dd?.because])).toEqual([["insert", undefined], ["dispatch", "reads"], ["dispatch", "head"], ["complete", undefined]]);
    expect(t.requests[0].dd!.because).toBe("reads"); // its deadline comes from the first
    const tl = kernelDdTimeline(t);
    expect([tl.steps, tl.headDispatches]).toEqual([1, 1]);
    expect(replayDdDecisions(m, t).verdicts).toHaveLength(1);
  });

  it("without block_rq_requeue a request inserted again while in flight marks the decisions it sits through as not judged", () => {
    const lines = [
      ev("fio-70", "1.000000", "block_rq_insert", "7,0 R 4096 () 10 + 8 be,0,4 [fio]"),
      ev("fio-70", "1.000001", "block_rq_insert", "7,0 R 4096 () 50 + 8 be,0,4 [fio]"),
      dd("1.000010", "7,0 R 10 + 8 prio=BE because=reads pick=sorted batching=1 starved=0 jiffies=100 fifo_left_ms=500 fifo=1,0"),
      ev("fio-70", "1.000020", "block_rq_issue", "7,0 R 4096 () 10 + 8 be,0,4 [fio]"),
      ev("kworker-9", "1.000040", "block_rq_insert", "7,0 R 4096 () 10 + 8 be,0,4 [kworker]"),
      dd("1.000050", "7,0 R 50 + 8 prio=BE because=batch pick=sorted batching=2 starved=0 jiffies=101 fifo_left_ms=400 fifo=0,0"),
      ev("fio-70", "1.000060", "block_rq_issue", "7,0 R 4096 () 50 + 8 be,0,4 [fio]"),
    ];
    const t = parseBlkTrace(lines.join("\n"));
    expect(t.requeues).toBe(0);
    expect(t.requests.filter((r) => r.reinserted)).toHaveLength(1);
    const r = replayDdDecisions(m, t);
    expect(r.lacked).toContain("block_rq_requeue");
    expect(r.verdicts.map((v) => v.couldChange.includes("block_rq_requeue"))).toEqual([false, true]);
    expect(r.couldChange.block_rq_requeue).toBe(r.verdicts.filter((v) => v.listsAgree && !v.judged).length);
    // two requests of the same extent in flight at once, each completing: no requeue was missed
    const both = parseBlkTrace(
      [
        ...lines,
        dd("1.000065", "7,0 R 10 + 8 prio=BE because=batch pick=sorted batching=3 starved=0 jiffies=101 fifo_left_ms=400 fifo=0,0"),
        ev("kworker-9", "1.000066", "block_rq_issue", "7,0 R 4096 () 10 + 8 be,0,4 [kworker]"),
        ev("<idle>-0", "1.000070", "block_rq_complete", "7,0 R () 10 + 8 be,0,4 [0]"),
        ev("<idle>-0", "1.000080", "block_rq_complete", "7,0 R () 10 + 8 be,0,4 [0]"),
      ].join("\n"),
    );
    expect(both.requests.filter((q) => q.reinserted)).toHaveLength(1);
    expect(replayDdDecisions(m, both).verdicts.map((v) => v.couldChange)).toEqual([[], [], []]);
  });

  it("a dispatch call that dispatched nothing carries its counters into the next decision", () => {
    const r10 = [
      ev("fio-70", "1.000000", "block_rq_insert", "7,0 R 4096 () 10 + 8 be,0,4 [fio]"),
      ev("fio-70", "1.000001", "block_rq_insert", "7,0 R 4096 () 50 + 8 be,0,4 [fio]"),
      dd("1.000010", "7,0 R 10 + 8 prio=BE because=reads pick=sorted batching=1 starved=0 jiffies=100 fifo_left_ms=500 fifo=1,0"),
    ];
    const none = ev("fio-70", "1.000020", "dd_dispatch_none", "7,0 last_dir=W batching=5 starved=1 jiffies=100");
    const r50 = dd("1.000030", "7,0 R 50 + 8 prio=BE because=reads pick=sorted batching=1 starved=1 jiffies=100 fifo_left_ms=500 fifo=0,0");
    const t = parseBlkTrace([...r10, none, r50].join("\n"));
    expect(t.sched.map((e) => e.kind)).toEqual(["insert", "insert", "dispatch", "none", "dispatch"]);
    expect(t.sched[3].none).toMatchObject({ lastDir: 1, batching: 5, starved: 1, jiffies: 100 });
    const r = replayDdDecisions(m, t);
    expect([r.judged, r.sameReasons]).toEqual([2, 2]);
    // without the event the model would go on with the batch of reads from sector 10
    expect(replayDdDecisions(m, parseBlkTrace([...r10, r50].join("\n"))).verdicts[1].model.because).toBe("batch");
    // and a run that ends after such a call hands its counters to the next run
    expect(ddEndState(parseBlkTrace([...r10, none].join("\n")), DD_FRESH)).toMatchObject({ lastDir: 1, batching: 5, starved: 1 });
  });

  it("a request issued without an insert arrives with its bio; one with neither began before the trace", () => {
    const t = parseBlkTrace([
      "# tracer: nop",
      ev("kworker/u2:1-30", "1.000000", "block_rq_issue", "7,0 W 4096 () 64 + 8 none,0,0 [kworker/u2:1]"), // queued before the trace
      ev("dd-90", "1.000100", "block_bio_queue", "7,0 R 128 + 8 [dd]"),
      ev("dd-90", "1.000150", "block_rq_issue", "7,0 R 4096 () 128 + 8 none,0,0 [dd]"), // none's direct issue
      ev("kworker/u2:1-30", "1.000400", "block_rq_complete", "7,0 W () 64 + 8 none,0,0 [0]"),
      ev("<idle>-0", "1.000900", "block_rq_complete", "7,0 R () 128 + 8 none,0,0 [0]"),
      ev("jbd2/loop0-8-55", "1.001000", "block_rq_issue", "7,0 FF 0 () 0 + 0 none,0,0 [jbd2/loop0-8]"),
      "CPU:0 [LOST 3 EVENTS]",
      ev("sh-1", "1.002000", "sched_switch", "prev_comm=sh prev_pid=1"),
    ].join("\n"));
    expect(t.requests.length).toBe(1);
    expect(t.requests[0]).toMatchObject({ op: BlkOp.Read, task: "dd-90", line: 3, arrivalUs: 1000100, insertUs: null, issueUs: 1000150, completeUs: 1000900 });
    expect(t.unmatched).toEqual({ issue: 2, complete: 0 });
    expect(t.lost).toBe(3);
    expect(t.ignored).toBe(1);
  });

  it("matches repeated sectors oldest first, reads ns timestamps, counts requeues, and keeps devices apart", () => {
    const t = parseBlkTrace([
      ev("a-1", "2.000000001", "block_rq_insert", "8,0 R 4096 () 8 + 8 be,0,4 [a]"),
      ev("a-1", "2.000000002", "block_rq_insert", "8,0 R 4096 () 8 + 8 be,0,4 [a]"),
      ev("a-1", "2.000000003", "block_rq_insert", "8,16 W 4096 () 8 + 8 rt,0,0 [a]"),
      ev("k-2", "2.000001000", "block_rq_issue", "8,0 R 4096 () 8 + 8 be,0,4 [k]"),
      ev("k-2", "2.000002000", "block_rq_requeue", "8,0 R () 8 + 8 be,0,4 [0]"),
      ev("k-2", "2.000003000", "block_rq_issue", "8,0 R 4096 () 8 + 8 be,0,4 [k]"),
      ev("k-2", "2.000004000", "block_rq_complete", "8,0 R () 8 + 8 be,0,4 [0]"),
      ev("k-2", "2.000005000", "block_rq_issue", "8,0 R 4096 () 8 + 8 be,0,4 [k]"),
    ].join("\n"));
    expect(t.devices).toEqual(["8,0", "8,16"]);
    expect(t.requests.map((r) => [r.dev, r.arrivalUs, r.issueUs, r.completeUs])).toEqual([
      ["8,0", 2000000.001, 2000003, 2000004],
      ["8,0", 2000000.002, 2000005, null],
      ["8,16", 2000000.003, null, null],
    ]);
    expect(t.requeues).toBe(1);
    expect(t.requests[2].ioprioClass).toBe(1);
    expect(() => simulateBlkTrace(m, t, "none", DEVICES.hdd)).toThrow(/8,0 and 8,16/);
    const one = onDevice(t, "8,16");
    expect(simulateBlkTrace(m, one, "none", DEVICES.hdd).summary.requests).toBe(1);
    expect(() => onDevice(t, "9,9")).toThrow(BlkTraceError);
    // the "kernel" device needs a request the kernel both issued and completed
    expect(() => simulateBlkTrace(m, one, "none", "kernel")).toThrow(/no request was both issued and completed/);
  });

  it.each([0, 20])("a bio merged into a request does not lend its time to a later request at its sector (%i bios elsewhere)", (others) => {
    const t = parseBlkTrace([
      ...Array.from({ length: others }, (_, i) => ev("c-3", "0.500000", "block_bio_queue", `8,0 R ${100000 + i * 8} + 8 [c]`)),
      ev("a-1", "1.000000", "block_bio_queue", "8,0 R 0 + 8 [a]"),
      ev("a-1", "1.000010", "block_bio_queue", "8,0 R 8 + 8 [a]"), // back-merged into the request at 0
      ev("a-1", "1.000020", "block_rq_insert", "8,0 R 8192 () 0 + 16 be,0,4 [a]"),
      ev("b-2", "1.000500", "block_bio_queue", "8,0 R 8 + 8 [b]"),
      ev("b-2", "1.000510", "block_rq_issue", "8,0 R 4096 () 8 + 8 be,0,4 [b]"),
    ].join("\n"));
    expect(t.requests.map((r) => [r.sector, r.bioUs, r.arrivalUs])).toEqual([[0, 1000000, 1000020], [8, 1000500, 1000500]]);
    expect(t.events).toBe(5 + others);
  });

  it("fits a per-sector cost when sizes differ, and counts the tags in flight", () => {
    const t = parseBlkTrace([
      ev("a-1", "1.000000", "block_rq_insert", "8,0 R 4096 () 0 + 8 be,0,4 [a]"),
      ev("a-1", "1.000000", "block_rq_insert", "8,0 R 8192 () 64 + 16 be,0,4 [a]"),
      ev("k-2", "1.000010", "block_rq_issue", "8,0 R 4096 () 0 + 8 be,0,4 [k]"),
      ev("k-2", "1.000020", "block_rq_issue", "8,0 R 8192 () 64 + 16 be,0,4 [k]"),
      ev("k-2", "1.000110", "block_rq_complete", "8,0 R () 0 + 8 be,0,4 [0]"),
      ev("k-2", "1.000220", "block_rq_complete", "8,0 R () 64 + 16 be,0,4 [0]"),
    ].join("\n"));
    // 100 us for 8 sectors, 200 us for 16: 12.5 us a sector, nothing besides; two in flight at once
    expect(measuredDevice(t)).toMatchObject({ queue_depth: 2, channels: 2, base_ns: 0, per_sector_ns: 12500 });
  });

  it("names the line of a malformed event", () => {
    const good = ev("a-1", "1.000000", "block_rq_insert", "8,0 R 4096 () 8 + 8 be,0,4 [a]");
    expect(() => parseBlkTrace(`${good}\n${ev("a-1", "1.000001", "block_rq_insert", "8,0 R 4096 8 + 8 [a]")}`)).toThrow(/^line 2: block_rq_insert: expected/);
    expect(() => parseBlkTrace(`# x\n\n${good}\nthis is not a trace`)).toThrow(/^line 4: not a tracefs event line/);
    expect(() => parseBlkTrace(ev("a-1", "1.0", "block_bio_queue", "8,0 R 8 8 [a]"))).toThrow(/^line 1: block_bio_queue/);
    expect(() => parseBlkTrace(ev("a-1", "1.0", "block_rq_issue", "8,0 R 4096 () 99999999999999999999 + 8 be,0,4 [a]"))).toThrow(/^line 1: sector .* is too large/);
  });

  it("refuses an empty trace", () => {
    expect(() => simulateBlkTrace(m, parseBlkTrace("# tracer: nop\n"), "none", DEVICES.hdd)).toThrow(BlkError);
  });
});
