// mq-deadline in the kernel, decision by decision: a trace with our kernel's
// mq_deadline:dd_dispatch_request events (recorded, or the learner's own file) drawn in the same
// DeadlineQueues view as the model's steps, the lists rebuilt from the block events; at each
// dispatch the model decides from the same lists (in the blk worker) and differences are marked.
// KernelDeadlineLive does the same for a lab's live stream from the guest.
import { useEffect, useMemo, useRef, useState } from "react";
import { blkClient, type BlkClient } from "./blk-client";
import { useWorker } from "../../shared/useWorker";
import type { BlkTrace } from "./blk-trace";
import { DD_FRESH, isWrite, kernelDdTimeline, rqName, runLimits, traceTunables, type DdChoice, type DdReplay } from "./dd-kernel";
import { ddRunStart, ddRunTrace, dispatchRuns, splitRuns } from "./dd-runs";
import type { DdTimeline } from "./blk-core";
import { fetchBytes } from "../../shared/gunzip";
import { useTraceFile } from "./useTraceFile";
import { DeadlineQueues } from "./DeadlineQueues";
import { useVerdict, type Verdict } from "../../shared/verdict";

/** A request as the panel names it (DeadlineQueues: R36, W12), when the trace is at hand. */
export type RequestName = (rq: number) => string;
const requestName = (trace: BlkTrace): RequestName => (rq) => rqName(!!trace.requests[rq] && isWrite(trace.requests[rq].op), rq);

const choiceText = (c: DdChoice, name: RequestName) =>
  c.rq === null ? "nothing" : `request ${name(c.rq)} (because ${c.because}, pick ${c.pick}; batching ${c.batching}, starved ${c.starved} after)`;

/**
 * The newest run's verdict: the model agrees with the kernel when it made every judged decision
 * for the same reasons; else the first decision where the two parted, as the learner reads it
 * (its requests named as the panel names them).
 */
export function ddRunVerdict(runs: number, replay: DdReplay | null, name: RequestName = (rq) => String(rq), run?: { fifoBatch: number; deadlineDecided: readonly boolean[] }): Verdict {
  if (!runs) return { state: "waiting", detail: "no run of mq-deadline in the trace yet" };
  if (!replay) return { state: "waiting", detail: "the model is still deciding the newest run" };
  const k = replay.verdicts.findIndex((v) => v.judged && !v.sameReasons);
  if (k >= 0) {
    const v = replay.verdicts[k];
    return { state: "disagree", detail: `decision ${k + 1} of ${replay.verdicts.length}: the kernel dispatched ${choiceText(v.kernel, name)}, the model ${choiceText(v.model, name)}` };
  }
  if (!replay.judged) return { state: "waiting", detail: "no decision of the newest run could be judged yet" };
  // agreement says something only of the rules the run took to their limits: a kernel that broke
  // one the run never needed agrees all the same (a read-only run never starves writes; under a
  // fifo_batch no batch reaches, no batch ends for its length; with every deadline passed, or
  // none, it does not matter which request's is checked: run.deadlineDecided marks the batches
  // begun with the FIFO's oldest request past its deadline and its newest not)
  const judged = replay.verdicts.filter((v) => v.judged).map((v) => v.kernel);
  const unused = [
    !judged.some((k) => k.because === "batch") && "no batch that went on (because=batch)",
    run && !judged.some((k) => k.batching >= run.fifoBatch) && `no batch that ran to fifo_batch (${run.fifoBatch} requests)`,
    !judged.some((k) => k.because === "starved") && "no write forced after starving (because=starved)",
    !judged.some((k) => k.pick === "expired") && "no request taken for its expired deadline (pick=expired)",
    !judged.some((k) => k.because !== "batch" && k.pick === "sorted") && "no batch begun in sector order while its FIFO's oldest request had time left (pick=sorted)",
    run && !run.deadlineDecided.some((d, k) => d && replay.verdicts[k]?.judged) && "no batch begun while its FIFO's oldest request had passed its deadline and its newest had not (where the deadline check decides)",
  ].filter((x): x is string => !!x);
  if (unused.length)
    return { state: "waiting", detail: `the model made all ${replay.judged} judged decisions of the newest run as the kernel did, but the run had ${unused.join(", ")}: a rule it did not use is not tried` };
  return { state: "agree", detail: `the model made all ${replay.judged} judged decisions of the newest run as the kernel did, batches, forced writes and expired deadlines among them` };
}

/**
 * A run in one line, the panel's only count: the kernel's dispatches, how often writes were
 * forced and reads taken for an expired deadline, and how many decisions the model made the
 * same way. The lists rebuilt from the block events are named only where they fall short.
 */
