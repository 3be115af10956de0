import { describe, expect, it } from "vitest";
import { judge, parseExpect, parseRange, seenEvent, type Expectation } from "./expect";

// lines as the guest's tracefs prints them (recorded on our kernel)
const DISCARD = (clu: number, count: number, batched: number) =>
  `              rm-231     [000] .....    52.391202: exfat_discard: dev 7,0 clu ${clu} count ${count} batched ${batched}`;
const NIDSCAN = "  kworker/u2:1-19      [000] .....   120.104921: f2fs_free_nid_scan: dev = (7,0), phase = nat, start = 0, end = 455, scanned = 1, found = 452, skipped = 0";

function ok(body: string): Expectation[] {
  const r = parseExpect(body);
  if ("error" in r) throw new Error(r.error);
  return r.expect;
}

describe("expect blocks", () => {
  it("parse ranges as N, N.., ..N and N..M", () => {
    expect(parseRange(4)).toEqual({ min: 4, max: 4 });
    expect(parseRange("4..")).toEqual({ min: 4, max: Infinity });
    expect(parseRange("..4")).toEqual({ min: 0, max: 4 });
    expect(parseRange("2..5")).toEqual({ min: 2, max: 5 });
    for (const bad of ["5..2", "..", "x", -1, 1.5, "", "4-5"]) expect(parseRange(bad)).toBeNull();
  });

  it("read a mapping or a list, with where ranges and verdicts", () => {
    expect(ok("event: exfat_discard\ncount: 4\nwhere: { batched: 1, clu: 10..20, comm: rm }")).toEqual([
      { event: "exfat_discard", count: { min: 4, max: 4 }, where: { batched: { min: 1, max: 1 }, clu: { min: 10, max: 20 }, comm: "rm" }, line: 1 },
    ]);
    const two = ok("- event: f2fs_free_nid_scan\n- verdict: exfat-dir\n");
    expect(two.map((x) => [x.event, x.verdict, x.line])).toEqual([["f2fs_free_nid_scan", undefined, 1], [undefined, "exfat-dir", 2]]);
  });

  it.each([
    ["event: x\ncounts: 3", 1, /unknown key "counts"/],
    ["- event: a\n- count: 3", 2, /an event: or a verdict:/],
    ["event: a\ncount: many", 1, /count: is N/],
    ["event: a\nwhere: [1]", 1, /where: is a mapping/],
    ["event: Bad-Name", 1, /tracefs event name/],
    ["- verdict: v\n  count: 1", 1, /nothing else/],
    ["event: [a", 1, /not valid YAML/],
    ["event: a\ncount: !n 3", 2, /does not take: Unresolved tag: !n/],
    ["- 3", 1, /each expectation is a mapping/],
  ])("refuse %j at its line", (body, line, msg) => {
    const r = parseExpect(body);
    expect("error" in r && r.line).toBe(line);
    expect("error" in r && r.error).toMatch(msg);
  });

  it("read fields from tracefs lines: key=value, key = value, and the event table's decoding", () => {
    expect(seenEvent(DISCARD(100, 16, 1))).toEqual({ event: "exfat_discard", fields: { comm: "rm", pid: "231", clu: "100", count: "16", batched: "1" } });
    expect(seenEvent(NIDSCAN)?.fields).toMatchObject({ phase: "nat", start: "0", end: "455", found: "452" });
    expect(seenEvent("not a trace line")).toBeNull();
  });

  it("judge counts and field values against what was seen, and say what was missing", () => {
    const seen = [DISCARD(1, 1, 0), DISCARD(2, 1, 0), DISCARD(10, 16, 1), NIDSCAN].map((l) => seenEvent(l)!);
    const [batched] = ok("event: exfat_discard\ncount: 1\nwhere: { batched: 1 }");
    expect(judge(batched, seen, {}).ok).toBe(true);
    const [four] = ok("event: exfat_discard\ncount: 4..\n");
    const r = judge(four, seen, {});
    expect(r.ok).toBe(false);
    expect(r.message).toBe("Wanted: at least 4 exfat_discard events; saw 3 since this step opened.");
    const [typo] = ok("event: exfat_discard\nwhere: { batchd: 1 }");
    expect(judge(typo, seen, {}).message).toMatch(/no exfat_discard line has a field batchd \(its fields: comm, pid, clu, count, batched\)/);
    const [none] = ok("event: exfat_empty_search");
    expect(judge(none, seen, {}).ok).toBe(false);
    const [upTo] = ok("event: exfat_empty_search\ncount: ..0");
    expect(judge(upTo, seen, {}).ok).toBe(true);
  });

  it("since: counts the newest run only, after the newest trace_marker line holding its text", () => {
    const MARK = (fifo: number) => `            load-301     [000] .....    60.000000: tracing_mark_write: fslab: iosched read_expire=100 fifo_batch=${fifo}`;
    const DISPATCH = (batching: number) =>
      `    kworker/0:0H-8       [000] ...1.    61.000000: dd_dispatch_request: 254,1 R 2576 + 8 prio=BE because=batch pick=sorted batching=${batching} starved=0 jiffies=4294937696 fifo_left_ms=100 fifo=11,0`;
    expect(seenEvent(MARK(1))?.fields.buf).toBe("fslab: iosched read_expire=100 fifo_batch=1");
    const [bad, all] = ok('- event: dd_dispatch_request\n  where: { batching: 2.. }\n  count: 0\n  since: "fslab: iosched"\n- event: dd_dispatch_request\n  count: 2..\n  since: "fslab: iosched"');
    expect(bad.since).toBe("fslab: iosched");
    // a wrong run (batches of 16), then the right one (fifo_batch 1): only the right one counts
    const seen = [MARK(16), DISPATCH(1), DISPATCH(2), DISPATCH(3), MARK(1), DISPATCH(1), DISPATCH(1)].map((l) => seenEvent(l)!);
    expect(seen[1].fields.batching).toBe("1"); // the event table decodes the dispatch
    expect(judge(bad, seen, {})).toEqual({ ok: true, message: 'exactly 0 dd_dispatch_request events with batching at least 2 after the newest "fslab: iosched" line: saw 0 after it (2 dd_dispatch_request events in all).' });
    expect(judge(all, seen, {}).ok).toBe(true);
    // counted since the step opened, the wrong run would count against the right one for ever
    expect(judge({ ...bad, since: undefined }, seen, {}).ok).toBe(false);
    // no run yet: nothing to count, and it says so
    const none = judge(bad, seen.slice(1, 4), {});
    expect(none.ok).toBe(false);
    expect(none.message).toMatch(/no "fslab: iosched" line has been written to trace_marker since this step opened: no run yet/);
    for (const body of ["event: a\nsince: 3", "event: a\nsince: ''", "verdict: v\nsince: x"]) expect("error" in parseExpect(body)).toBe(true);
  });

  it("since: an event starts the run too (a mount's first scan), and newest: judges the newest event alone", () => {
    const SCAN = (phase: string, start: number, sync: number) =>
      `           mount-90     [000] .....    70.000000: f2fs_free_nid_scan: dev = (7,5), phase = ${phase}, start = ${start}, end = ${start + 3640}, scanned = 3640, found = 3636, skipped = 0, blocks = 8, sync = ${sync}, caller = f2fs_fill_super+0x14c7/0x2218 [f2fs]`;
    const [deferred, waited] = ok(
      "- event: f2fs_free_nid_scan\n  where: { phase: deferred }\n  count: 2\n  since: { event: f2fs_free_nid_scan, where: { phase: nat, start: 0 } }\n" +
        "- event: f2fs_free_nid_scan\n  where: { phase: nat, sync: 1 }\n  count: 0\n  since: { event: f2fs_free_nid_scan, where: { phase: nat, start: 0 } }",
    );
    expect(deferred.since).toEqual({ event: "f2fs_free_nid_scan", where: { phase: "nat", start: { min: 0, max: 0 } } });
    // a first mount with three put off; a second (the newest run) with two, and no create's scan
    const seen = [SCAN("nat", 0, 1), SCAN("deferred", 3640, 0), SCAN("deferred", 7280, 0), SCAN("deferred", 10920, 0), SCAN("nat", 0, 1), SCAN("deferred", 3640, 0), SCAN("nat", 3640, 0), SCAN("deferred", 7280, 0)].map((l) => seenEvent(l)!);
    expect(judge(deferred, seen, {})).toMatchObject({ ok: true });
    expect(judge(deferred, seen, {}).message).toMatch(/^exactly 2 f2fs_free_nid_scan events with phase = deferred after the newest f2fs_free_nid_scan event with phase = nat, start = 0: saw 2 after it/);
    expect(judge(waited, seen, {}).ok).toBe(true);
    // counted since the step opened, the first mount's three would count too
    expect(judge({ ...deferred, since: undefined }, seen, {}).ok).toBe(false);
    // a create's own scan on the newest mount fails the second
    expect(judge(waited, [...seen, seenEvent(SCAN("nat", 10920, 1))!], {}).ok).toBe(false);
    // no mount yet
    expect(judge(deferred, seen.slice(1, 4), {}).message).toMatch(/no f2fs_free_nid_scan event with phase = nat, start = 0 since this step opened: no run yet/);

    const SEARCH = (examined: number) => `            bash-70      [000] .....     5.1: exfat_empty_search: dev 7,1 hint 6 start 6 examined ${examined} result 6 num_entries 3`;
    const [last] = ok("event: exfat_empty_search\nnewest: true\nwhere: { examined: 0 }");
    // a search that read nothing, then one that read 3: the newest decides
    expect(judge(last, [SEARCH(0), SEARCH(3)].map((l) => seenEvent(l)!), {})).toEqual({
      ok: false,
      message: "Wanted: the newest exfat_empty_search event to have examined = 0; the newest is examined = 3 (2 exfat_empty_search events in all).",
    });
    expect(judge(last, [SEARCH(3), SEARCH(0)].map((l) => seenEvent(l)!), {}).ok).toBe(true);
    expect(judge(last, [], {}).message).toMatch(/saw no exfat_empty_search event since this step opened/);
    for (const body of ["event: a\nnewest: 1", "event: a\nsince: { event: A }", "event: a\nsince: { event: b, when: 1 }", "verdict: v\nnewest: true"]) expect("error" in parseExpect(body), body).toBe(true);
  });

  it("judge a view's verdict: only agree passes", () => {
    const [v] = ok("verdict: exfat-dir");
    expect(judge(v, [], {}).ok).toBe(false);
    expect(judge(v, [], { "exfat-dir": { state: "disagree", detail: "search 3 differs" } }).message).toMatch(/search 3 differs/);
    expect(judge(v, [], { "exfat-dir": { state: "agree", detail: "12 of 12 records" } }).ok).toBe(true);
  });
});

describe("a verdict that must be a disagreement", () => {
  it("reads state: disagree and judges against it", async () => {
    const { parseExpect: parse, judge: j } = await import("./expect");
    const r = parse("- verdict: mq-deadline\n  state: disagree\n");
    if ("error" in r) throw new Error(r.error);
    const x = r.expect[0];
    expect(x.state).toBe("disagree");
    expect(j(x, [], { "mq-deadline": { state: "agree", detail: "all 9 agreed" } })).toMatchObject({ ok: false, message: expect.stringMatching(/part at some decision. all 9 agreed/) });
    expect(j(x, [], { "mq-deadline": { state: "disagree", detail: "decision 3" } }).ok).toBe(true);
    expect(j(x, [], {}).ok).toBe(false);
    const bad = parse("- verdict: mq-deadline\n  state: maybe\n");
    expect(bad).toMatchObject({ error: expect.stringMatching(/state: is agree \(the default\) or disagree/) });
    expect(parse("- event: x\n  state: disagree\n")).toMatchObject({ error: expect.stringMatching(/state: goes with verdict:/) });
  });
});
