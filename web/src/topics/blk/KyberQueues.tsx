// kyber from the inside, one step at a time: per scheduling domain (reads, writes) its token
// pool (tokens held against the current depth, and the depth kyber_depth[] allows), the
// requests waiting in the software queue and in the hardware queue's list, which domain the
// round robin serves and how far into its batch; at the device, each request with its token.
// Below, what the timer did: the domains' depths over time, one point per kyber_timer_fn().
import { useMemo, useState, type ReactElement } from "react";
import { curveStepAfter, line, scaleLinear } from "d3";
import { ROW, ROW_WIDTH, type BlkSteps } from "./blk-core";
import { KYBER_DOMAINS, parseKyberState, type KyberTimerRun } from "./kyber";
import { StepControls } from "../../shared/view/StepControls";
import { TableAlt } from "../../shared/view/TableAlt";
import { useWidth } from "../../shared/view/useWidth";

const SHOWN = 48;
const DOMAIN_COLOUR = ["#0072B2", "#E69F00"];

export function KyberQueues({ steps }: { steps: BlkSteps }) {
  const total = steps.offsets.length - 1;
  const [k, setK] = useState(total > 1 ? 1 : 0);
  const ky = steps.kyber!;
  const s = useMemo(() => parseKyberState(ky.words.subarray(ky.offsets[Math.min(k, total - 1)], ky.offsets[Math.min(k, total - 1) + 1])), [steps, k]);
  const op = (rq: number) => (steps.rows[rq * ROW_WIDTH + ROW.op] ? 1 : 0);
  const box = (rq: number, extra?: string): ReactElement => (
    <li key={rq} className={`rq ${op(rq) ? "rq-write" : "rq-read"}`}>
      {op(rq) ? "W" : "R"}
      {rq}
      {extra && <small> {extra}</small>}
    </li>
  );
  const list = (ids: number[], label: string, extra?: (rq: number) => string) => (
    <ol className="rq-list" aria-label={label}>
      {ids.slice(0, SHOWN).map((rq) => box(rq, extra?.(rq)))}
      {ids.length > SHOWN && <li className="muted">+{ids.length - SHOWN} more</li>}
      {!ids.length && <li className="muted">empty</li>}
    </ol>
  );
  const tokenOf = new Map(s.dispatched.map((d) => [d.rq, d.token]));
  return (
    <div className="dd-queues" data-testid="kyber-queues">
      <StepControls total={total - 1} position={Math.min(k, total - 1)} onChange={setK} unit="step" />
      <p data-testid="kyber-now">
        t = {(s.nowUs / 1000).toFixed(2)} ms. The round robin is at the <strong>{KYBER_DOMAINS[s.curDomain]}</strong> domain,{" "}
        {s.batching} into its batch; the timer has run {s.timerRuns} time{s.timerRuns === 1 ? "" : "s"}
        {s.timerPending ? `, next at jiffy ${s.timerTick}` : ""}.
      </p>
      {s.domains.slice(0, 2).map((d, i) => (
        <div key={i} className="dd-prio" data-domain={KYBER_DOMAINS[i]}>
          <h4>
            {KYBER_DOMAINS[i]}s: <span data-testid={`kyber-tokens-${i}`}>{d.held} of {d.depth}</span> tokens held (depth up to {d.maxDepth}), batches
            of {d.batchSize}; {d.throttled} times no token was left
          </h4>
          <div className="gauge" aria-hidden>
            <span className="gauge-fill" style={{ width: `${(100 * Math.min(d.held, d.maxDepth)) / d.maxDepth}%`, background: DOMAIN_COLOUR[i] }} />
            <span className="gauge-mark" style={{ left: `${(100 * d.depth) / d.maxDepth}%` }} title="the current depth" />
          </div>
          <div className="dd-dir">
            <span className="dd-label">software queue</span>
            {list(d.ctxQueue, `${KYBER_DOMAINS[i]}s in the software queue`)}
            <span className="dd-label">hardware queue's list</span>
            {list(d.rqs, `${KYBER_DOMAINS[i]}s flushed to the hardware queue`)}
          </div>
        </div>
      ))}
      <div className="dd-dir">
        <span className="dd-label">at the device</span>
        {list(s.dispatched.map((d) => d.rq), "dispatched, not completed", (rq) => `token ${tokenOf.get(rq)}`)}
      </div>
    </div>
  );
}

/** The read and write domains' depths after each run of kyber's timer. */
export function KyberDepths({ runs, elapsedMs }: { runs: KyberTimerRun[]; elapsedMs: number }) {
  // drawn at the width it has (up to 420 px), so its 10 px labels stay 10 px on a phone
  const [box, width] = useWidth<HTMLElement>(420, 420);
  const W = Math.max(240, width), H = 150, M = { l: 44, r: 10, t: 10, b: 30 };
  const x = scaleLinear().domain([0, Math.max(1, elapsedMs)]).range([M.l, W - M.r]);
  const y = scaleLinear().domain([0, 256]).range([H - M.b, M.t]);
  const start = [256, 128];
  return (
    <figure className="offset-plot" data-testid="kyber-depths" data-runs={runs.length} ref={box}>
      <figcaption>kyber: domain depths after each timer run ({runs.length} runs, {runs.filter((r) => r.bad).length} with a p90 over target)</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={`read and write depths over ${runs.length} timer runs`}>
        {[0, 1].map((d) => {
          const pts: Array<[number, number]> = [[x(0), y(start[d])], ...runs.map((r): [number, number] => [x(r.us / 1000), y(r.depth[d])])];
          pts.push([x(elapsedMs), pts.at(-1)![1]]); // held until the run ends
          return <path key={d} d={line().curve(curveStepAfter)(pts) ?? ""} fill="none" stroke={DOMAIN_COLOUR[d]} strokeWidth={2} />;
        })}
        {runs.filter((r) => r.bad).map((r, i) => <line key={i} x1={x(r.us / 1000)} x2={x(r.us / 1000)} y1={H - M.b} y2={H - M.b + 5} stroke="#D55E00" />)}
        {y.ticks(4).map((t) => <text key={t} x={M.l - 4} y={y(t) + 3} fontSize="10" textAnchor="end">{t}</text>)}
        {x.ticks(4).map((t) => <text key={t} x={x(t)} y={H - 8} fontSize="10" textAnchor="middle">{t} ms</text>)}
        <text x={W - M.r} y={M.t + 10} fontSize="10" textAnchor="end" fill={DOMAIN_COLOUR[0]}>reads</text>
        <text x={W - M.r} y={M.t + 22} fontSize="10" textAnchor="end" fill={DOMAIN_COLOUR[1]}>writes</text>
      </svg>
      <TableAlt
        summary="The timer runs as a table"
        head={["run", "time (ms)", "read depth", "write depth", "read p90 bucket", "write p90 bucket", "over target"]}
        count={runs.length}
        row={(i) => {
          const r = runs[i];
          const b = (x: number) => (x < 0 ? "too few samples" : x);
          return [i + 1, (r.us / 1000).toFixed(1), r.depth[0], r.depth[1], b(r.p90[0]), b(r.p90[1]), r.bad ? "yes" : "no"];
        }}
      />
    </figure>
  );
}
