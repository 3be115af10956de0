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
//                                 # (the newest run), not since the step opened; or after the
//                                 # newest event of a kind: since: { event: …, where: { … } }
//   - event: exfat_empty_search
//     newest: true                # only the newest such event is judged (count 1: it matches)
//     where: { examined: 0 }
//   ```
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
   * earlier in the step does not count against the next one. Or after the newest event of a
   * kind (EventMark): a mount's first scan starts a run no workload marks.
   */
  since?: string | EventMark;
  /** only the newest of the event (after `since`) is judged: what the learner did last */
  newest?: boolean;
  /** 1-based line inside the block, for messages */
  line: number;
}

/** An event of a kind, fields given, that starts a run (an expectation's `since:`). */
export interface EventMark {
  event: string;
  where: Record<string, string | Range>;
}

export type { Verdict };

const ITEM_KEYS = ["event", "count", "where", "verdict", "state", "since", "newest"];
const EVENT_NAME = /^[a-z0-9_]+$/;

/** A `where:` mapping: field: a number, a range ("2..5") or a text. */
function parseWhere(v: unknown): Record<string, string | Range> | { error: string } {
  if (v === undefined) return {};
  if (!v || typeof v !== "object" || Array.isArray(v)) return { error: "where: is a mapping of field: value" };
  const where: Record<string, string | Range> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === "number") where[k] = { min: x, max: x };
    else if (typeof x === "string") where[k] = /^\d*\.\.\d*$/.test(x) && parseRange(x) ? parseRange(x)! : x;
    else return { error: `where: ${k} takes a number, a range or a text, not ${JSON.stringify(x)}` };
  }
  return where;
}

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
      if (typeof js.verdict !== "string" || js.count !== undefined || js.where !== undefined || js.since !== undefined || js.newest !== undefined)
        return { error: "verdict: takes a view id, and nothing else beside it but state:", line };
      if (js.state !== undefined && js.state !== "agree" && js.state !== "disagree")
        return { error: `state: is agree (the default) or disagree, not ${JSON.stringify(js.state)}`, line };
      out.push({ verdict: js.verdict, ...(js.state === "disagree" ? { state: "disagree" as const } : {}), count: { min: 1, max: Infinity }, where: {}, line });
      continue;
    }
    if (js.state !== undefined) return { error: "state: goes with verdict:, not with event:", line };
    if (typeof js.event !== "string" || !EVENT_NAME.test(js.event)) return { error: `event: takes a tracefs event name such as exfat_discard, not ${JSON.stringify(js.event)}`, line };
    const count = js.count === undefined ? { min: 1, max: Infinity } : parseRange(js.count);
    if (!count) return { error: `count: is N, N.., ..N or N..M, not ${JSON.stringify(js.count)}`, line };
    const where = parseWhere(js.where);
    if ("error" in where) return { error: where.error as string, line };
    let since: string | EventMark | undefined;
    if (js.since !== undefined) {
      const v = js.since as unknown;
      if (typeof v === "string" && v.trim()) since = v;
      else if (v && typeof v === "object" && !Array.isArray(v)) {
        const m = v as Record<string, unknown>;
        const extra = Object.keys(m).filter((k) => k !== "event" && k !== "where");
        if (extra.length || typeof m.event !== "string" || !EVENT_NAME.test(m.event))
          return { error: `since: as an event is { event: <tracefs event name>, where: { … } }, not ${JSON.stringify(v)}`, line };
        const w = parseWhere(m.where);
        if ("error" in w) return { error: `since: ${w.error}`, line };
        since = { event: m.event, where: w as Record<string, string | Range> };
      } else
        return { error: `since: takes the text of a line a workload writes to trace_marker, such as "fslab: iosched", or an event ({ event: …, where: { … } }), not ${JSON.stringify(v)}`, line };
    }
    if (js.newest !== undefined && typeof js.newest !== "boolean") return { error: `newest: is true or false, not ${JSON.stringify(js.newest)}`, line };
    out.push({ event: js.event, count, where: where as Record<string, string | Range>, ...(since !== undefined ? { since } : {}), ...(js.newest ? { newest: true } : {}), line });
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
  const since = x.since ? ` after ${sinceText(x.since)}` : "";
  if (x.newest) {
    const w = withFields(x.where).replace(/^ with /, "");
    const not = x.count.max === 0 ? " not" : "";
    return `the newest ${x.event} event${since}${w ? `${not} to have ${w}` : `${not} to be there`}`;
  }
  const one = x.count.max === 1 || (x.count.min === 1 && x.count.max === Infinity); // "at least 1 … event"
  return `${rangeText(x.count)} ${x.event} event${one ? "" : "s"}${withFields(x.where)}${since}`;
}