function RunSummary({ label, trace: t, timeline, replay }: { label: string; trace: BlkTrace; timeline: DdTimeline & { lengthsAgree: number; headDispatches: number }; replay: DdReplay | null }) {
  let forced = 0;
  let expired = 0;
  for (const e of t.sched) {
    const d = e.kind === "dispatch" ? e.dd : undefined;
    if (!d) continue;
    if (d.because === "starved") forced++;
    if (d.pick === "expired" && !isWrite(t.requests[e.rq].op)) expired++;
  }
  const short = timeline.steps - timeline.lengthsAgree;
  return (
    <p
      data-testid="kernel-dd-summary"
      data-dispatches={timeline.steps}
      data-lists-agree={timeline.lengthsAgree}
      data-forced={forced}
      data-expired={expired}
      data-same={replay?.sameReasons ?? ""}
      data-judged={replay?.judged ?? ""}
      data-unjudged={replay ? replay.verdicts.length - replay.judged : ""}
    >
      {label}, in one line: {timeline.steps} dispatches on device {t.devices[0]}
      {timeline.headDispatches > 0 && ` (and ${timeline.headDispatches} requests served first from the at-head list: requeues, at-head inserts)`}; writes forced{" "}
      {forced} times; {expired} reads taken because their deadline had passed;{" "}
      {replay ? `the model made ${replay.sameReasons} of the kernel's ${replay.judged} decisions for the same reasons` : "the model still deciding"}
      {short > 0 &&
        `; at ${short} decisions the lists rebuilt from the block events are not as long as the kernel said its own were, so those are not judged`}
      {t.lost ? <span className="error">; {t.lost} events lost by the ring buffer</span> : null}.
    </p>
  );
}

const RECORDED = new URL("./traces/blk-nullb-dd.trace.gz", import.meta.url).href;

export function KernelDeadline({ client }: { client: BlkClient | null }) {
  // the timeline first: it says what is missing (no dd_dispatch_request events) before the worker is asked
  const { loaded, error, busy, load, onFile } = useTraceFile(async (t) => {
    const timeline = kernelDdTimeline(t);
    return { timeline, replay: await client!.decisions(t) };
  });
  const trace = loaded?.result ? loaded : null;
  const timeline = trace?.result?.timeline ?? null;
  const replay = trace?.result?.replay ?? null;

  return (
    <div className="kernel-deadline" data-testid="kernel-deadline">
      <div className="toolbar">
        <button disabled={!client || busy} onClick={() => load("null_blk, two readers and a writer", () => fetchBytes(RECORDED))}>
          recorded: null_blk, two readers and a writer
        </button>
        <label>
          or your own (tracefs text with dd_dispatch_request){" "}
          <input type="file" aria-label="an mq-deadline trace file" disabled={!client || busy} onChange={onFile} />
        </label>
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {trace && timeline && <RunSummary label={trace.name} trace={trace.trace} timeline={timeline} replay={replay} />}
      {timeline && <DeadlineQueues key={trace!.name} timeline={timeline} replay={replay ?? undefined} />}
    </div>
  );
}

/**
 * The same, live: the lab's stream of tracefs lines (fslab-trace), cut into runs at each
 * "fslab: iosched ..." mark the lab writes before a run; the newest run followed as it grows,
 * the model's verdicts recomputed (in the worker) once the stream pauses for a moment.
 */
/** The value, at most once per `ms` while it keeps changing (and its last value when it stops). */
function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = last.current + ms - performance.now();
    const t = setTimeout(() => {
      last.current = performance.now();
      setShown(value);
    }, Math.max(0, wait));
    return () => clearTimeout(t);
  }, [value, ms]);
  return shown;
}

