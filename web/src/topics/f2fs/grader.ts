// The f2fs-clue code step's grader (shared/grade.ts): the learner writes scan_free_nid_bits()
// (wasm/src/f2fs/nid_scan.c is the model's, the step's reference), the guest's tcc builds it
// with the model's own nid.c and events.c and a small main (wasm/src/f2fs/grade/nid_grade.c),
// and the learner's kernel's run is replayed through it: the free-NID scans the replay makes
// against the kernel's f2fs_free_nid_scan records, record by record, as the lab's view
// compares them (a bitmap scan that found nothing, repeated, counts once: the kernel's sync
// calls the background build 3 or 4 times, the model 3).
//
// The trace alone does not say what ran: the step's workload writes each operation to the
// grading trace first (`fslab: f2fs-nid mount size=256M`, then `alloc N`, `sync`, `unlink-all`
// and `shrink`), so the replay runs the operations the kernel ran, in its order.
import f2fsH from "../../../../wasm/src/f2fs/include/fslab/f2fs.h?raw";
import eventsH from "../../../../wasm/include/fslab/events.h?raw";
import topicEventsH from "../../../../wasm/src/f2fs/include/fslab/f2fs_events.h?raw";
import errnoH from "../../../../wasm/include/fslab/errno.h?raw";
import nidH from "../../../../wasm/src/f2fs/include/fslab/f2fs_nid.h?raw";
import nidScanH from "../../../../wasm/src/f2fs/include/fslab/f2fs_nid_scan.h?raw";
import nidC from "../../../../wasm/src/f2fs/nid.c?raw";
import eventsC from "../../../../wasm/src/common/events.c?raw";
import nidGradeC from "../../../../wasm/src/f2fs/grade/nid_grade.c?raw";
import nidScanC from "../../../../wasm/src/f2fs/nid_scan.c?raw";
import { gradedTraceLines, type CodeGrader, type GradeInput, type GradeVerdict, type TopicGraders, type Mutant } from "../../shared/grade";
import { recordsOf } from "../../shared/event-table";
import { nidScansOf, NidScanPhase, traceEvents, type NidScan } from "./events";
import { GUEST_NAT_BLOCKS, NAT_ENTRY_PER_BLOCK, nidOpWords, type NidOp } from "./nid";

export class NidTraceError extends Error {}

/** one scan and the operation it came in (0: the mount) */
export interface OpScan {
  op: number;
  scan: NidScan;
}

interface NidContext {
  clue: number;
  ops: NidOp[];
  /** what each op's marker said, for the divergence's lines */
  said: string[];
  kernel: OpScan[];
}

const MARK = /^fslab: f2fs-nid (mount size=(\d+)M clue=(\d)|alloc (\d+)|sync|unlink-all|shrink)$/;

/** A bitmap scan that found nothing, repeated with the same record, counts once (the view's collapseRepeats). */
export function collapse(list: OpScan[]): OpScan[] {
  const out: OpScan[] = [];
  for (const s of list) {
    const last = out.at(-1)?.scan;
    if (last && s.scan.phase === NidScanPhase.Bitmap && s.scan.found === 0 && JSON.stringify(last) === JSON.stringify(s.scan)) continue;
    out.push(s);
  }
  return out;
}

