// Per-core lock timelines of one FxMark unlink run (fxmarkTrace in cores/f2fs-core.ts): a row
// per traced core, simulated time across. Each lock has its Okabe–Ito colour; waiting for a
// lock is a hatched bar, holding one a solid bar, the core's own work (no lock) a thin line,
// so the three read apart without colour. A lock taken inside another (build_lock under the
// directory's i_rwsem in MWUM) is a narrower bar on top. The table says the same per core.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { axisBottom, scaleBand, scaleLinear, select } from "d3";
import { LOCK_LABELS, LOCKS, timelineTotals, type LockName, type LockSpan, type LockTrace } from "./fxmark";
import { OKABE_ITO } from "../../shared/view/palette";
import "./LockTimeline.css";

// Okabe–Ito without its yellow (too light for thin bars on white)
export const LOCK_COLOURS: Record<LockName, string> = { dir: OKABE_ITO[0], build: OKABE_ITO[4], bitmap: OKABE_ITO[2], list: OKABE_ITO[6] };

const W = 520;
const ROW = 18;
const M = { top: 6, right: 12, bottom: 34, left: 84 };

// the table's column heads: the kernel's names, the directory's shortened
const LOCK_NAMES: Record<LockName, string> = { ...LOCK_LABELS, dir: "i_rwsem" };

// a long kernel name may wrap after its underscores, so the table stays narrow
const breakable = (name: string) => (name.length <= 10 ? name : name.split("_").flatMap((w, i) => (i ? [<wbr key={i} />, `_${w}`] : [w])));

const us = (ns: number) => (ns / 1e3).toFixed(1);

/** which cores a trace shows, in words: "all 8 cores" or "cores 0, 8, …, 112: every 8th of 120" */
export function tracedCoresText(t: LockTrace): string {
  const n = t.result.cores;
  const ids = t.cores.map((c) => c.core);
  if (t.every === 1) return `all ${n} cores`;
  const nth = t.every % 10 === 2 && t.every % 100 !== 12 ? "nd" : t.every % 10 === 3 && t.every % 100 !== 13 ? "rd" : "th";
  return `cores ${ids.slice(0, 2).join(", ")}, …, ${ids.at(-1)}: every ${t.every}${nth} of ${n}, ${ids.length} rows`;
}

function hatchId(uid: string, l: LockName) {
  return `${uid}-hatch-${l}`;
}

/** A hatch per lock: the same pattern marks waiting in the chart and in the legend. */
function Hatches({ uid }: { uid: string }) {
  return (
    <defs>
      {LOCKS.map((l) => (
        <pattern key={l} id={hatchId(uid, l)} width={5} height={5} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width={5} height={5} fill="#fff" />
          <line x1={1} y1={0} x2={1} y2={5} stroke={LOCK_COLOURS[l]} strokeWidth={2.2} />
        </pattern>
      ))}
    </defs>
  );
}

const safeId = (id: string) => `lt${id.replace(/[^A-Za-z0-9_-]/g, "")}`;

export function LockLegend() {
  const uid = safeId(useId());
  const box = (children: ReactNode) => (
    <svg width={22} height={12} aria-hidden="true" className="lock-legend-mark">
      <Hatches uid={uid} />
      {children}
    </svg>
  );
  return (
    <ul className="lock-legend" aria-label="legend">
      {LOCKS.map((l) => (
        <li key={l}>{box(<rect x={1} y={1} width={20} height={10} fill={LOCK_COLOURS[l]} />)} {LOCK_LABELS[l]}</li>
      ))}
      <li>{box(<rect x={1} y={1} width={20} height={10} fill={`url(#${hatchId(uid, "build")})`} stroke={LOCK_COLOURS.build} />)} hatched: waiting for the lock (queued in <code>mutex_lock</code>)</li>
      <li>{box(<rect x={1} y={1} width={20} height={10} fill="#555" />)} solid: holding it</li>
      <li>{box(<line x1={1} x2={21} y1={6} y2={6} stroke="#888" />)} thin line: the core's own work, no lock</li>
      <li>{box(<line x1={11} x2={11} y1={0} y2={12} stroke="#000" strokeWidth={2} />)} its last unlink done</li>
    </ul>
  );
}

