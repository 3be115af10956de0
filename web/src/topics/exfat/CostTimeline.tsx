// The modelled time a delete has cost so far, step by step, with the other discard policy's
// total for the same delete as a dashed line: where the per-cluster policy's time goes.
import { line, scaleLinear } from "d3";
import { useWidth } from "../../shared/view/useWidth";

interface Props {
  costMs: Float64Array; // cumulative, index = step
  position: number;
  otherMs: number;
  otherLabel: string;
}

/** drawn at the width it has (up to this), so its 10 px labels stay 10 px on a phone */
const MAX_W = 420;
const H = 130;
const M = { left: 56, right: 10, top: 10, bottom: 28 };

const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : v >= 1 ? `${v.toFixed(2)} ms` : `${(v * 1000).toFixed(1)} µs`);

export function CostTimeline({ costMs, position, otherMs, otherLabel }: Props) {
  const [box, width] = useWidth<HTMLElement>(MAX_W, MAX_W);
  const W = Math.max(200, width); // its axis labels need this much
  const total = costMs.length - 1;
  const x = scaleLinear().domain([0, Math.max(1, total)]).range([M.left, W - M.right]);
  const y = scaleLinear().domain([0, Math.max(costMs[total], otherMs) || 1]).range([H - M.bottom, M.top]).nice();
  // at most one point per horizontal pixel
  const stride = Math.max(1, Math.floor(total / (W - M.left - M.right)));
  const pts: Array<[number, number]> = [];
  for (let s = 0; s <= total; s += stride) pts.push([x(s), y(costMs[s])]);
  pts.push([x(total), y(costMs[total])]);
  return (
    <figure className="cost-timeline" ref={box}>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={`Modelled time so far ${ms(costMs[position])} of ${ms(costMs[total])}; ${otherLabel} ${ms(otherMs)}`}>
        <line x1={M.left} x2={W - M.right} y1={y(otherMs)} y2={y(otherMs)} stroke="#D55E00" strokeDasharray="4 3" />
        <text x={W - M.right} y={y(otherMs) - 4} textAnchor="end" fontSize="10" fill="#D55E00">{otherLabel}: {ms(otherMs)}</text>
        <path d={line()(pts) ?? ""} fill="none" stroke="#0072B2" strokeWidth={2} />
        <line x1={x(position)} x2={x(position)} y1={M.top} y2={H - M.bottom} stroke="#000" />
        {y.ticks(3).map((t) => (
          <text key={t} x={M.left - 4} y={y(t) + 3} textAnchor="end" fontSize="10">{ms(t)}</text>
        ))}
        <text x={(M.left + W - M.right) / 2} y={H - 8} textAnchor="middle" fontSize="10">events of the delete (0 … {total})</text>
      </svg>
      <figcaption data-testid="cost-so-far">
        {ms(costMs[position])} so far of {ms(costMs[total])} (modelled: 13.6 µs per discard request, 79 ns per cluster, fitted
        to the 6.15 commit's 80 GiB rm)
      </figcaption>
    </figure>
  );
}
