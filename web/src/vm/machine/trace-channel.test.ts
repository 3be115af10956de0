// Lines as our kernel prints them (captured from the guest), through the parser.
import { describe, expect, it } from "vitest";
import { parseTraceLine, TraceChannel } from "./trace-channel";
import { REWIND_LINE, rewindLine } from "../../shared/event-table";
import { NONE } from "../../shared/events";
import { EV, discardsOf, DiscardPolicy } from "../../topics/exfat/events";
import { EV as F2FS } from "../../topics/f2fs/events";

describe("parseTraceLine", () => {
  it("reads our exFAT and F2FS tracepoints", () => {
    expect(parseTraceLine("rm-62 [000] ..... 7.454134: exfat_discard: dev 7,0 clu 7 count 10240 batched 1")).toEqual([EV.EXFAT_DISCARD, 7, 10240, 1]);
    expect(parseTraceLine("sh-1 [000] ..... 2.1: exfat_empty_search: dev 7,0 hint -1 start 0 examined 451 result -28 num_entries 3")).toEqual([
      EV.EXFAT_EMPTY_SEARCH, 451, NONE, NONE,
    ]);
    expect(
      parseTraceLine("bash-52 [000] ..... 12.360561: f2fs_free_nid_scan: dev = (7,1), phase = nat, start = 3640, end = 7280, scanned = 3640, found = 3640, skipped = 0"),
    ).toEqual([F2FS.F2FS_NID_SCAN, 1, 3640, 7280, F2FS.F2FS_NID_SCAN_RESULT, 3640, 3640, 0]);
  });

  it("knows the block layer's events but makes no records of them (views read their lines through the block trace parser)", () => {
    expect(parseTraceLine("kworker/0:1-20 [000] ..... 3.2: block_rq_issue: 7,0 WS 4096 () 2048 + 8 [kworker/0:1]")).toEqual([]);
    expect(parseTraceLine("<idle>-0 [000] ..s1. 3.3: block_rq_complete: 7,0 D () 56 + 81920 [0]")).toEqual([]);
    expect(parseTraceLine("fio-70 [000] ..... 3.1: block_bio_queue: 7,0 R 2048 + 8 [fio]")).toEqual([]);
    expect(parseTraceLine("cat-1 [000] ..... 1.0: sched_switch: prev_comm=cat")).toBeNull();
    // a known event whose body does not have its format is not read as that event
    expect(parseTraceLine("rm-62 [000] ..... 7.4: exfat_discard: clu 7")).toBeNull();
  });
});

