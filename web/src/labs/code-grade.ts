// A code step's grading round (lab-format.ts `code` blocks), the same for the page's
// "Compile and grade" and `fslab labs grade`:
//
//   1. record  the step's workload runs in the guest with the grader's events on, in a tracefs
//              instance of its own (the learner's live stream, if any, goes on undisturbed);
//              the trace comes back through /mnt/host
//   2. input   the topic's grader turns the trace into its replay program's input (shared/grade.ts)
//   3. build   the guest's tcc compiles the learner's file (where they keep it in the guest, so
//              the page's editor and an editor in the terminal edit one file) with the grader's
//              C files: the model's own, with a main that replays
//   4. judge   the program's output against the kernel's decisions, the first divergence with
//              what it was decided from
//
// Files travel through the 9p share, each under a name of its own: the guest caches what it
// read there, so a name is never reused for new content.
import type { CheckRun } from "../shared/machine";
import type { GraderSpec, CodeGrader, GradeVerdict } from "../shared/grade";
import type { TopicManifest } from "../shared/topic";
import type { CodeSpec } from "./code-block";
import type { LabStep } from "./lab-format";

/** What a grading round needs of the machine: the page's VmHandle and NodeVm both are one. */
export interface GradeMachine {
  check(script: string, timeoutSeconds: number): Promise<CheckRun>;
  readSharedFile(name: string): Promise<Uint8Array>;
  writeSharedFile(name: string, bytes: Uint8Array): Promise<void>;
}

/** One compiler message: in the learner's file (line set) or elsewhere (a link error). */
export interface CompileMessage {
  line: number | null;
  severity: "error" | "warning";
  message: string;
}

export type GradeResult =
  | { kind: "compile"; messages: CompileMessage[]; log: string }
  /** the learner's program crashed or ran past its time */
  | { kind: "crash"; message: string }
  /** not the learner's code: the workload, the trace or the machine */
  | { kind: "error"; message: string }
  | (GradeVerdict & { warnings: CompileMessage[]; moment?: { trace: string; stdout: string } });

/** What a step's `code` block says (lab-format.ts). */
export interface CodeStepSpec {
  /** where the learner's file lives in the guest, an absolute path */
  file: string;
  /** the shell the grading runs with tracing on */
  workload: string;
}

/** How long the workload may run, and the program over its trace (the guest is slow: generous). */
export const WORKLOAD_SECONDS = 180;
/** a replay takes well under a second: a function that has not returned in this long never will */
export const RUN_SECONDS = 8;
const COMPILE_SECONDS = 60;

const enc = new TextEncoder();
const dec = new TextDecoder();
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
let counter = 0;
const nonce = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/**
 * A file the guest reads once, through the share: the shell that moves it into place.
 * `ifMissing`: only where `to` is not there yet, and never over a file made meanwhile (mv -n);
 * the shell exits 7 when it was there.
 */
async function upload(vm: GradeMachine, text: string, to: string, opts: { ifMissing?: boolean } = {}): Promise<string> {
  const from = `/mnt/host/.fslab-grade-${nonce()}`;
  await vm.writeSharedFile(from.slice("/mnt/host/".length), enc.encode(text));
  const dir = `mkdir -p "$(dirname ${quote(to)})"`;
  if (!opts.ifMissing) return `${dir} && mv ${from} ${quote(to)}`;
  return `[ -e ${quote(to)} ] && { rm -f ${from}; exit 7; }\n${dir} && mv -n ${from} ${quote(to)} && rm -f ${from}`;
}

/** tcc's "FILE:LINE: error: ..." lines; a line number only for the learner's own file. */
export function compileMessages(log: string, file: string): CompileMessage[] {
  const out: CompileMessage[] = [];
  for (const l of log.split("\n")) {
    const m = l.match(/^(.*?):(\d+): (error|warning): (.*)$/);
    if (m) out.push({ line: m[1] === file ? Number(m[2]) : null, severity: m[3] as "error" | "warning", message: m[1] === file ? m[4] : `${m[1]}:${m[2]}: ${m[4]}` });
    else {
      const t = l.match(/^tcc: (error|warning): (.*)$/);
      if (t) out.push({ line: null, severity: t[1] as "error" | "warning", message: t[2] });
    }
  }
  return out;
}

