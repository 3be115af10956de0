// The mq-deadline code step's grader (shared/grade.ts): the learner writes
// __dd_dispatch_request() (wasm/src/blk/dd_dispatch.c is the model's, the step's reference),
// the guest's tcc builds it with the model's own mq_deadline.c and dd_replay.c and a small
// main (wasm/src/blk/grade/dd_grade.c), and the learner's kernel's trace of the step's workload
// is replayed through it: at each of the kernel's decisions their function decides from the
// kernel's lists, and is judged like the model is in the lab's view (ddVerdicts()).
import blkH from "../../../../wasm/src/blk/include/fslab/blk.h?raw";
import ddDispatchH from "../../../../wasm/src/blk/include/fslab/dd_dispatch.h?raw";
import eventsH from "../../../../wasm/include/fslab/events.h?raw";
import mqDeadlineC from "../../../../wasm/src/blk/mq_deadline.c?raw";
import ddReplayC from "../../../../wasm/src/blk/dd_replay.c?raw";
import ddGradeC from "../../../../wasm/src/blk/grade/dd_grade.c?raw";
import ddDispatchC from "../../../../wasm/src/blk/dd_dispatch.c?raw";
import type { CodeGrader, GradeInput, GradeVerdict, TopicGraders, Mutant } from "../../shared/grade";
import { BlkTraceError } from "./blk-trace";
import { ddChoiceLine, ddDecisionInputs, ddReplayWords, ddVerdicts, traceTunables, type DdReplayWords } from "./dd-kernel";
import { ddRunTrace } from "./dd-runs";
import { GUEST_HZ } from "./trace-replay";
import type { BlkTrace } from "./blk-trace";

/** what fslab-trace records for a replay of mq-deadline (its MQ_DEADLINE list) */
const EVENTS = [
  "block/block_rq_insert", "block/block_rq_issue", "block/block_rq_complete", "block/block_rq_merge",
  "block/block_rq_requeue", "mq_deadline/dd_dispatch_request", "mq_deadline/dd_dispatch_none",
];

interface DdContext {
  trace: BlkTrace;
  words: DdReplayWords;
}

/** The recording as dd_replay()'s words: the scheduler was switched on for the workload (DD_FRESH). */
function input(text: string): GradeInput<DdContext> {
  const trace = ddRunTrace(text.split("\n"));
  if (trace.lost) throw new BlkTraceError(`the trace lost ${trace.lost} events (its ring buffer overran): a shorter workload, or a larger buffer`);
  if (!trace.sched.some((e) => e.kind === "dispatch"))
    throw new BlkTraceError("the workload's run has no mq-deadline dispatch in the trace: does it run on a disk scheduled by mq-deadline?");
  if (!Object.keys(trace.iosched).length)
    throw new BlkTraceError("the workload wrote no `fslab: iosched ...` line to $FSLAB_TRACE/trace_marker: the replay needs the run's tunables");
  const words = ddReplayWords(trace, traceTunables(trace), GUEST_HZ);
  const stdin = [`fslab-dd-replay 1 ${GUEST_HZ}`, words.tun.join(" "), words.start.join(" "), String(words.rq.length / 4), words.rq.join(" "), String(words.ev.length / 4)];
  for (let i = 0; i < words.ev.length; i += 4) stdin.push(words.ev.slice(i, i + 4).join(" "));
  return { stdin: stdin.join("\n") + "\n", context: { trace, words }, decisions: words.kernel.length };
}

function judge({ context: { trace, words } }: GradeInput<DdContext>, stdout: string): GradeVerdict {
  const lines = stdout.trim().split("\n");
  const n = Number(lines[0]?.match(/^decisions (\d+)$/)?.[1] ?? NaN);
  if (n !== words.kernel.length) throw new BlkTraceError(`the replay reported ${Number.isNaN(n) ? "no decisions" : `${n} decisions`} of the trace's ${words.kernel.length}`);
  const out = lines.slice(1, n + 1).flatMap((l) => l.trim().split(/\s+/).map(Number));
  if (out.length !== 5 * n || out.some((x) => !Number.isInteger(x) || x < 0 || x > 0xffffffff)) throw new BlkTraceError("the replay's output is not five numbers per decision");
  const r = ddVerdicts(trace, words.kernel, out);
  const notJudged = r.verdicts.length - r.judged;
  const first = r.verdicts.findIndex((v) => v.judged && !v.sameReasons);
  if (first < 0) return { kind: "agree", decisions: r.judged, notJudged };
  const v = r.verdicts[first];
  return {
    kind: "diverge",
    decisions: r.verdicts.length,
    notJudged,
    at: first + 1,
    agreed: r.sameReasons,
    judged: r.judged,
    inputs: ddDecisionInputs(trace, first),
    kernel: ddChoiceLine(trace, v.kernel),
    yours: ddChoiceLine(trace, v.model),
  };
}

/** five mistakes a learner could make, each caught at a named decision (labs test grades them in the guest, grader.test.ts natively) */
const MUTANTS: readonly Mutant[] = [
  { name: "a flipped comparison: a batch goes on past fifo_batch", from: "dd->batching < dd->fifo_batch", to: "dd->batching > dd->fifo_batch" },
  { name: "an off-by-one: writes are forced one read earlier", from: "dd->starved++ >= dd->writes_starved", to: "++dd->starved >= dd->writes_starved" },
  { name: "a missing reset: a write batch leaves starved counting", from: "\t\tdd->starved = 0;\n", to: "" },
  { name: "a wrong constant: a new batch starts counted as one request in", from: "\tdd->batching = 0;\n", to: "\tdd->batching = 1;\n" },
  { name: "swapped branches: the oldest request taken when its deadline has not passed", from: "if (time_after_eq(now, r[pp->fifo_head[dir]].fifo_time) || next == BLK_NIL)", to: "if (!time_after_eq(now, r[pp->fifo_head[dir]].fifo_time) || next == BLK_NIL)" },
];

export const ddDispatch: CodeGrader<DdContext> = {
  events: EVENTS,
  mutants: MUTANTS,
  sources: {
    "include/fslab/blk.h": blkH,
    "include/fslab/dd_dispatch.h": ddDispatchH,
    "include/fslab/events.h": eventsH,
    "mq_deadline.c": mqDeadlineC,
    "dd_replay.c": ddReplayC,
    "dd_grade.c": ddGradeC,
  },
  file: "dd_dispatch.c",
  reference: ddDispatchC,
  input,
  judge,
  // dd_grade.c writes "reached <k>" when it dies: the decisions made before the one it died in
  reached({ context: { words } }, partial) {
    const m = partial.match(/^reached (\d+)$/m);
    return m ? `in decision ${Number(m[1]) + 1} of ${words.kernel.length}` : null;
  },
  explain: {
    segv: "a request index that is BLK_NIL, or past the array?",
    refused: "does your function take the request it returns off the lists, as deadline_move_request() does?",
  },
};

export const topicGraders: TopicGraders = { "dd-dispatch": ddDispatch };