describe("TraceChannel", () => {
  it("splits lines across chunks and counts gaps in the sequence as lost", () => {
    const ch = new TraceChannel();
    const enc = new TextEncoder();
    ch.feed(enc.encode("1 rm-6 [000] .... 1.0: exfat_discard: dev 7,0 clu 2 count 5 bat"));
    ch.feed(enc.encode("ched 1\r\n2 rm-6 [000] .... 1.1: exfat_discard: dev 7,0 clu 8 count 5 batched 1\n"));
    ch.feed(enc.encode("5 rm-6 [000] .... 1.2: exfat_discard: dev 7,0 clu 14 count 1 batched 0\nfslab-trace: overrun 3\n"));
    expect(discardsOf(ch.take())).toEqual([
      { start: 2, count: 5, policy: DiscardPolicy.Batched },
      { start: 8, count: 5, policy: DiscardPolicy.Batched },
      { start: 14, count: 1, policy: DiscardPolicy.PerCluster },
    ]);
    expect(ch.stats).toEqual({ lines: 3, lost: 2, unknown: 0, overrun: 3 });
    expect(ch.take()).toHaveLength(0);
  });

  it("hands views the tracefs lines themselves, numbers stripped, once each; its own mark and dd_dispatch_request are known lines", () => {
    const ch = new TraceChannel();
    const enc = new TextEncoder();
    const dd = "kworker/0:1H-66 [000] ...1. 4.27: dd_dispatch_request: 254,1 R 40600 + 8 prio=BE because=batch pick=sorted batching=11 starved=0 jiffies=4294937705 fifo_left_ms=100 fifo=29,0";
    const mark = "bash-60 [000] ..... 4.20: tracing_mark_write: fslab: iosched read_expire=100 write_expire=400 fifo_batch=16 writes_starved=2";
    ch.feed(enc.encode(`1 ${mark}\n2 ${dd}\n3 cat-1 [000] ..... 1.0: sched_switch: prev_comm=cat\n`));
    expect(ch.takeLines()).toEqual([mark, dd, "cat-1 [000] ..... 1.0: sched_switch: prev_comm=cat"]);
    expect(ch.takeLines()).toEqual([]);
    expect(ch.stats.unknown).toBe(1); // the sched_switch line: no view reads it
  });

  it("takes a settle marker as the end of what came before it: kept as the newest, not handed on, not counted", () => {
    const ch = new TraceChannel();
    const enc = new TextEncoder();
    const disc = "rm-6 [000] .... 1.0: exfat_discard: dev 7,0 clu 2 count 5 batched 1";
    ch.feed(enc.encode(`1 ${disc}\n2 agent-9 [000] ..... 1.1: tracing_mark_write: fslab-settle-3\n`));
    expect(ch.lastMarker).toBe("fslab-settle-3");
    expect(ch.takeLines()).toEqual([disc]);
    ch.feed(enc.encode("3 agent-9 [000] ..... 1.2: tracing_mark_write: fslab-settle-4\n"));
    expect(ch.lastMarker).toBe("fslab-settle-4");
    expect(ch.stats).toMatchObject({ lines: 1, lost: 0, unknown: 0 });
  });

  it("marks where the guest's count went back (a machine put back to a snapshot): the lines since it, and not its settle markers, undone", () => {
    const ch = new TraceChannel();
    const enc = new TextEncoder();
    const ins = (n: number) => `fio-7 [000] ..... ${n}.0: block_rq_insert: 254,1 R 4096 () ${8 * n} + 8 be,0,4 [fio]`;
    // the snapshot was taken after line 2; lines 3-4 and a settle marker (5) came after it
    ch.feed(enc.encode(`1 ${ins(1)}\n2 ${ins(2)}\n3 ${ins(3)}\n4 ${ins(4)}\n5 agent-9 [000] ..... 4.5: tracing_mark_write: fslab-settle-1\n`));
    // the restored machine's next line is its third again
    ch.feed(enc.encode(`3 ${ins(9)}\n4 ${ins(10)}\n`));
    const lines = ch.takeLines();
    expect(lines).toEqual([ins(1), ins(2), ins(3), ins(4), rewindLine(2), ins(9), ins(10)]);
    expect(lines[4]).toMatch(REWIND_LINE);
    expect(ch.stats).toMatchObject({ lines: 6, lost: 0 }); // nothing lost: the count went back, not forward
    // a second reset to the same snapshot: the two lines since undone, not the ones before
    ch.feed(enc.encode(`3 ${ins(11)}\n`));
    expect(ch.takeLines()).toEqual([rewindLine(2), ins(11)]);
    // a new stream (fslab-trace stop prints the overrun, start counts from 1): no rewind
    ch.feed(enc.encode(`fslab-trace: overrun 0\n1 ${ins(12)}\n`));
    expect(ch.takeLines()).toEqual([ins(12)]);
    // a rewind that undid no kept line (only a settle marker) says nothing
    ch.feed(enc.encode(`2 agent-9 [000] ..... 13.0: tracing_mark_write: fslab-settle-2\n2 ${ins(13)}\n`));
    expect(ch.takeLines()).toEqual([ins(13)]);
  });

  it("takes back the undone lines' records too: those not taken yet at once, the rest through takeUndone", () => {
    const ch = new TraceChannel();
    const enc = new TextEncoder();
    const search = (n: number) => `bash-70 [000] ..... ${n}.0: exfat_empty_search: dev 7,1 hint -1 start 0 examined ${n} result ${n} num_entries 3`;
    const ins = (n: number) => `fio-7 [000] ..... ${n}.0: block_rq_insert: 254,1 R 4096 () ${8 * n} + 8 be,0,4 [fio]`;
    const rec = (n: number) => [EV.EXFAT_EMPTY_SEARCH, n, NONE, n];
    const feed = (...lines: string[]) => ch.feed(enc.encode(lines.map((l) => `${l}\n`).join("")));
    // three searches and a block line (no record), taken; the snapshot was after the first
    feed(`1 ${search(1)}`, `2 ${search(2)}`, `3 ${ins(3)}`, `4 ${search(4)}`);
    expect([...ch.take()]).toEqual([...rec(1), ...rec(2), ...rec(4)]);
    expect(ch.takeUndone()).toBe(0);
    // put back to after line 1: lines 2-4 undone, their two records already taken
    feed(`2 ${search(5)}`);
    expect(ch.takeUndone()).toBe(8);
    expect(ch.takeUndone()).toBe(0); // said once
    expect([...ch.take()]).toEqual(rec(5));
    // put back there again: the record not taken yet (6) goes here, the taken one (5) from the taker
    feed(`3 ${search(6)}`, `2 ${search(7)}`);
    expect(ch.takeUndone()).toBe(4);
    expect([...ch.take()]).toEqual(rec(7));
    // put back to after line 2, before anything since was taken: nothing from the taker
    feed(`3 ${search(11)}`, `3 ${search(12)}`);
    expect(ch.takeUndone()).toBe(0);
    expect([...ch.take()]).toEqual(rec(12));
    // one taken, one not: the taker drops one, this take holds only the newer
    feed(`4 ${search(8)}`);
    ch.take();
    feed(`5 ${search(9)}`, `4 ${search(10)}`);
    expect(ch.takeUndone()).toBe(4);
    expect([...ch.take()]).toEqual(rec(10));
  });
});
