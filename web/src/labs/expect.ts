// A lab step's `expect` block: what the kernel must have done since the step opened, judged
// from the events the page parsed out of the guest's trace (fslab-trace on /dev/hvc1), and
// the verdicts of the lab's views (model against kernel). YAML, one mapping or a list:
//
//   ```expect
//   - event: exfat_discard        # a tracefs event name
//     count: 4..                  # 4 exactly; 4.. at least; ..4 at most; 2..5 between (default 1..)
//     where: { batched: 1 }       # field values on the event's line; a number may be a range
//   - verdict: exfat-dir          # this lab view's model and kernel must agree
//     state: disagree             # ...or must have parted (a kernel that breaks a rule on purpose)
//   - event: dd_dispatch_request
//     since: "fslab: iosched"     # counted after the newest trace_marker line holding this text
//   ```                           # (the newest run), not since the step opened
import { isMap, isSeq, type Node } from "yaml";
import { readYaml } from "./yaml-block";
import { decodeEvent, isTraceEvent, splitTraceLine, type TraceEventSpec } from "../shared/event-table";
import { TRACE_EVENTS } from "../topics/events.gen";
import type { Verdict } from "../shared/verdict";

export interface Range {
  min: number;
  max: number;
}

export interface Expectation {
  event?: string;
  count: Range;
  where: Record<string, string | Range>;
  /** a view id: its model and the kernel must agree */
  verdict?: string;
  /** what the view's verdict must be: "agree" (the default), or "disagree" */
  state?: "agree" | "disagree";
  /**
   * Count only the events after the newest `trace_marker` line (tracing_mark_write) holding
   * this text: the newest run of a workload that writes such a line first, so a wrong run
   * earlier in the step does not count against the next one.
   */
  since?: string;
  /** 1-based line inside the block, for messages */
  line: number;
}

export type { Verdict };

const ITEM_KEYS = ["event", "count", "where", "verdict", "state", "since"];

/** "4", 4, "4..", "..4", "2..5" to a range; null if it is none of these. */
export function parseRange(v: unknown): Range | null {
  if (typeof v === "number") return Number.isInteger(v) && v >= 0 ? { min: v, max: v } : null;
  if (typeof v !== "string") return null;
  const m = v.trim().match(/^(\d+)?(\.\.)?(\d+)?$/);
  if (!m || (!m[1] && !m[3])) return null;
  if (!m[2]) return { min: +m[1], max: +m[1] };
  const r = { min: m[1] ? +m[1] : 0, max: m[3] ? +m[3] : Infinity };
  return r.min <= r.max ? r : null;
}

export function rangeText(r: Range): string {
  if (r.min === r.max) return `exactly ${r.min}`;
  if (r.max === Infinity) return `at least ${r.min}`;
  if (r.min === 0) return `at most ${r.max}`;
  return `${r.min} to ${r.max}`;
}

/** Parse an expect block's body; an error names the line inside the block (1-based). */
export function parseExpect(body: string): { expect: Expectation[] } | { error: string; line: number } {
  const read = readYaml(body);
  if ("error" in read) return read;
  const { doc, lineCounter: lc } = read;
  const lineOf = (n: Node | null | undefined) => (n?.range ? lc.linePos(n.range[0]).line : 1);
  const root = doc.contents;
  const items = isSeq(root) ? root.items : [root];
  const out: Expectation[] = [];
  for (const item of items) {
    const line = lineOf(item as Node);
    if (!isMap(item)) return { error: "each expectation is a mapping with an event: or a verdict: key", line };
    const js = item.toJSON() as Record<string, unknown>;
    for (const k of Object.keys(js)) if (!ITEM_KEYS.includes(k)) return { error: `unknown key "${k}" (known: ${ITEM_KEYS.join(", ")})`, line };
    if ((js.event === undefined) === (js.verdict === undefined)) return { error: "an expectation names an event: or a verdict:, one of the two", line };
    if (js.verdict !== undefined) {
      if (typeof js.verdict !== "string" || js.count !== undefined || js.where !== undefined || js.since !== undefined)
        return { error: "verdict: takes a view id, and nothing else beside it but state:", line };
      if (js.state !== undefined && js.state !== "agree" && js.state !== "disagree")
        return { error: `state: is agree (the default) or disagree, not ${JSON.stringify(js.state)}`, line };
      out.push({ verdict: js.verdict, ...(js.state === "disagree" ? { state: "disagree" as const } : {}), count: { min: 1, max: Infinity }, where: {}, line });
      continue;
    }
    if (js.state !== undefined) return { error: "state: goes with verdict:, not with event:", line };
    if (typeof js.event !== "string" || !/^[a-z0-9_]+$/.test(js.event)) return { error: `event: takes a tracefs event name such as exfat_discard, not ${JSON.stringify(js.event)}`, line };
    const count = js.count === undefined ? { min: 1, max: Infinity } : parseRange(js.count);
    if (!count) return { error: `count: is N, N.., ..N or N..M, not ${JSON.stringify(js.count)}`, line };
    const where: Record<string, string | Range> = {};
    if (js.where !== undefined) {
      if (!js.where || typeof js.where !== "object" || Array.isArray(js.where)) return { error: "where: is a mapping of field: value", line };
      for (const [k, v] of Object.entries(js.where)) {
        if (typeof v === "number") where[k] = { min: v, max: v };
        else if (typeof v === "string") where[k] = /^\d*\.\.\d*$/.test(v) && parseRange(v) ? parseRange(v)! : v;
        else return { error: `where: ${k} takes a number, a range or a text, not ${JSON.stringify(v)}`, line };
      }
    }
    if (js.since !== undefined && (typeof js.since !== "string" || !js.since.trim()))
      return { error: `since: takes the text of a line a workload writes to trace_marker, such as "fslab: iosched", not ${JSON.stringify(js.since)}`, line };
    out.push({ event: js.event, count, where, ...(typeof js.since === "string" ? { since: js.since } : {}), line });
  }
  return { expect: out };
}

