// The exfat-empty-hint code step's grader (shared/grade.ts): the learner writes
// exfat_set_empty_hint() (wasm/src/exfat/dir_hint.c is the model's, the step's reference), the
// guest's tcc builds it with the model's own dir.c and events.c and a small main
// (wasm/src/exfat/grade/hint_grade.c), and the learner's kernel's run is replayed through it:
// each create's searches (where each started, the entries it examined, the slot it found)
// against the kernel's exfat_empty_search records for the same create.
//
// The trace alone does not say what ran: the step's workload writes each operation to the
// grading trace first (`fslab: exfat-dir create NAME`, `rm NAME`, `lookup NAME`, and once
// `dentries_per_clu=N`), so the replay runs the operations the kernel ran, in its order.
import exfatDirH from "../../../../wasm/src/exfat/include/fslab/exfat_dir.h?raw";
import eventsH from "../../../../wasm/include/fslab/events.h?raw";
import topicEventsH from "../../../../wasm/src/exfat/include/fslab/exfat_events.h?raw";
import errnoH from "../../../../wasm/include/fslab/errno.h?raw";
import dirC from "../../../../wasm/src/exfat/dir.c?raw";
import eventsC from "../../../../wasm/src/common/events.c?raw";
import hintGradeC from "../../../../wasm/src/exfat/grade/hint_grade.c?raw";
import dirHintC from "../../../../wasm/src/exfat/dir_hint.c?raw";
import { gradedTraceLines, type CodeGrader, type GradeInput, type GradeVerdict, type TopicGraders, type Mutant } from "../../shared/grade";
import { decodeEvent } from "../../shared/event-table";
import { traceEvents } from "./events";
import { freeClusterDiscard } from "./discard-grader";

export class HintTraceError extends Error {}

/** one exfat_empty_search: -1 for no hint and for -ENOSPC, as the replay prints them */
export type Search = [examined: number, hint: number, result: number];

type Op = { op: "c"; name: string; entries: number; searches: Search[] } | { op: "r" | "l"; name: string; create: number };

export interface HintContext {
  dentriesPerClu: number;
  ops: Op[];
}

const MARK = /^fslab: exfat-dir (create|rm|lookup) (\S+)$/;

/** exfat_calc_num_entries(): file, stream extension and a name entry per 15 characters */
export const entriesFor = (name: string) => 2 + Math.ceil(name.length / 15);

/** The operations and each create's searches, from the grading trace's lines. */
export function hintRun(text: string): HintContext {
  let dentriesPerClu = 0;
  const ops: Op[] = [];
  const latest = new Map<string, number>(); // name -> index of the create that made it
  let creates = 0;
  let current: Extract<Op, { op: "c" }> | null = null;
  for (const t of gradedTraceLines(text, (m) => new HintTraceError(m))) {
    if (t.event === "tracing_mark_write") {
      const dpc = t.body.match(/^fslab: exfat-dir dentries_per_clu=(\d+)$/);
      if (dpc) dentriesPerClu = Number(dpc[1]);
      const m = t.body.match(MARK);
      if (!m) continue;
      const [, what, name] = m;
      current = null;
      if (what === "create") {
        current = { op: "c", name, entries: entriesFor(name), searches: [] };
        ops.push(current);
        latest.set(name, creates++);
      } else {
        const create = latest.get(name);
        if (create === undefined) throw new HintTraceError(`the workload's ${what} of ${name} comes before any create of it`);
        ops.push({ op: what === "rm" ? "r" : "l", name, create });
        if (what === "rm") latest.delete(name);
      }
      continue;
    }
    if (t.event !== "exfat_empty_search") continue;
    const f = decodeEvent(traceEvents.exfat_empty_search, t.body);
    if (!f) throw new HintTraceError(`an exfat_empty_search line the grader cannot read: ${t.body}`);
    // before the first mark: the workload's own setup (its mkdir searched the root directory)
    if (!creates) continue;
    if (!current) throw new HintTraceError("a search in the trace that no `fslab: exfat-dir create NAME` line comes before: the workload must mark each create");
    const entries = Number(t.body.match(/num_entries (\d+)/)?.[1] ?? current.entries);
    if (entries !== current.entries)
      throw new HintTraceError(`the kernel searched for ${entries} entries for "${current.name}", which takes ${current.entries}: its mark is not the create that ran`);
    current.searches.push([f.examined, f.hint < 0 ? -1 : f.hint, f.result < 0 ? -1 : f.result]);
  }
  if (!(dentriesPerClu > 0 && dentriesPerClu <= 1 << 20 && (dentriesPerClu & (dentriesPerClu - 1)) === 0))
    throw new HintTraceError("the workload wrote no `fslab: exfat-dir dentries_per_clu=N` line (a power of two) to $FSLAB_TRACE/trace_marker");
  if (!creates) throw new HintTraceError("the workload marked no create (`fslab: exfat-dir create NAME` in $FSLAB_TRACE/trace_marker)");
  for (const o of ops) {
    if (o.op !== "c") continue;
    if (!o.searches.length) throw new HintTraceError(`the create of ${o.name} has no exfat_empty_search in the trace: was it made on the exFAT volume, and was the name new?`);
    // a create searches again only after no room (the directory grew): one that found room is its last
    const found = o.searches.findIndex((x) => x[2] >= 0);
    if (found !== o.searches.length - 1)
      throw new HintTraceError(`the searches after the mark for ${o.name} ${found < 0 ? "never found room" : "go on after one found room"}: a create the workload did not mark?`);
  }
  return { dentriesPerClu, ops };
}

