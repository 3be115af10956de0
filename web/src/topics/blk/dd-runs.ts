// A stream of mq-deadline runs (the lab's panel, a code step's grading): tracefs lines cut into
// runs at each run's settings line, and where each run's scheduler state starts, on a timeline
// that "Reset this step" can rewind.
import { undoRewinds } from "../../shared/event-table";
import { onDevice, parseBlkTrace, type BlkTrace } from "./blk-trace";
import { DD_FRESH, ddEndState, type DdStart } from "./dd-kernel";

/** A line a lab writes to trace_marker before each run, so a stream can be cut into runs, each with its tunables. */
export const RUN_MARK = /tracing_mark_write: fslab: iosched /;

/** tracefs lines cut before each RUN_MARK line: one run each (lines before the first mark make a run of their own). */
export function splitRuns(lines: string[]): string[][] {
  const runs: string[][] = [[]];
  for (const l of lines) {
    if (RUN_MARK.test(l) && runs[runs.length - 1].length) runs.push([]);
    runs[runs.length - 1].push(l);
  }
  return runs.filter((r) => r.length);
}

/** The runs of splitRuns() with mq-deadline dispatches in them, by index: the ones a panel shows. */
export function dispatchRuns(all: readonly string[][]): number[] {
  return all.flatMap((r, i) => (r.some((l) => l.includes(" dd_dispatch_request: ")) ? [i] : []));
}

/** A run's lines as a trace of the device mq-deadline dispatched on (other devices' block events are left out). */
export function ddRunTrace(lines: readonly string[]): BlkTrace {
  const t = parseBlkTrace(lines.join("\n"));
  const dev = t.requests.find((r) => r.dd)?.dev;
  return dev ? onDevice(t, dev) : t;
}

/**
 * A run whose settings line says `fresh=1`: mq-deadline was switched on just before it (a code
 * step's grading workload switches the scheduler to none and back), so it starts from dd_init's
 * state whatever ran before.
 */
export const FRESH_MARK = /tracing_mark_write: fslab: iosched .*\bfresh=1\b/;

/**
 * Where shown run `k` starts (shown: dispatchRuns(all); traces: their ddRunTrace()s, up to k):
 * the scheduler was switched on before the first run, and each later run starts where the one
 * before it on the same machine ended, not a run a reset undid (runsBefore), unless its settings
 * line says the scheduler was switched on afresh (FRESH_MARK). `before` lists the runs before it
 * on the same machine, by their index in `shown`.
 */
export function ddRunStart(all: readonly string[][], shown: readonly number[], traces: readonly BlkTrace[], k: number): { before: number[]; start: DdStart; fresh: boolean } {
  const live = liveLinesBefore(all, shown[k]);
  const before = [...live.keys()].map((i) => shown.indexOf(i)).filter((j) => j >= 0);
  if (all[shown[k]].some((l) => FRESH_MARK.test(l))) return { before, start: DD_FRESH, fresh: true };
  // a run a reset cut short (a command after the run's own, undone) carried only its kept part
  const start = before.reduce((s, j) => {
    const kept = live.get(shown[j])!;
    return ddEndState(kept.length === all[shown[j]].length ? traces[j] : ddRunTrace(kept), s);
  }, DD_FRESH);
  return { before, start, fresh: false };
}

/**
 * The lines of each run before run `k` still on the timeline of the machine that ran `k`, by
 * run, in order: a rewind line (REWIND_LINE: the machine was put back to a snapshot, "Reset this
 * step") undoes the lines before it, counting back over what earlier rewinds left.
 */
function liveLinesBefore(runs: readonly string[][], k: number): Map<number, string[]> {
  const live = undoRewinds(
    runs.slice(0, k).flatMap((lines, run) => lines.map((line) => ({ run, line }))),
    (x) => x.line,
  );
  const out = new Map<number, string[]>();
  for (const { run, line } of live) out.set(run, [...(out.get(run) ?? []), line]);
  return out;
}

/**
 * The runs before run `k` that the machine which ran `k` went through, in order: the runs whose
 * scheduler state it carried, wholly or in part (a run whose last lines a reset undid carried
 * the state of the part before them; one a reset undid wholly never reached it).
 */
export function runsBefore(runs: readonly string[][], k: number): number[] {
  return [...liveLinesBefore(runs, k).keys()];
}
