// Each topic's records against its core's C header, the types of all topics apart, and the
// gathered trace table (events.gen.ts) against lines our kernel printed.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { topicsWith } from "./folders";
import type { RecordSpec } from "../shared/events";
import { decodeEvent, isTraceEvent, recordsOf, splitTraceLine, type TraceEventSpec } from "../shared/event-table";
import { TOPIC_RECORDS, TRACE_EVENTS } from "./events.gen";
import { EV as EXFAT } from "./exfat/events";
import { EV as F2FS } from "./f2fs/events";

const ROOT = new URL("../../../", import.meta.url);
const TOPICS = topicsWith("events.ts");
const records = TOPIC_RECORDS as Record<string, Record<string, RecordSpec>>;

/** FSLAB_EV_<NAME> = <id>, with the fields its comment names (a =, b =, c =) */
export function cRecords(header: string): Map<string, { id: number; fields: string[] }> {
  const out = new Map<string, { id: number; fields: string[] }>();
  for (const [, name, id, rest] of header.matchAll(/FSLAB_EV_(\w+) = (0x[0-9a-fA-F]+),([^]*?)(?=FSLAB_EV_|\n};)/g))
    out.set(name, { id: Number(id), fields: [...rest.matchAll(/\b([abc]) = /g)].map((m) => m[1]) });
  return out;
}

describe("each topic's records", () => {
  it("every topic folder with an events.ts is in events.gen.ts", () => {
    expect(TOPICS.length).toBeGreaterThan(1);
    expect(Object.keys(records).sort()).toEqual(TOPICS);
  });

  for (const id of TOPICS) {
    it(`${id}: the same records as wasm/src/${id}/include/fslab/${id}_events.h, with the same types and fields`, () => {
      const path = new URL(`wasm/src/${id}/include/fslab/${id}_events.h`, ROOT);
      const ts = records[id];
      if (!Object.keys(ts).length) return expect(existsSync(path), `${id} has no records, so no C header of them`).toBe(false);
      const c = cRecords(readFileSync(path, "utf8"));
      expect(Object.keys(ts).sort()).toEqual([...c.keys()].sort());
      for (const [name, { id: type, fields }] of c) {
        expect(ts[name].type, name).toBe(type);
        expect(["a", "b", "c"].filter((f) => (ts[name] as unknown as Record<string, unknown>)[f] !== undefined), name).toEqual(fields);
      }
    });
  }

  it("no two records share a type, and each topic has a high byte of its own", () => {
    const byType = new Map<number, string>();
    const byteOf = new Map<number, string>();
    for (const id of TOPICS)
      for (const [name, r] of Object.entries(records[id])) {
        expect(byType.get(r.type), `${id}'s ${name}`).toBeUndefined();
        byType.set(r.type, name);
        const owner = byteOf.get(r.type >> 8) ?? id;
        expect(owner, `${id}'s ${name} (type 0x${r.type.toString(16)}) and ${owner}'s records share the byte 0x${(r.type >> 8).toString(16)}: a topic's byte is its own`).toBe(id);
        byteOf.set(r.type >> 8, id);
      }
    expect(byType.size).toBeGreaterThan(0);
  });
});

describe("the gathered trace table", () => {
  const line = (event: string, body: string) => splitTraceLine(`t-1 [000] ..... 1.0: ${event}: ${body}`)!;

  it("every event decodes its sample line, and the records it becomes are its topic's", async () => {
    // each topic's own events (from its folder), and the kernel's block events (no records)
    const owners: Array<readonly [string, string]> = [];
    for (const id of TOPICS) owners.push(...Object.keys(((await import(`./${id}/events.ts`)) as { traceEvents: object }).traceEvents).map((event) => [event, id] as const));
    for (const [event, spec] of Object.entries(TRACE_EVENTS)) {
      expect(decodeEvent(spec as TraceEventSpec, spec.sample), `${event}'s sample "${spec.sample}"`).not.toBeNull();
      const words = recordsOf(TRACE_EVENTS, line(event, spec.sample))!;
      expect(words.length % 4, event).toBe(0);
      const owner = owners.find(([e]) => e === event)?.[1];
      const ids = new Set(Object.values(owner ? records[owner] : {}).map((r) => r.type));
      for (let i = 0; i < words.length; i += 4) expect(ids.has(words[i]), `${event} becomes a record of ${owner}`).toBe(true);
    }
    const samples = { f2fs_free_nid_scan: TRACE_EVENTS.f2fs_free_nid_scan.sample, exfat_discard: TRACE_EVENTS.exfat_discard.sample };
    expect(recordsOf(TRACE_EVENTS, line("f2fs_free_nid_scan", samples.f2fs_free_nid_scan))).toEqual([F2FS.F2FS_NID_SCAN, 2 | (1 << 8), 0, 9, F2FS.F2FS_NID_SCAN_RESULT, 0, 0, 0]);
    expect(recordsOf(TRACE_EVENTS, line("exfat_discard", samples.exfat_discard))).toEqual([EXFAT.EXFAT_DISCARD, 7, 10240, 1]);
    expect(recordsOf(TRACE_EVENTS, line("block_rq_issue", "7,0 W 4096 () 8 + 8 be,0,4 [dd]"))).toEqual([]);
    expect(recordsOf(TRACE_EVENTS, line("sched_switch", "prev_comm=a"))).toBeNull();
  });

  it("reads every event line of the traces our kernel recorded, each through its entry", () => {
    const dir = new URL("./blk/traces/", import.meta.url);
    let read = 0;
    for (const name of ["blk-nullb-dd", "blk-nullb-mq-deadline", "blk-nullb-none"]) {
      const text = gunzipSync(readFileSync(new URL(`${name}.trace.gz`, dir))).toString("utf8");
      for (const raw of text.split("\n")) {
        if (!raw.trim() || raw.startsWith("#") || /\[LOST \d+ EVENTS\]/.test(raw)) continue;
        const l = splitTraceLine(raw);
        expect(l, raw).not.toBeNull();
        if (!isTraceEvent(TRACE_EVENTS, l!.event)) continue;
        expect(decodeEvent(TRACE_EVENTS[l!.event] as (typeof TRACE_EVENTS)["block_bio_queue"], l!.body), raw).not.toBeNull();
        read++;
      }
    }
    expect(read).toBeGreaterThan(1000);
    expect(Object.keys(TRACE_EVENTS)).toEqual(expect.arrayContaining(["exfat_discard", "exfat_empty_search", "f2fs_free_nid_scan", "block_rq_insert", "block_rq_issue", "block_rq_complete", "block_bio_queue", "dd_dispatch_request"]));
  });
});

describe("the guest's fslab-trace sets", () => {
  const sets = (id: string): string[] => {
    const dir = new URL(`${id}/guest/usr/local/lib/fslab-trace/`, import.meta.url);
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".events")).map((f) => readFileSync(new URL(f, dir), "utf8")) : [];
  };

  it("each topic's sets stream exactly the tracepoints its events.ts decodes", async () => {
    let n = 0;
    for (const id of TOPICS) {
      const { traceEvents } = (await import(`./${id}/events.ts`)) as { traceEvents: Record<string, { system: string }> };
      const decoded = Object.entries(traceEvents).map(([name, s]) => `${s.system}/${name}`).sort();
      const streamed = sets(id).flatMap((t) => t.split(/\s+/).filter(Boolean)).sort();
      expect(streamed, id).toEqual(decoded);
      n += decoded.length;
    }
    expect(n).toBeGreaterThan(3);
  });
});
