// The exfat-discard code step's grader (shared/grade.ts): the learner writes
// exfat_free_cluster_discard(), the decision Linux 6.15's __exfat_free_cluster() makes at each
// cluster of a FAT chain it frees (wasm/src/exfat/free_discard.c is the model's, the step's
// reference); the guest's tcc builds it with a small main (wasm/src/exfat/grade/discard_grade.c)
// that walks the chain the learner's kernel freed, and each discard request it makes is set
// against the kernel's exfat_discard records of that delete, in order.
//
// The chain comes from the same records: with batch_discard at 1 the kernel's requests are the
// chain's runs of consecutive clusters, in chain order, so the chain is their clusters one
// after another. The workload writes `fslab: exfat-free NAME` to the grading trace just before
// the delete, so the grader reads that delete's requests alone.
import exfatH from "../../../../wasm/src/exfat/include/fslab/exfat.h?raw";
import exfatDiscardH from "../../../../wasm/src/exfat/include/fslab/exfat_discard.h?raw";
import eventsH from "../../../../wasm/include/fslab/events.h?raw";
import topicEventsH from "../../../../wasm/src/exfat/include/fslab/exfat_events.h?raw";
import discardGradeC from "../../../../wasm/src/exfat/grade/discard_grade.c?raw";
import freeDiscardC from "../../../../wasm/src/exfat/free_discard.c?raw";
import { gradedTraceLines, type CodeGrader, type GradeInput, type GradeVerdict, type Mutant } from "../../shared/grade";
import { decodeEvent } from "../../shared/event-table";
import { traceEvents } from "./events";

export class DiscardTraceError extends Error {}

/** one discard request: its first cluster and how many */
export type Request = [clu: number, count: number];

export interface FreeContext {
  /** the file the workload deleted, as its mark names it */
  name: string;
  /** the kernel's requests for that delete, in order */
  kernel: Request[];
}

const MARK = /^fslab: exfat-free (\S+)$/;

/** The deleted file's name and the kernel's requests for it, from the grading trace's lines. */
export function freeRun(text: string): FreeContext {
  let name: string | null = null;
  let dev: string | null = null;
  const kernel: Request[] = [];
  for (const t of gradedTraceLines(text, (m) => new DiscardTraceError(m))) {
    if (t.event === "tracing_mark_write") {
      const m = t.body.match(MARK);
      if (!m) continue;
      if (name !== null) throw new DiscardTraceError("the workload marked two deletes (`fslab: exfat-free NAME`): it deletes one file");
      name = m[1];
      continue;
    }
    if (t.event !== "exfat_discard" || name === null) continue;
    const f = decodeEvent(traceEvents.exfat_discard, t.body);
    if (!f) throw new DiscardTraceError(`an exfat_discard line the grader cannot read: ${t.body}`);
    // the workload's own volume: the first request after the mark names it
    const d = t.body.match(/^dev (\d+,\d+)/)?.[1] ?? "";
    dev ??= d;
    if (d !== dev) continue;
    if (f.batched !== 1) throw new DiscardTraceError("the kernel freed the file one cluster at a time (batch_discard 0): the workload deletes it with batch_discard at 1");
    kernel.push([f.clu, f.count]);
  }
  if (name === null) throw new DiscardTraceError("the workload marked no delete (`fslab: exfat-free NAME` in $FSLAB_TRACE/trace_marker before the rm)");
  if (!kernel.length) throw new DiscardTraceError(`the delete of ${name} sent no discard: was the volume mounted with -o discard, and was ${name} on it?`);
  if (kernel.length < 2) throw new DiscardTraceError(`the delete of ${name} was one request: a file in one run (no FAT chain) is discarded whole, without the loop; write it in pieces`);
  return { name, kernel };
}

const clusters = ([clu, count]: Request) => (count === 1 ? `cluster ${clu}` : `clusters ${clu}-${clu + count - 1}`);
export const requestText = (r: Request) => `${clusters(r)} in one request (count ${r[1]})`;

function input(text: string): GradeInput<FreeContext> {
  const ctx = freeRun(text);
  const chain = ctx.kernel.flatMap(([clu, count]) => Array.from({ length: count }, (_, i) => clu + i));
  return { stdin: `fslab-exfat-discard 1 ${chain.length}\n${chain.join(" ")}\n`, context: ctx, decisions: ctx.kernel.length };
}