/** The learner's file as the guest has it now (null: there is none yet). */
export async function readGuestFile(vm: GradeMachine, file: string): Promise<string | null> {
  const name = `.fslab-code-${nonce()}`;
  const r = await vm.check(`[ -f ${quote(file)} ] || exit 3\ncp ${quote(file)} /mnt/host/${name}`, 10);
  if (r.status === 3) return null;
  if (r.status !== 0) throw new Error(`reading ${file} in the guest: ${r.output.trim() || `exit ${r.status}`}`);
  const text = dec.decode(await vm.readSharedFile(name));
  await vm.check(`rm -f /mnt/host/${name}`, 10);
  return text;
}

/** Put text in the learner's file in the guest (the page's editor saving). */
export async function writeGuestFile(vm: GradeMachine, file: string, text: string): Promise<void> {
  const r = await vm.check(await upload(vm, text, file), 10);
  if (r.status !== 0) throw new Error(`writing ${file} in the guest: ${r.output.trim() || `exit ${r.status}`}`);
}

/**
 * Put text in the learner's file only if the guest has none (a code step opening): true if it
 * was written. One round in the guest, and mv -n, so a file the learner made in the terminal
 * meanwhile is never replaced (a check, then a write later, once lost their edit).
 */
export async function ensureGuestFile(vm: GradeMachine, file: string, text: string): Promise<boolean> {
  const r = await vm.check(await upload(vm, text, file, { ifMissing: true }), 10);
  if (r.status === 7) return false;
  if (r.status !== 0) throw new Error(`writing ${file} in the guest: ${r.output.trim() || `exit ${r.status}`}`);
  return true;
}

/** Step 1: the workload under the grader's events; the trace's text (also how a grader test's trace was recorded). */
export async function recordWorkload(vm: GradeMachine, grader: CodeGrader, workload: string): Promise<string | { error: string }> {
  const id = nonce();
  const traceName = `.fslab-grade-${id}.trace`;
  const events = grader.events.map(quote).join(" ");
  const script = [
    "T=/sys/kernel/tracing/instances/fslab-grade",
    "[ -d $T ] && rmdir $T",
    'mkdir $T || { echo "no tracefs instance for the grading run"; exit 3; }',
    "echo 4096 > $T/buffer_size_kb",
    `for e in ${events}; do`,
    "  sys=${e%%/*}; [ -d /sys/kernel/tracing/events/$sys ] || modprobe -q $sys 2>/dev/null",
    '  echo 1 > $T/events/$e/enable || { echo "no trace event $e"; rmdir $T; exit 3; }',
    "done",
    "mkdir -p /tmp/fslab-grade",
    `cat > /tmp/fslab-grade/workload.sh <<'FSLAB_WORKLOAD_END'\n${workload}\nFSLAB_WORKLOAD_END`,
    "echo 1 > $T/tracing_on",
    "FSLAB_TRACE=$T bash /tmp/fslab-grade/workload.sh > /tmp/fslab-grade/workload.log 2>&1; rc=$?",
    "echo 0 > $T/tracing_on",
    `cat $T/trace > /mnt/host/${traceName}`,
    "rmdir $T",
    '[ $rc = 0 ] || { echo "the workload failed (exit $rc):"; tail -n 20 /tmp/fslab-grade/workload.log; exit 4; }',
  ].join("\n");
  const r = await vm.check(script, WORKLOAD_SECONDS);
  if (r.status === "timeout") return { error: `the workload did not finish in ${WORKLOAD_SECONDS} s` };
  if (r.status !== 0) return { error: r.output.trim() || `the recording failed (exit ${r.status})` };
  const text = dec.decode(await vm.readSharedFile(traceName));
  await vm.check(`rm -f /mnt/host/${traceName}`, 10);
  return text;
}