function input(text: string): GradeInput<HintContext> {
  const ctx = hintRun(text);
  const lines = [`fslab-exfat-hint 1 ${ctx.dentriesPerClu} ${ctx.ops.length}`];
  for (const o of ctx.ops) lines.push(o.op === "c" ? `c ${o.name.length}` : `${o.op} ${o.create} ${o.name.length}`);
  return { stdin: lines.join("\n") + "\n", context: ctx, decisions: ctx.ops.filter((o) => o.op === "c").length };
}

export const searchText = (s: Search) =>
  `from ${s[1] < 0 ? "entry 0 (no hint)" : `the hint, entry ${s[1]}`}: ${s[0]} examined, ${s[2] < 0 ? "no room (-ENOSPC: the directory grows a cluster)" : `room at entry ${s[2]}`}`;
const searchesText = (list: Search[]) => list.map(searchText).join("; then ");

/** The directory's slots as the kernel left them before create `at` (0-based; every create before it agreed), and where its lookup started. */
export function dirSlotsBefore({ dentriesPerClu, ops }: HintContext, at: number): { slots: string[]; lookupFrom: number } {
  let slots: string[] = new Array(dentriesPerClu).fill("unused");
  const slotOf: number[] = [];
  let lookupFrom = 0;
  let k = 0;
  for (const o of ops) {
    if (o.op === "c") {
      if (k === at) break;
      for (const s of o.searches) if (s[2] < 0) slots = slots.concat(new Array(dentriesPerClu).fill("unused"));
      const slot = o.searches[o.searches.length - 1][2];
      slotOf[k++] = slot;
      for (let i = 0; i < o.entries && slot >= 0; i++) slots[slot + i] = "in use";
      lookupFrom = 0;
    } else {
      const slot = slotOf[o.create];
      const n = entriesFor(o.name);
      if (o.op === "r") for (let i = 0; i < n; i++) slots[slot + i] = "deleted";
      // exfat_find_dir_entry()'s found: the next lookup starts after the set; a remove changes
      // the directory, so the lookup after it starts at 0 again (exfat_find: ei->version)
      lookupFrom = o.op === "l" && !((slot + n) % dentriesPerClu === 0 && slot + n === slots.length) ? slot + n : 0;
    }
  }
  return { slots, lookupFrom };
}

/** The directory before create `at` (0-based) in words: its slots run by run, and where that create's lookup started. */
export function dirBefore(ctx: HintContext, at: number): string[] {
  const { dentriesPerClu, ops } = ctx;
  const { slots, lookupFrom } = dirSlotsBefore(ctx, at);
  const runs: string[] = [];
  for (let i = 0; i < slots.length; ) {
    let j = i;
    while (j + 1 < slots.length && slots[j + 1] === slots[i]) j++;
    runs.push(`${i === j ? i : `${i}-${j}`} ${slots[i]}`);
    i = j + 1;
  }
  const shown = runs.length > 14 ? [...runs.slice(0, 6), `… ${runs.length - 12} runs …`, ...runs.slice(-6)] : runs;
  const c = ops.filter((o) => o.op === "c")[at] as Extract<Op, { op: "c" }>;
  return [
    `create ${at + 1}: "${c.name}", ${c.entries} entries (file, stream extension, ${c.entries - 2} name)`,
    `the directory: ${slots.length} entries (${slots.length / dentriesPerClu} cluster${slots.length === dentriesPerClu ? "" : "s"} of ${dentriesPerClu}): ${shown.join(", ")}`,
    `its lookup started at entry ${lookupFrom}${lookupFrom ? ` (a lookup found a name just before; it goes to the end, then again from 0 to ${lookupFrom})` : ""} and calls your function for each free entry it passes`,
  ];
}

