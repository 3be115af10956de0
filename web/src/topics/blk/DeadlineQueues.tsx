// mq-deadline from the inside, one step at a time: per priority and direction, the FIFO list
// (oldest first, each request with the time left before its deadline) and the sort list (by
// sector), the batch and starvation counters, and the requests dispatched. The states come
// from the model (each step a completion and what it set off) or from the kernel (each step one
// of its dispatches, the lists rebuilt from a trace with our dd_dispatch_request tracepoint);
// with the kernel, each step also says why it chose, and what the model chose from the same
// lists. Reads and writes differ by colour and by letter.
import { useEffect, useMemo, useState, type ReactElement } from "react";
import { DD_DIRS, DD_PRIOS, type DdState, type DdTimeline } from "./blk-core";
import { DD_BECAUSE, DD_PICK } from "./blk-trace";
import { rqName, type DdReplay, type DdVerdict } from "./dd-kernel";
import { StepControls } from "../../shared/view/StepControls";

const SHOWN = 48; // boxes per list before "+N more"
const OP_CLASS = ["rq-read", "rq-write"];
const BECAUSE_TEXT: Record<string, string> = {
  // not "batching below fifo_batch": a kernel that breaks the batch rule goes on at fifo_batch
  batch: "still in a batch (the next request up in sector order: the batch went on)",
  reads: "reads come first",
  starved: "writes had been passed over writes_starved times",
  writes: "no reads were queued",
};
const PICK_TEXT: Record<string, string> = {
  sorted: "the next one up in sector order",
  expired: "the oldest, its deadline passed",
  no_next: "the oldest, nothing further up in sector order",
};

interface Props {
  timeline: DdTimeline;
  replay?: DdReplay;
  /** a live stream: stay on the newest step as steps arrive; a move by the learner calls onUnfollow */
  follow?: boolean;
  onUnfollow?(): void;
  /** the step to open on (not following): a code step's divergent decision */
  start?: number;
  /** who decided beside the kernel: the model, or the learner's function (a code step's grade) */
  decider?: string;
}