/**
 * The workload's trace, kept between grades of one step: the learner's kernel decided once on
 * their workload, and each later grade replays that same run (a warm grade is the build and
 * the replay alone: the workload takes most of a round's time).
 */
export interface GradeTraceCache {
  trace?: string;
}

/**
 * One round: the learner's file (with `text` written to it first, when given: the page's
 * editor) built with the grader's C; then the workload recorded (or its recording taken from
 * `cache`), the build run over its trace, and judged.
 */
export async function gradeCode(vm: GradeMachine, grader: CodeGrader, step: CodeStepSpec, text?: string, cache: GradeTraceCache = {}): Promise<GradeResult> {
  if (text !== undefined) await writeGuestFile(vm, step.file, text);
  const id = nonce();
  const dir = `/tmp/fslab-grade/${id}`;
  const outName = `.fslab-grade-${id}.out`;
  try {
    // the build first: a compile error is said before the workload runs
    const moves: string[] = [];
    for (const [path, src] of Object.entries(grader.sources)) moves.push(await upload(vm, src, `${dir}/${path}`));
    const sources = Object.keys(grader.sources).filter((p) => p.endsWith(".c")).map(quote).join(" ");
    const build = [
      ...moves,
      `cd ${dir} || exit 5`,
      `[ -f ${quote(step.file)} ] || exit 6`,
      `tcc -Wall -Iinclude -o grade ${sources} ${quote(step.file)} > compile.log 2>&1 || { cat compile.log; exit 3; }`,
      "cat compile.log",
    ].join("\n");
    const b = await vm.check(build, COMPILE_SECONDS);
    const messages = compileMessages(b.output, step.file);
    if (b.status === 3) return { kind: "compile", messages, log: b.output.trim() };
    if (b.status === 6) return { kind: "error", message: `there is no ${step.file} in the guest to grade` };
    if (b.status === "timeout") return { kind: "crash", message: `the build did not finish in ${COMPILE_SECONDS} s` };
    if (b.status !== 0) return { kind: "error", message: `the grader's files did not reach the guest: ${b.output.trim() || `exit ${b.status}`}` };
    const trace = cache.trace ?? (await recordWorkload(vm, grader, step.workload));
    if (typeof trace !== "string") return { kind: "error", message: trace.error };
    let input;
    try {
      input = grader.input(trace);
    } catch (e) {
      return { kind: "error", message: `the workload's trace cannot be graded: ${e instanceof Error ? e.message : e}` };
    }
    cache.trace = trace;
    const run = [
      await upload(vm, input.stdin, `${dir}/input.txt`),
      `cd ${dir} || exit 5`,
      `timeout ${RUN_SECONDS} ./grade < input.txt > /mnt/host/${outName} 2> run.log; rc=$?`,
      "head -c 2000 run.log",
      "exit $rc",
    ].join("\n");
    const r = await vm.check(run, RUN_SECONDS + 10);
    const runLog = r.output;
    // where a replay that crashed or never returned had got to, from what it wrote before
    const where = async () => {
      if (!grader.reached) return "";
      const partial = await vm.readSharedFile(outName).then((b) => dec.decode(b), () => "");
      const at = grader.reached(input, partial);
      return at ? `, ${at}` : "";
    };
    if (r.status === "timeout" || r.status === 143 || r.status === 137 || r.status === 124)
      return { kind: "crash", message: `your function did not return: the replay ran past ${RUN_SECONDS} s${await where()} (a loop that never ends?)` };
    if (r.status === 5) return { kind: "error", message: `the build is gone from the guest: ${runLog.trim()}` };
    if (typeof r.status === "number" && r.status > 128) {
      const sig = r.status - 128;
      const segv = grader.explain?.segv ? ` (${grader.explain.segv})` : "";
      const name = { 4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE (a division by zero?)", 11: `SIGSEGV${segv}` }[sig] ?? `signal ${sig}`;
      return { kind: "crash", message: `the replay crashed with ${name}${await where()}${runLog.trim() ? `: ${runLog.trim()}` : ""}` };
    }
    if (r.status === 1)
      return { kind: "crash", message: `the replay stopped: ${runLog.trim() || "your function left a state the kernel's next event contradicts"}${grader.explain?.refused ? ` (${grader.explain.refused})` : ""}` };
    if (r.status !== 0) return { kind: "error", message: `the replay program failed (exit ${r.status}): ${runLog.trim()}` };
    const stdout = dec.decode(await vm.readSharedFile(outName));
    try {
      const v = grader.judge(input, stdout);
      // a divergence keeps what the topic's view of it is drawn from (not kept in the progress)
      return { ...v, warnings: messages.filter((m) => m.severity === "warning"), ...(v.kind === "diverge" ? { moment: { trace, stdout } } : {}) };
    } catch (e) {
      return { kind: "crash", message: `the replay's output cannot be judged: ${e instanceof Error ? e.message : e}` };
    }
  } finally {
    await vm.check(`rm -rf ${dir} /mnt/host/${outName}`, 10);
  }
}

/** The verdict as the lines `fslab labs grade` prints (the page shows the same). */
export function gradeLines(r: GradeResult, file: string): string[] {
  switch (r.kind) {
    case "compile":
      return r.messages.length ? r.messages.map((m) => (m.line !== null ? `${file}:${m.line}: ${m.severity}: ${m.message}` : `${m.severity}: ${m.message}`)) : [r.log];
    case "crash":
    case "error":
      return [r.message];
    case "agree":
      return [`agrees with your kernel in all ${r.decisions} decisions${r.notJudged ? ` (${r.notJudged} more not judged: the trace could not show what they were made from)` : ""}`];
    case "diverge":
      return [
        `decision ${r.at} of ${r.decisions}: your function chose otherwise (it agreed in ${r.agreed} of the ${r.judged} judged decisions)`,
        "made from:",
        ...r.inputs.map((l) => `  ${l}`),
        `the kernel: ${r.kernel}`,
        `yours:      ${r.yours}`,
      ];
  }
}

/** A step's code block with its workload and reference (parseLab holds a code step to having all three); null for other steps. */
export function codeStepOf(step: LabStep): { code: CodeSpec; workload: string; solution: string; line: number } | null {
  const code = step.blocks.find((b) => b.kind === "code");
  const workload = step.blocks.find((b) => b.kind === "workload");
  const solution = step.blocks.find((b) => b.kind === "solution");
  if (!code || code.kind !== "code" || !workload || !solution) return null;
  return { code: code.code, workload: workload.text, solution: solution.text + "\n", line: code.line };
}

/** A grade's divergence, for the topic's view of it: the step, the decision, the run, and the view's loader. */
export interface CodeMoment {
  step: number;
  at: number;
  trace: string;
  stdout: string;
  load: NonNullable<GraderSpec["moment"]>;
}

/** The topic's view of a divergence for the grader a code block names, if it has one. */
export function graderMoment(topics: readonly TopicManifest[], id: string): GraderSpec["moment"] {
  const [topicId, graderId] = id.split(".");
  return topics.find((t) => t.id === topicId)?.graders?.specs.find((g) => g.id === graderId)?.moment;
}

/** The grader a code block names, from the topics' manifests (`<topic>.<id>`). */
export async function loadGrader(topics: readonly TopicManifest[], id: string): Promise<CodeGrader> {
  const [topicId, graderId] = id.split(".");
  const topic = topics.find((t) => t.id === topicId);
  if (!topic?.graders) throw new Error(`no topic "${topicId}" with code graders`);
  const g = (await topic.graders.load())[graderId];
  if (!g) throw new Error(`${topicId}/grader.ts has no grader "${graderId}"`);
  return g;
}