/** `lines` grows in place (LabPage's LiveBuffer); `version` says when. */
export function KernelDeadlineLive({ lines: streaming, version, onVerdict }: { lines: readonly string[]; version: number; onVerdict?: (v: Verdict) => void }) {
  // a long load streams thousands of lines a second; each update re-reads the run, so at most 4 a second
  const shownVersion = useThrottled(version, 250);
  const lines = useMemo(() => streaming.slice(), [streaming, shownVersion]); // eslint-disable-line react-hooks/exhaustive-deps
  const { client } = useWorker(blkClient);
  // every run, and the ones with dispatches to show (a run without one still counts for what a
  // reset undid: runsBefore)
  const all = useMemo(() => splitRuns(lines), [lines]);
  const shownRuns = useMemo(() => dispatchRuns(all), [all]);
  const runs = useMemo(() => shownRuns.map((i) => all[i]), [all, shownRuns]);
  const [chosen, setChosen] = useState<number | null>(null); // null: the newest
  const [follow, setFollow] = useState(true);
  const run = chosen ?? runs.length - 1;
  // runs already parsed, by their first line (its timestamp) and length: only the growing run is read again
  const parsedRuns = useRef(new Map<string, BlkTrace>());
  const parsed = useMemo(() => {
    if (run < 0) return null;
    try {
      // each run on the device mq-deadline dispatched on (other devices' block events are left out)
      const seen = new Map<string, BlkTrace>();
      const traces = runs.slice(0, run + 1).map((lines) => {
        const key = `${lines.length}:${lines[0]}`;
        const t = parsedRuns.current.get(key) ?? ddRunTrace(lines);
        seen.set(key, t);
        return t;
      });
      parsedRuns.current = seen;
      const trace = traces[run];
      const { before, start, fresh } = ddRunStart(all, shownRuns, traces, run);
      const undone = Array.from({ length: run }, (_, j) => j).filter((j) => !before.includes(j));
      return { trace, start, before, undone, fresh, timeline: kernelDdTimeline(trace), error: null };
    } catch (e) {
      return { trace: null, start: DD_FRESH, before: [] as number[], undone: [] as number[], fresh: false, timeline: null, error: e instanceof Error ? e.message : String(e) };
    }
  }, [all, shownRuns, runs, run]);
  const [replay, setReplay] = useState<{ run: number; steps: number; replay: DdReplay } | null>(null);
  useEffect(() => {
    const trace = parsed?.trace;
    const steps = parsed?.timeline?.steps ?? 0;
    if (!trace || !client || (replay && replay.run === run && replay.steps === steps)) return;
    const t = setTimeout(() => {
      client.decisions(trace, parsed!.start).then((r) => setReplay({ run, steps, replay: r }), () => {});
    }, 400);
    return () => clearTimeout(t);
  }, [parsed, client]);

  // what a step's `expect: - verdict: mq-deadline` reads: the newest run, judged whole
  const newest = replay && replay.run === runs.length - 1 && run === runs.length - 1 ? replay.replay : null;
  const limits = useMemo(() => (parsed?.trace ? runLimits(parsed.trace) : undefined), [parsed]);
  useVerdict(onVerdict, ddRunVerdict(runs.length, newest, parsed?.trace ? requestName(parsed.trace) : undefined, limits));

  if (!runs.length)
    return (
      <div className="kernel-deadline" data-testid="kernel-deadline-live">
        <h3>mq-deadline in the kernel, live</h3>
        <p className="muted">Waiting for the guest's dd_dispatch_request events (the lab's steps start the stream).</p>
      </div>
    );
  const t = parsed?.trace;
  const tl = parsed?.timeline;
  const tun = t ? traceTunables(t) : null;
  return (
    <div className="kernel-deadline" data-testid="kernel-deadline-live">
      <h3>mq-deadline in the kernel, live</h3>
      <div className="toolbar">
        <label>
          run{" "}
          <select value={run} onChange={(e) => setChosen(Number(e.target.value) === runs.length - 1 ? null : Number(e.target.value))} aria-label="run">
            {runs.map((_, i) => <option key={i} value={i}>{i + 1}{i === runs.length - 1 ? " (newest)" : ""}</option>)}
          </select>
        </label>
        <label><input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> follow the newest dispatch</label>
      </div>
      {parsed?.error && <p className="error" role="alert">{parsed.error}</p>}
      {parsed?.fresh ? (
        <p className="muted" data-testid="dd-fresh">
          Run {run + 1} starts from mq-deadline switched on afresh (its settings line says <code>fresh=1</code>: the grading
          workload switches the scheduler off and on), not from the state the runs before it left, and so does the model.
        </p>
      ) : (
        !!parsed?.undone.length && (
          <p className="muted" data-testid="dd-undone">
            The machine was put back after run{parsed.undone.length > 1 ? "s" : ""} {parsed.undone.map((j) => j + 1).join(", ")} (the guest&apos;s trace went
            back): run {run + 1} starts from the scheduler&apos;s state as {parsed.before.length ? `run ${parsed.before[parsed.before.length - 1] + 1} left it` : "it was switched on"}, and so does the model.
          </p>
        )
      )}
      {t && tl && tun && (
        <>
          <RunSummary
            label={`Run ${run + 1} (fifo_batch ${tun.fifo_batch}, writes_starved ${tun.writes_starved}, read_expire ${tun.read_expire_ms} ms, write_expire ${tun.write_expire_ms} ms)`}
            trace={t}
            timeline={tl}
            replay={replay && replay.run === run ? replay.replay : null}
          />
          <DeadlineQueues
            key={run}
            timeline={tl}
            replay={replay && replay.run === run ? replay.replay : undefined}
            follow={follow}
            onUnfollow={() => setFollow(false)}
          />
        </>
      )}
    </div>
  );
}