const withFields = (where: Record<string, string | Range>) => {
  const w = Object.entries(where).map(([k, v]) => `${k} ${typeof v === "string" ? `= ${v}` : rangeText(v).replace("exactly ", "= ")}`);
  return w.length ? ` with ${w.join(", ")}` : "";
};

/** "the newest "fslab: iosched" line", "the newest f2fs_free_nid_scan event with phase = nat" */
export function sinceText(since: string | EventMark): string {
  return typeof since === "string" ? `the newest "${since}" line` : `the newest ${since.event} event${withFields(since.where)}`;
}

/**
 * The events after the newest trace_marker line holding `since`'s text (or the newest event
 * that matches an EventMark), or null when there is none.
 */
export function eventsSince(since: string | EventMark, events: readonly SeenEvent[]): readonly SeenEvent[] | null {
  const starts =
    typeof since === "string"
      ? (e: SeenEvent) => e.event === "tracing_mark_write" && !!e.fields.buf?.includes(since)
      : (e: SeenEvent) => e.event === since.event && fieldsMatch(e, since.where);
  for (let i = events.length - 1; i >= 0; i--) if (starts(events[i])) return events.slice(i + 1);
  return null;
}

const fieldsMatch = (e: SeenEvent, where: Record<string, string | Range>) => Object.entries(where).every(([k, w]) => fieldMatches(e.fields[k], w));

/** The events an (event) expectation counts: its event, with its where: fields (the newest alone, with newest:). */
export function matchingEvents(x: Expectation, events: readonly SeenEvent[]): SeenEvent[] {
  const named = events.filter((e) => e.event === x.event);
  return (x.newest ? named.slice(-1) : named).filter((e) => fieldsMatch(e, x.where));
}

/** An event's fields that an expectation names, as they were: "examined = 3". */
function describeFields(e: SeenEvent, where: Record<string, string | Range>): string {
  const keys = Object.keys(where);
  return keys.length ? keys.map((k) => `${k} = ${e.fields[k] ?? "(none)"}`).join(", ") : "there";
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
  const none = typeof x.since === "string" ? `no "${x.since}" line has been written to trace_marker since this step opened: no run yet` : x.since ? `no ${sinceText(x.since).replace("the newest ", "")} since this step opened: no run yet` : "";
  let seen = x.since ? (counted ? `saw ${n} after it` : none) : `saw ${n} since this step opened`;
  if (x.newest) seen = !counted ? none : !named.length ? `saw no ${x.event} event${x.since ? " after it" : " since this step opened"}` : `the newest is ${describeFields(named.at(-1)!, x.where)}`;
  if (Object.keys(x.where).length && named.length !== n) seen += ` (${named.length} ${x.event} events in all)`;
  const missing = Object.keys(x.where).filter((k) => named.length && named.every((e) => e.fields[k] === undefined));
  if (missing.length) seen += `; no ${x.event} line has a field ${missing.join(", ")} (its fields: ${Object.keys(named[0].fields).join(", ")})`;
  if (!named.length && !ok) seen += " (the page sees only the events fslab-trace streams)";
  return { ok, message: ok ? `${want}: ${seen}.` : `Wanted: ${want}; ${seen}.` };
}