/** One event the page saw: its name and its fields, as printed on its tracefs line. */
export interface SeenEvent {
  event: string;
  fields: Record<string, string>;
}

/**
 * A tracefs line to an event with fields: "name=value" and "name = value" pairs as the
 * kernel's TP_printk prints them, and for events the event table decodes (block events,
 * exfat_discard's "clu N count N"), its decoded fields too. null if it is not an event line.
 */
export function seenEvent(line: string): SeenEvent | null {
  const l = splitTraceLine(line);
  if (!l) return null;
  const fields: Record<string, string> = { comm: l.comm, pid: String(l.pid) };
  if (isTraceEvent(TRACE_EVENTS, l.event)) {
    const d = decodeEvent(TRACE_EVENTS[l.event] as TraceEventSpec, l.body);
    if (d) for (const [k, v] of Object.entries(d)) fields[k] = String(v);
  }
  for (const m of l.body.matchAll(/([A-Za-z_]\w*) ?= ?([^\s,()]+)/g)) fields[m[1]] = m[2];
  // a line written to trace_marker: its text whole, as tracefs names it (an expectation's since:)
  if (l.event === "tracing_mark_write") fields.buf = l.body;
  return { event: l.event, fields };
}

function fieldMatches(value: string | undefined, want: string | Range): boolean {
  if (value === undefined) return false;
  if (typeof want === "string") return value === want || (value !== "" && want !== "" && Number(value) === Number(want));
  const n = Number(value);
  return Number.isFinite(n) && n >= want.min && n <= want.max;
}

export interface ExpectResult {
  ok: boolean;
  /** what was wanted and what was seen, in words for the learner */
  message: string;
}

export function describeExpectation(x: Expectation): string {
  if (x.verdict) return x.state === "disagree" ? `the "${x.verdict}" view's model and the kernel part at some decision` : `the "${x.verdict}" view's model and the kernel agree`;
  const where = Object.entries(x.where).map(([k, v]) => `${k} ${typeof v === "string" ? `= ${v}` : rangeText(v).replace("exactly ", "= ")}`);
  const since = x.since ? ` after the newest "${x.since}" line` : "";
  const one = x.count.max === 1 || (x.count.min === 1 && x.count.max === Infinity); // "at least 1 … event"
  return `${rangeText(x.count)} ${x.event} event${one ? "" : "s"}${where.length ? ` with ${where.join(", ")}` : ""}${since}`;
}

/** The events after the newest trace_marker line holding `text`, or null when there is none. */
export function eventsSince(text: string, events: readonly SeenEvent[]): readonly SeenEvent[] | null {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].event === "tracing_mark_write" && events[i].fields.buf?.includes(text)) return events.slice(i + 1);
  return null;
}

/** The events an (event) expectation counts: its event, with its where: fields. */
export function matchingEvents(x: Expectation, events: readonly SeenEvent[]): SeenEvent[] {
  return events.filter((e) => e.event === x.event && Object.entries(x.where).every(([k, w]) => fieldMatches(e.fields[k], w)));
}

/** Judge one expectation against the events seen since the step opened and the views' verdicts. */
export function judge(x: Expectation, events: readonly SeenEvent[], verdicts: Readonly<Record<string, Verdict>>): ExpectResult {
  const want = describeExpectation(x);
  if (x.verdict) {
    const v = verdicts[x.verdict];
    if (!v) return { ok: false, message: `Wanted: ${want}. The view has not judged anything yet.` };
    const ok = v.state === (x.state ?? "agree");
    return { ok, message: ok ? `${want}: ${v.detail}` : `Wanted: ${want}. ${v.detail}` };
  }
  const counted = x.since ? eventsSince(x.since, events) : events;
  const named = (counted ?? []).filter((e) => e.event === x.event);
  const n = matchingEvents(x, named).length;
  const ok = counted !== null && n >= x.count.min && n <= x.count.max;
  let seen = x.since ? (counted ? `saw ${n} after it` : `no "${x.since}" line has been written to trace_marker since this step opened: no run yet`) : `saw ${n} since this step opened`;
  if (Object.keys(x.where).length && named.length !== n) seen += ` (${named.length} ${x.event} events in all)`;
  const missing = Object.keys(x.where).filter((k) => named.length && named.every((e) => e.fields[k] === undefined));
  if (missing.length) seen += `; no ${x.event} line has a field ${missing.join(", ")} (its fields: ${Object.keys(named[0].fields).join(", ")})`;
  if (!named.length && !ok) seen += " (the page sees only the events fslab-trace streams)";
  return { ok, message: ok ? `${want}: ${seen}.` : `Wanted: ${want}; ${seen}.` };
}