export function DeadlineQueues({ timeline, replay, follow, onUnfollow, start, decider = "The model" }: Props) {
  const total = timeline.steps;
  const [k, setK] = useState(follow ? total - 1 : start ?? (total > 1 ? 1 : 0));
  useEffect(() => {
    if (follow) setK(total - 1);
  }, [follow, total]);
  const move = (to: number) => {
    setK(to);
    if (follow) onUnfollow?.();
  };
  const at = Math.min(k, total - 1);
  const s = useMemo(() => timeline.at(at), [timeline, at]);
  const prev = useMemo(() => (at > 0 ? timeline.at(at - 1) : null), [timeline, at]);
  const op = timeline.op;
  const jiffyMs = 1000 / timeline.hz;
  const kernel = timeline.source === "kernel";
  const name = (rq: number) => rqName(!!op(rq), rq);
  const verdict: DdVerdict | undefined = replay?.verdicts[at];
  const differences = useMemo(() => (replay ? replay.verdicts.flatMap((v, i) => (v.sameReasons || !v.judged ? [] : [i])) : []), [replay]);
  // what this step moved: requests that reached the device, and those that completed
  const moved = useMemo(() => {
    const before = new Set(prev?.dispatched ?? []);
    const now = new Set(s.dispatched);
    return { issued: s.dispatched.filter((x) => !before.has(x)), completed: [...before].filter((x) => !now.has(x)) };
  }, [s, prev]);

  const box = (rq: number, extra?: string, title?: string) => (
    <li key={rq} className={`rq ${OP_CLASS[op(rq)]}${moved.issued.includes(rq) ? " rq-new" : ""}`} title={title}>
      {name(rq)}
      {extra && <small> {extra}</small>}
    </li>
  );
  const list = (ids: number[], render: (rq: number) => ReactElement, label: string) => (
    <ol className="rq-list" aria-label={label}>
      {ids.slice(0, SHOWN).map(render)}
      {ids.length > SHOWN && <li className="muted">+{ids.length - SHOWN} more</li>}
      {!ids.length && <li className="muted">empty</li>}
    </ol>
  );
  const used = DD_PRIOS.map((_, p) => s.lists[p].some((l) => l.fifo.length) || p === 1);
  const sectorKiB = (rq: number) => `@${Math.round(timeline.sector(rq) / 2)}K`;
  const why = (because: number | string, pick: number | string) => {
    const b = typeof because === "number" ? DD_BECAUSE[because] : because;
    const p = typeof pick === "number" ? DD_PICK[pick] : pick;
    return b === "batch" ? BECAUSE_TEXT.batch : `${BECAUSE_TEXT[b]}; ${PICK_TEXT[p]}`;
  };

  return (
    <div className="dd-queues" data-testid="dd-queues">
      <StepControls total={total - 1} position={at} onChange={move} unit={kernel ? "decision" : "step"} items={kernel} />
      {kernel ? (
        <p data-testid="dd-moved">
          {/* the kernel's jiffies start near 2^32 (INITIAL_JIFFIES), so times are shown from the run's start */}
          t = {(s.nowUs / 1000).toFixed(2)} ms into the run. The kernel dispatched{" "}
          <strong>{name(timeline.dispatched!(at))}</strong> {sectorKiB(timeline.dispatched!(at))}: {why(s.because, s.pick)}.
        </p>
      ) : (
        <p data-testid="dd-moved">
          t = {(s.nowUs / 1000).toFixed(2)} ms (jiffy {s.jiffies}).{" "}
          {at === 0
            ? "The jobs submit their first requests; the queue runs."
            : `Completed ${moved.completed.map(name).join(", ") || "nothing"}; dispatched ${moved.issued.map(name).join(", ") || "nothing"}.`}
          {moved.issued.length > 0 && ` The last of them: ${why(s.because, s.pick)}.`}
        </p>
      )}
      {verdict && !verdict.listsAgree && (
        <p className="dd-verdict muted" data-testid="dd-verdict" data-same="unjudged">
          Not judged: here the lists rebuilt from the block events are not as long as the kernel said its own were (a request
          the trace lost sight of), so the model would be deciding from other lists than the kernel's.
        </p>
      )}
      {verdict && verdict.listsAgree && !verdict.judged && (
        <p className="dd-verdict muted" data-testid="dd-verdict" data-same="unjudged">
          Not judged: the trace has no {verdict.couldChange.join(" or ")} events, and one of them could have changed this decision
          (trace them too for a full judgement).
        </p>
      )}
      {verdict && verdict.judged && (
        <p className={verdict.sameReasons ? "dd-verdict" : "dd-verdict dd-differs"} data-testid="dd-verdict" data-same={verdict.sameReasons}>
          {decider}, deciding from the same lists:{" "}
          {verdict.sameReasons
            ? "the same request, for the same reasons, with the same counters after."
            : verdict.model.rq === null
              ? "nothing to dispatch. They differ."
              : `${verdict.same ? "the same request" : name(verdict.model.rq)}, because ${why(verdict.model.because, verdict.model.pick)} (batching ${verdict.model.batching}, starved ${verdict.model.starved}). They differ.`}
        </p>
      )}
      {differences.length > 0 && (
        <p className="muted" data-testid="dd-agreement">
          {decider} decided otherwise at decision{differences.length > 1 ? "s" : ""}{" "}
          {/* commas between them: read as one text the numbers ran together ("254280") */}
          {differences.slice(0, 12).map((i, j) => (
            <span key={i}>
              {j > 0 && ", "}
              <button type="button" className="linkish" onClick={() => move(i)}>{i + 1}</button>
            </span>
          ))}
          {differences.length > 12 && ` and ${differences.length - 12} more`}.
        </p>
      )}
      <dl className="dd-counters">
        <dt>batching</dt>
        <dd data-testid="dd-batching">{s.batching} of fifo_batch {s.fifoBatch}</dd>
        <dt>starved</dt>
        <dd data-testid="dd-starved">{s.starved} of writes_starved {s.writesStarved}</dd>
        <dt>last batch</dt>
        <dd>{DD_DIRS[s.lastDir]}s</dd>
        <dt>{kernel ? "out of the scheduler" : "driver tags"}</dt>
        <dd>{kernel ? `${s.tagsUsed} not completed` : `${s.tagsUsed} in use`}</dd>
      </dl>
      {DD_PRIOS.map((name, p) =>
        used[p] ? (
          <div key={name} className="dd-prio">
            <h4>{name} priority</h4>
            {DD_DIRS.map((dir, d) => {
              const l = s.lists[p][d];
              return (
                <div key={dir} className="dd-dir" data-prio={name} data-dir={dir}>
                  <span className="dd-label">{dir}s FIFO</span>
                  {list(
                    l.fifo.map((f) => f.rq),
                    (rq) => {
                      const left = (l.fifo.find((f) => f.rq === rq)!.deadline - s.jiffies) * jiffyMs;
                      return box(rq, left <= 0 ? "expired" : `${left} ms`, left <= 0 ? "its deadline has passed: it goes next" : "time left before its deadline");
                    },
                    `${name} ${dir}s, oldest first`,
                  )}
                  <span className="dd-label">{dir}s by sector</span>
                  {list(l.sorted, (rq) => box(rq, sectorKiB(rq)), `${name} ${dir}s by sector`)}
                </div>
              );
            })}
          </div>
        ) : null,
      )}
      <div className="dd-dir">
        {/* the kernel asks the scheduler before it has a driver tag: a request may wait in hctx->dispatch */}
        <span className="dd-label">{kernel ? "dispatched, not done" : "at the device"}</span>
        {list(s.dispatched, (rq) => box(rq, sectorKiB(rq)), "dispatched, not completed")}
      </div>
      <p className="muted">
        R/W and a number: a read or write request, numbered {kernel ? "as it arrived in the trace" : "as submitted"}; bold: dispatched in this step.{" "}
        {kernel
          ? "The lists are rebuilt from the kernel's block events (insert, dispatch, completion)."
          : `The first ${total} steps of the model's mq-deadline run${timeline.finished ? " (the whole run)" : ""}.`}
      </p>
    </div>
  );
}