/** One create's searches as the replay printed them (a line of hint_grade.c's output). */
export function searchesOf(line: string): Search[] {
  const w = line.trim().split(/\s+/).map(Number);
  const out: Search[] = [];
  for (let j = 1; j + 2 < w.length; j += 3) out.push([w[j], w[j + 1], w[j + 2]]);
  return out;
}

function judge({ context }: GradeInput<HintContext>, stdout: string): GradeVerdict {
  const creates = context.ops.filter((o): o is Extract<Op, { op: "c" }> => o.op === "c");
  const lines = stdout.trim() ? stdout.trim().split("\n") : [];
  if (lines.length !== creates.length) throw new HintTraceError(`the replay printed ${lines.length} creates of the trace's ${creates.length}`);
  let first = -1;
  let agreed = 0;
  const yours: Search[][] = [];
  lines.forEach((l, i) => {
    const w = l.trim().split(/\s+/).map(Number);
    if (w.some((x) => !Number.isInteger(x)) || (w.length - 1) % 3) throw new HintTraceError(`the replay's line ${i + 1} is not a slot and three numbers per search`);
    const mine = searchesOf(l);
    yours.push(mine);
    if (JSON.stringify(mine) === JSON.stringify(creates[i].searches)) agreed++;
    else if (first < 0) first = i;
  });
  if (first < 0) return { kind: "agree", decisions: creates.length, notJudged: 0 };
  return {
    kind: "diverge",
    decisions: creates.length,
    notJudged: 0,
    at: first + 1,
    agreed,
    judged: creates.length,
    inputs: dirBefore(context, first),
    kernel: searchesText(creates[first].searches),
    yours: yours[first].length ? searchesText(yours[first]) : "no search (the create failed before searching)",
  };
}

/** five mistakes a learner could make in exfat_set_empty_hint(), each caught at a named create */
const MUTANTS: readonly Mutant[] = [
  { name: "a flipped comparison: a hint starting after this entry is kept", from: "ei->hint_femp.eidx <= dentry", to: "ei->hint_femp.eidx >= dentry" },
  { name: "an off-by-one: the run is taken one entry short", from: "candi_empty->count == num_entries ||", to: "candi_empty->count == num_entries - 1 ||" },
  { name: "a missing reset: a new run does not start at its first free entry", from: "if (candi_empty->count == 0)\n\t\tcandi_empty->eidx = dentry;", to: "" },
  { name: "a wrong constant: the deleted entries count to the end", from: "entry_type == SLOT_UNUSED", to: "entry_type == SLOT_DELETED" },
  { name: "swapped branches: the unused entry counts one, the deleted ones the rest", from: "\t\tcandi_empty->count += total_entries - dentry;\n\telse\n\t\tcandi_empty->count++;", to: "\t\tcandi_empty->count++;\n\telse\n\t\tcandi_empty->count += total_entries - dentry;" },
];

export const setEmptyHint: CodeGrader<HintContext> = {
  events: ["exfat/exfat_empty_search"],
  mutants: MUTANTS,
  sources: {
    "include/fslab/exfat_dir.h": exfatDirH,
    "include/fslab/events.h": eventsH,
    "include/fslab/exfat_events.h": topicEventsH,
    "include/fslab/errno.h": errnoH,
    "dir.c": dirC,
    "events.c": eventsC,
    "hint_grade.c": hintGradeC,
  },
  file: "dir_hint.c",
  reference: dirHintC,
  input,
  judge,
  // hint_grade.c writes each create's line as it is made: a crash is in the create after the last
  reached({ context }, partial) {
    const done = partial.split("\n").filter((l) => /^-?\d/.test(l)).length;
    const c = context.ops.filter((o) => o.op === "c")[done];
    return c ? `in create ${done + 1} ("${c.name}")` : null;
  },
  explain: {
    segv: "a slot past the directory's end? candi_empty->eidx + count is at most exfat_dir_entries(ei)",
  },
};

export const topicGraders: TopicGraders = { "set-empty-hint": setEmptyHint, "free-cluster-discard": freeClusterDiscard };