/** The operations and the kernel's scans (on the workload's volume), from the grading trace's lines. */
export function nidRunOf(text: string): NidContext {
  let clue = -1;
  let dev: string | null = null;
  const ops: NidOp[] = [];
  const said: string[] = [];
  const kernel: OpScan[] = [];
  for (const t of gradedTraceLines(text, (m) => new NidTraceError(m))) {
    if (t.event === "tracing_mark_write") {
      const m = t.body.match(MARK);
      if (!m) continue;
      if (m[2]) {
        if (Number(m[2]) !== 256) throw new NidTraceError(`the workload's volume is ${m[2]} MiB: the replay knows the NAT of a 256 MiB one (${GUEST_NAT_BLOCKS} blocks)`);
        clue = Number(m[3]);
        continue;
      }
      if (clue < 0) throw new NidTraceError("an operation marked before `fslab: f2fs-nid mount size=256M clue=N`");
      said.push(m[1]);
      ops.push(m[4] ? { op: "alloc", n: Number(m[4]) } : m[1] === "sync" ? { op: "sync" } : m[1] === "shrink" ? { op: "shrink" } : { op: "unlink", nid: 0, count: GUEST_NAT_BLOCKS * NAT_ENTRY_PER_BLOCK });
      continue;
    }
    if (t.event !== "f2fs_free_nid_scan" || clue < 0) continue;
    const d = t.body.match(/^dev = \((\d+),(\d+)\)/);
    const words = recordsOf(traceEvents, t);
    if (!d || !words?.length) throw new NidTraceError(`an f2fs_free_nid_scan line the grader cannot read: ${t.body}`);
    // the workload's volume is the one the first scan after its mount came from (its mount's);
    // a learner's own F2FS volume may scan too, when the workload's sync writes it back
    dev ??= `${d[1]},${d[2]}`;
    if (`${d[1]},${d[2]}` !== dev) continue;
    for (const scan of nidScansOf(Uint32Array.from(words))) kernel.push({ op: ops.length, scan });
  }
  if (clue < 0) throw new NidTraceError("the workload wrote no `fslab: f2fs-nid mount size=256M clue=N` line to $FSLAB_TRACE/trace_marker");
  if (!ops.length) throw new NidTraceError("the workload marked no operation (`fslab: f2fs-nid alloc N`, `sync`, ...)");
  if (!kernel.length || kernel[0].op !== 0 || kernel[0].scan.phase !== NidScanPhase.Nat)
    throw new NidTraceError("the trace does not start with the mount's NAT entry scan: was the tracing on before the volume was mounted?");
  return { clue, ops, said, kernel };
}

function input(text: string): GradeInput<NidContext> {
  const ctx = nidRunOf(text);
  const words = nidOpWords(ctx.ops);
  const lines = [`fslab-f2fs-nid 1 ${GUEST_NAT_BLOCKS} ${ctx.clue} ${ctx.ops.length}`];
  for (let i = 0; i < words.length; i += 3) lines.push(words.slice(i, i + 3).join(" "));
  return { stdin: lines.join("\n") + "\n", context: ctx, decisions: collapse(ctx.kernel).length };
}

const PHASE: Record<number, string> = { [NidScanPhase.Bitmap]: "bitmap scan", [NidScanPhase.Nat]: "NAT entry scan", [NidScanPhase.Deferred]: "NAT scan deferred" };
const scanText = (s: NidScan | undefined) =>
  !s ? "no scan" : `${PHASE[s.phase] ?? `phase ${s.phase}`} from NID ${s.start} to ${s.end}: ${s.scanned} entries walked, ${s.found} NIDs listed, ${s.blocks} blocks`;

/** nid_grade.c's output: the replay's scans, each with its operation, and the state each operation began from. */
export function replayScans(stdout: string): { scans: OpScan[]; state: Map<number, string>; ops: number } {
  const yours: OpScan[] = [];
  const state = new Map<number, string>();
  let op = 0;
  const words: number[] = [];
  const flush = () => {
    for (const scan of nidScansOf(Uint32Array.from(words))) yours.push({ op, scan });
    words.length = 0;
  };
  for (const l of stdout.trim().split("\n")) {
    const w = l.trim().split(/\s+/);
    if (w[0] === "op" && w.length >= 4) {
      flush();
      op = Number(w[1]);
      state.set(op, `${w[2]} NIDs listed, next_bitmap_blk ${w[3]}; loaded NAT blocks (free NIDs in each): ${w.slice(4).join(" ") || "none"}`);
    } else if (w[0] === "ev" && w.length === 5 && w.slice(1).every((x) => /^\d+$/.test(x))) words.push(...w.slice(1).map(Number));
    else if (l.trim()) throw new NidTraceError(`the replay's line "${l.trim().slice(0, 60)}" is neither an operation nor a record`);
  }
  flush();
  return { scans: yours, state, ops: op };
}

