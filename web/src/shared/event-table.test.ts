// The event table against the C header it mirrors, and against lines our kernel printed.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BlkOp, EV, RECORD_FIELDS } from "./events";
import { TRACE_EVENTS, decodeEvent, isTraceEvent, opOfRwbs, recordsOf, splitTraceLine } from "./event-table";

const header = readFileSync(new URL("../../../wasm/include/fslab/events.h", import.meta.url), "utf8");

/** FSLAB_EV_<NAME> = <id>, with the fields its comment names (a =, b =, c =); "same fields": the entry before's */
function cRecords(): Map<string, { id: number; fields: string[] }> {
  const out = new Map<string, { id: number; fields: string[] }>();
  const body = header.slice(header.indexOf("enum fslab_event_type {"), header.indexOf("};", header.indexOf("enum fslab_event_type {")));
  const entries = [...body.matchAll(/FSLAB_EV_(\w+) = (0x[0-9a-fA-F]+),([^]*?)(?=FSLAB_EV_|$)/g)];
  let last: string[] = [];
  for (const [, name, id, rest] of entries) {
    const comment = rest.replace(/\/\*\s*(exFAT|F2FS|block layer)[^*]*\*\//g, ""); // section headings
    const fields = /same fields/.test(comment) ? last : [...comment.matchAll(/\b([abc]) = /g)].map((m) => m[1]);
    out.set(name, { id: Number(id), fields });
    last = fields;
  }
  return out;
}

describe("the event table", () => {
  it("has every record of wasm/include/fslab/events.h, with the same id and the same fields, and no other", () => {
    const c = cRecords();
    expect(c.size).toBeGreaterThan(0);
    expect(Object.keys(EV).sort()).toEqual([...c.keys()].sort());
    for (const [name, { id, fields }] of c) {
      expect(EV[name as keyof typeof EV], name).toBe(id);
      expect(Object.keys(RECORD_FIELDS[name as keyof typeof EV]), name).toEqual(fields);
    }
  });

  it("has the C side's block ops (c of the block records, and what rwbs decodes to)", () => {
    const ops = [...header.matchAll(/FSLAB_BLK_(\w+) = (\d+)/g)].map(([, n, v]) => [n, Number(v)]);
    expect(ops.length).toBeGreaterThan(0);
    const ts = Object.entries(BlkOp).filter(([, v]) => typeof v === "number").map(([n, v]) => [n.toUpperCase(), v]);
    expect(ts.sort()).toEqual(ops.sort());
  });

  it("decodes rwbs as blk_fill_rwbs() writes it, flushes ahead of data included", () => {
    expect(["R", "RA", "W", "WS", "WFS", "FWS", "FWFS", "D", "DE", "FF", "F", "FN", "N"].map(opOfRwbs)).toEqual([
      BlkOp.Read, BlkOp.Read, BlkOp.Write, BlkOp.Write, BlkOp.Write, BlkOp.Write, BlkOp.Write, BlkOp.Discard, BlkOp.Discard, BlkOp.Flush, BlkOp.Flush, BlkOp.Other, BlkOp.Other,
    ]);
  });

  it("every record an event becomes is a record of the table", () => {
    const line = (event: string, body: string) => splitTraceLine(`t-1 [000] ..... 1.0: ${event}: ${body}`)!;
    const samples: Record<string, string> = {
      exfat_discard: "dev 7,0 clu 7 count 10240 batched 1",
      exfat_empty_search: "dev 7,0 hint -1 start 0 examined 451 result -28 num_entries 3",
      f2fs_free_nid_scan: "dev = (7,1), phase = deferred, start = 0, end = 9, scanned = 0, found = 0, skipped = 1",
    };
    const ids = new Set<number>(Object.values(EV));
    for (const [event, body] of Object.entries(samples)) {
      const words = recordsOf(line(event, body))!;
      expect(words.length % 4, event).toBe(0);
      for (let i = 0; i < words.length; i += 4) expect(ids.has(words[i]), event).toBe(true);
    }
    expect(recordsOf(line("f2fs_free_nid_scan", samples.f2fs_free_nid_scan))).toEqual([EV.F2FS_NID_SCAN, 2 | (1 << 8), 0, 9, EV.F2FS_NID_SCAN_RESULT, 0, 0, 0]);
  });

  it("reads every event line of the traces our kernel recorded, each through its entry", () => {
    const dir = new URL("../topics/blk/traces/", import.meta.url);
    let read = 0;
    for (const name of ["blk-nullb-dd", "blk-nullb-mq-deadline", "blk-nullb-none"]) {
      const text = gunzipSync(readFileSync(new URL(`${name}.trace.gz`, dir))).toString("utf8");
      for (const raw of text.split("\n")) {
        if (!raw.trim() || raw.startsWith("#") || /\[LOST \d+ EVENTS\]/.test(raw)) continue;
        const l = splitTraceLine(raw);
        expect(l, raw).not.toBeNull();
        if (!isTraceEvent(l!.event)) continue;
        expect(decodeEvent(l!.event, l!.body), raw).not.toBeNull();
        read++;
      }
    }
    expect(read).toBeGreaterThan(1000);
    expect(Object.keys(TRACE_EVENTS)).toEqual(expect.arrayContaining(["exfat_discard", "exfat_empty_search", "f2fs_free_nid_scan", "block_rq_insert", "block_rq_issue", "block_rq_complete", "block_bio_queue", "dd_dispatch_request"]));
  });
});
