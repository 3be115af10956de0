// mq-deadline from the inside, one step at a time: per priority and direction, the FIFO list
// (oldest first, each request with the time left before its deadline) and the sort list (by
// sector), the batch and starvation counters, and the requests at the device. Each step is a
// completion and what it set off (the job's next request inserted, the queue run); the line
// under the controls says what moved. Reads and writes differ by colour and by letter.
import { useMemo, useState, type ReactElement } from "react";
import { DD_DIRS, DD_PRIOS, parseDdState, ROW, ROW_WIDTH, type BlkSteps, type DdState } from "../cores/blk-core";
import { StepControls } from "./StepControls";

const MS_PER_JIFFY = 4; // HZ = 250, as the simulation runs
const SHOWN = 48; // boxes per list before "+N more"
const OP_CLASS = ["rq-read", "rq-write"];

export function DeadlineQueues({ steps, hz = 250 }: { steps: BlkSteps; hz?: number }) {
  const total = steps.offsets.length - 1;
  const [k, setK] = useState(total > 1 ? 1 : 0);
  const at = (i: number): DdState => parseDdState(steps.words.subarray(steps.offsets[i], steps.offsets[i + 1]));
  const s = useMemo(() => at(Math.min(k, total - 1)), [steps, k]);
  const prev = useMemo(() => (k > 0 ? at(k - 1) : null), [steps, k]);
  const row = (rq: number, f: number) => steps.rows[rq * ROW_WIDTH + f];
  const op = (rq: number) => (row(rq, ROW.op) ? 1 : 0);
  const jiffyMs = 1000 / hz || MS_PER_JIFFY;

  // what this step moved: requests that reached the device, and those that completed
  const moved = useMemo(() => {
    const before = new Set(prev?.dispatched ?? []);
    const now = new Set(s.dispatched);
    return { issued: s.dispatched.filter((x) => !before.has(x)), completed: [...before].filter((x) => !now.has(x)) };
  }, [s, prev]);

  const box = (rq: number, extra?: string, title?: string) => (
    <li key={rq} className={`rq ${OP_CLASS[op(rq)]}${moved.issued.includes(rq) ? " rq-new" : ""}`} title={title}>
      {op(rq) ? "W" : "R"}
      {rq}
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
  const sectorKiB = (rq: number) => `@${Math.round(row(rq, ROW.sector) / 2)}K`;

  return (
    <div className="dd-queues" data-testid="dd-queues">
      <StepControls total={total - 1} position={Math.min(k, total - 1)} onChange={setK} unit="step" />
      <p data-testid="dd-moved">
        t = {(s.nowUs / 1000).toFixed(2)} ms (jiffy {s.jiffies}).{" "}
        {k === 0
          ? "The jobs submit their first requests; the queue runs."
          : `Completed ${moved.completed.map((x) => `${op(x) ? "W" : "R"}${x}`).join(", ") || "nothing"}; dispatched ${moved.issued.map((x) => `${op(x) ? "W" : "R"}${x}`).join(", ") || "nothing"}.`}
      </p>
      <dl className="dd-counters">
        <dt>batching</dt>
        <dd data-testid="dd-batching">{s.batching} of fifo_batch {s.fifoBatch}</dd>
        <dt>starved</dt>
        <dd data-testid="dd-starved">{s.starved} of writes_starved {s.writesStarved}</dd>
        <dt>last batch</dt>
        <dd>{DD_DIRS[s.lastDir]}s</dd>
        <dt>driver tags</dt>
        <dd>{s.tagsUsed} in use</dd>
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
        <span className="dd-label">at the device</span>
        {list(s.dispatched, (rq) => box(rq, sectorKiB(rq)), "dispatched, not completed")}
      </div>
      <p className="muted">
        R/W and a number: a read or write request, numbered as submitted; bold: dispatched in this step. The first {total} steps
        of the mq-deadline run{steps.finished ? " (the whole run)" : ""}.
      </p>
    </div>
  );
}