function judge({ context }: GradeInput<NidContext>, stdout: string): GradeVerdict {
  const { scans: yours, state, ops: op } = replayScans(stdout);
  if (op !== context.ops.length) throw new NidTraceError(`the replay ran ${op} of the trace's ${context.ops.length} operations`);
  const kernel = collapse(context.kernel);
  const mine = collapse(yours);
  const same = (a?: OpScan, b?: OpScan) => !!a && !!b && a.op === b.op && JSON.stringify(a.scan) === JSON.stringify(b.scan);
  const first = kernel.findIndex((k, i) => !same(k, mine[i]));
  const extra = first < 0 && mine.length > kernel.length;
  if (first < 0 && !extra) return { kind: "agree", decisions: kernel.length, notJudged: 0 };
  const at = first < 0 ? kernel.length : first;
  const k = kernel[at] ?? mine[at];
  const opText = (o: number) => (o === 0 ? "the mount" : `operation ${o} (${context.said[o - 1]})`);
  return {
    kind: "diverge",
    decisions: kernel.length,
    notJudged: 0,
    at: at + 1,
    agreed: kernel.filter((x, i) => same(x, mine[i])).length,
    judged: kernel.length,
    inputs: [
      `scan ${at + 1}, in ${opText(k.op)}; the clue mask ${context.clue}`,
      ...(k.op > 0 && state.has(k.op) ? [`as that operation began: ${state.get(k.op)}`] : []),
    ],
    kernel: kernel[at] ? `${scanText(kernel[at].scan)} (in ${opText(kernel[at].op)})` : "no further scan",
    yours: mine[at] ? `${scanText(mine[at].scan)} (in ${opText(mine[at].op)})` : "no scan there",
  };
}

/** five mistakes a learner could make in scan_free_nid_bits(), each caught at a named scan */
const MUTANTS: readonly Mutant[] = [
  { name: "a flipped comparison: the last walk's stop taken only when it is past the volume", from: "nm->next_bitmap_blk < nm->nat_blocks", to: "nm->next_bitmap_blk >= nm->nat_blocks" },
  { name: "an off-by-one: the walk starts one block after the last one stopped", from: "first = nm->next_bitmap_blk;", to: "first = nm->next_bitmap_blk + 1;" },
  { name: "a missing reset: the walk goes on past the last block instead of going round to block 0", from: "(i + 1 == nm->nat_blocks) ? 0 : i + 1", to: "(i + 1 == nm->nat_blocks) ? i : i + 1" },
  { name: "a wrong constant: the list filled to one NAT block's worth", from: ">= MAX_FREE_NIDS", to: ">= NAT_ENTRY_PER_BLOCK" },
  { name: "swapped branches: the heuristic off when its bit is set", from: "(clue & F2FS_CLUE_HEURISTIC) &&", to: "!(clue & F2FS_CLUE_HEURISTIC) &&" },
];

export const scanFreeNidBits: CodeGrader<NidContext> = {
  events: ["f2fs/f2fs_free_nid_scan"],
  mutants: MUTANTS,
  sources: {
    "include/fslab/f2fs.h": f2fsH,
    "include/fslab/events.h": eventsH,
    "include/fslab/f2fs_events.h": topicEventsH,
    "include/fslab/errno.h": errnoH,
    "include/fslab/f2fs_nid.h": nidH,
    "include/fslab/f2fs_nid_scan.h": nidScanH,
    "nid.c": nidC,
    "events.c": eventsC,
    "nid_grade.c": nidGradeC,
  },
  file: "nid_scan.c",
  reference: nidScanC,
  input,
  judge,
  // nid_grade.c writes each operation's line as it begins it: a crash is in the last one begun
  reached({ context }, partial) {
    const ops = partial.split("\n").filter((l) => l.startsWith("op "));
    const k = Number(ops.at(-1)?.split(" ")[1] ?? NaN);
    return k >= 1 && k <= context.said.length ? `in operation ${k} (${context.said[k - 1]})` : null;
  },
  explain: {
    segv: "a NAT block index past nm->nat_blocks? the walk goes round from the last block to block 0",
    refused: "an operation the model refused after your walk: a NID listed twice?",
  },
};

export const topicGraders: TopicGraders = { "scan-free-nid-bits": scanFreeNidBits };