/** The replay's requests (discard_grade.c's lines). */
export function requestsOf(stdout: string): Request[] {
  const lines = stdout.trim() ? stdout.trim().split("\n") : [];
  return lines.map((l, i) => {
    const w = l.trim().split(/\s+/).map(Number);
    if (w.length !== 2 || !w.every((x) => Number.isInteger(x) && x >= 0)) throw new DiscardTraceError(`the replay's line ${i + 1} is not a first cluster and a count`);
    return [w[0], w[1]];
  });
}

/** What the replay walked, and the run of the divergent request, in words. */
export function chainBefore({ kernel }: FreeContext, at: number): string[] {
  const total = kernel.reduce((n, r) => n + r[1], 0);
  const runs = kernel.map(clusters);
  const shown = runs.length > 10 ? [...runs.slice(0, 4), `… ${runs.length - 8} runs …`, ...runs.slice(-4)] : runs;
  const r = kernel[at];
  const next = kernel[at + 1];
  return [
    `request ${at + 1} of ${kernel.length}: the run ${clusters(r)}, after which the chain goes on ${next ? `to cluster ${next[0]}, not ${r[0] + r[1]}` : "to its end (EXFAT_EOF_CLUSTER)"}`,
    `the chain: ${total} clusters in ${kernel.length} runs of consecutive clusters: ${shown.join(", ")}`,
    `your function was called for each cluster of this run in turn, ${at ? `after the ${at} run${at === 1 ? "" : "s"} before it` : "the chain's first run"}`,
  ];
}

function judge({ context }: GradeInput<FreeContext>, stdout: string): GradeVerdict {
  const { kernel } = context;
  const yours = requestsOf(stdout);
  const same = (a?: Request, b?: Request) => !!a && !!b && a[0] === b[0] && a[1] === b[1];
  const agreed = kernel.filter((r, i) => same(r, yours[i])).length;
  let first = kernel.findIndex((r, i) => !same(r, yours[i]));
  // every request the kernel's, and one more of the learner's after them: the last decision parts
  const extra = first < 0 && yours.length > kernel.length;
  if (first < 0 && !extra) return { kind: "agree", decisions: kernel.length, notJudged: 0 };
  if (extra) first = kernel.length - 1;
  return {
    kind: "diverge",
    decisions: kernel.length,
    notJudged: 0,
    at: first + 1,
    agreed: extra ? agreed - 1 : agreed,
    judged: kernel.length,
    inputs: chainBefore(context, first),
    kernel: extra ? `${requestText(kernel[first])}, and no request after it` : requestText(kernel[first]),
    yours: extra
      ? `${requestText(yours[first])}, then ${requestText(yours[first + 1])}`
      : yours[first]
        ? requestText(yours[first])
        : `no request${yours.length ? ` (yours made ${yours.length}, the kernel ${kernel.length})` : " at all"}`,
  };
}

/** six mistakes a learner could make in exfat_free_cluster_discard(), each caught at a numbered request */
const MUTANTS: readonly Mutant[] = [
  { name: "an off-by-one: the request starts a cluster before its run", from: "clu - *nr_clu + 1", to: "clu - *nr_clu" },
  { name: "a missing reset: the next run's count goes on from this one's", from: "\t\t*nr_clu = 1;\n", to: "" },
  { name: "a wrong constant: a new run starts at 0 clusters", from: "*nr_clu = 1;", to: "*nr_clu = 0;" },
  { name: "a flipped comparison: the run grows where the chain jumps", from: "n_clu == clu + 1", to: "n_clu != clu + 1" },
  { name: "the wrong neighbour: the chain's next cluster compared with this one", from: "n_clu == clu + 1", to: "n_clu == clu" },
  { name: "a comparison that lets the run go on where the chain goes back", from: "n_clu == clu + 1", to: "n_clu <= clu + 1" },
];

export const freeClusterDiscard: CodeGrader<FreeContext> = {
  events: ["exfat/exfat_discard"],
  mutants: MUTANTS,
  sources: {
    "include/fslab/exfat.h": exfatH,
    "include/fslab/exfat_discard.h": exfatDiscardH,
    "include/fslab/events.h": eventsH,
    "include/fslab/exfat_events.h": topicEventsH,
    "discard_grade.c": discardGradeC,
  },
  file: "free_discard.c",
  reference: freeDiscardC,
  input,
  judge,
  // discard_grade.c writes each request as it is made: a crash is in the run after the last
  reached({ context }, partial) {
    const done = partial.split("\n").filter((l) => /^\d/.test(l)).length;
    const r = context.kernel[done];
    return r ? `in the run of request ${done + 1} (${clusters(r)})` : null;
  },
  explain: {
    segv: "nr_clu is a pointer: the count is *nr_clu",
  },
};