function Bar({ s, core, x, y, h, uid, clip }: { s: LockSpan; core: number; x: (v: number) => number; y: number; h: number; uid: string; clip: [number, number] }) {
  const from = Math.max(s.from, clip[0]);
  const to = Math.min(s.to, clip[1]);
  // a 100 ns hold in a 250 us window is a fraction of a pixel: still drawn, at 1 px
  const w = Math.max(1, x(to) - x(from));
  const c = LOCK_COLOURS[s.lock];
  const inner = s.depth > 0;
  return (
    <rect
      className="lt-span"
      data-core={core}
      data-lock={s.lock}
      data-kind={s.kind}
      x={x(from)}
      y={inner ? y + h * 0.25 : y}
      width={w}
      height={inner ? h * 0.5 : h}
      fill={s.kind === "wait" ? `url(#${hatchId(uid, s.lock)})` : c}
      stroke={s.kind === "wait" ? c : inner ? "#fff" : "none"}
      strokeWidth={s.kind === "wait" ? 0.8 : 1}
    >
      <title>{`core ${core} ${s.kind === "wait" ? "waited for" : "held"} ${LOCK_LABELS[s.lock]} ${us(s.from)}–${us(s.to)} µs (${us(s.to - s.from)} µs)`}</title>
    </rect>
  );
}

export function LockTimeline({ trace: t, title }: { trace: LockTrace; title: string }) {
  const uid = safeId(useId());
  const axis = useRef<SVGGElement>(null);
  const rows = t.cores;
  const H = M.top + rows.length * ROW + M.bottom;
  const x = scaleLinear().domain([t.fromNs, t.untilNs]).range([M.left, W - M.right]);
  const y = scaleBand<number>().domain(rows.map((c) => c.core)).range([M.top, M.top + rows.length * ROW]).paddingInner(0.2);
  useEffect(() => {
    select(axis.current!).call(axisBottom(x).ticks(5).tickFormat((v) => `${+v / 1e3}`));
  });
  const totals = timelineTotals(t);
  const waited = (l: LockName) => totals.reduce((n, c) => n + c.wait_us[l], 0);
  const most = LOCKS.reduce((a, b) => (waited(b) > waited(a) ? b : a));
  const win = `${us(t.fromNs)}–${us(t.untilNs)} µs`;

  return (
    <figure className="lock-timeline" data-clue={t.result.clue} data-testid={`lock-timeline-${t.result.clue}`}>
      <figcaption>
        <strong>{title}</strong>: {tracedCoresText(t)}, simulated time {win}.{" "}
        {(t.result.unlinks_per_sec / 1e3).toFixed(0)}k unlinks/s over the whole run.
        {t.dropped > 0 && ` ${t.dropped} spans past ${t.maxSpans} per core are not drawn.`}
      </figcaption>
      <div className="lock-timeline-plot">
        <svg
          width={W}
          height={H}
          role="img"
          aria-label={`${title}: ${rows.length} cores over ${win}; waited ${LOCKS.filter((l) => waited(l) > 0).map((l) => `${waited(l).toFixed(0)} µs for ${LOCK_LABELS[l]}`).join(", ") || "for no lock"}; most for ${LOCK_LABELS[most]}`}
        >
          <Hatches uid={uid} />
          {rows.map((c) => {
            const top = y(c.core)!;
            const h = y.bandwidth();
            const end = Math.min(c.doneNs, t.untilNs);
            return (
              <g key={c.core} className="lt-row" data-core={c.core}>
                <text x={M.left - 6} y={top + h / 2 + 4} textAnchor="end" fontSize={11}>core {c.core} · s{c.socket}</text>
                {end > t.fromNs && <line x1={x(t.fromNs)} x2={x(end)} y1={top + h / 2} y2={top + h / 2} stroke="#888" />}
                {c.spans.map((s, i) => <Bar key={i} s={s} core={c.core} x={x} y={top} h={h} uid={uid} clip={[t.fromNs, t.untilNs]} />)}
                {c.doneNs >= t.fromNs && c.doneNs <= t.untilNs && <line className="lt-done" x1={x(c.doneNs)} x2={x(c.doneNs)} y1={top - 1} y2={top + h + 1} stroke="#000" strokeWidth={2} />}
              </g>
            );
          })}
          <g ref={axis} transform={`translate(0,${M.top + rows.length * ROW})`} />
          <text x={(M.left + W - M.right) / 2} y={H - 4} textAnchor="middle" fontSize={11}>simulated time (µs)</text>
        </svg>
      </div>
      <table className="files lock-timeline-table" aria-label={`${title}: per core, µs of ${win}`}>
        <thead>
          <tr>
            <th rowSpan={2}>core</th>
            <th rowSpan={2}>socket</th>
            <th colSpan={LOCKS.length}>waited for (µs)</th>
            <th colSpan={2}>the rest (µs)</th>
          </tr>
          <tr>
            {LOCKS.map((l) => <th key={l}>{breakable(LOCK_NAMES[l])}</th>)}
            <th>holding a lock</th>
            <th>own work</th>
          </tr>
        </thead>
        <tbody>
          {totals.map((c) => (
            <tr key={c.core} data-core={c.core}>
              <td>{c.core}</td>
              <td>{c.socket}</td>
              {LOCKS.map((l) => <td key={l}>{c.wait_us[l].toFixed(1)}</td>)}
              <td>{c.holding_us.toFixed(1)}</td>
              <td>{c.working_us.toFixed(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
