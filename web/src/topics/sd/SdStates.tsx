// The card's state machine (SD Physical Layer spec 4.3 and 4.8): identification mode (idle,
// ready, ident) and data transfer mode (stby, tran, data, rcv, prg, dis), the transitions the
// run went through drawn, the current state lit.
import { STATES, type SdRecord, type StateName } from "./sd-core";
import { OKABE_ITO } from "../../shared/view/palette";

const POS: Record<StateName, [number, number]> = {
  idle: [60, 50], ready: [170, 50], ident: [280, 50],
  stby: [390, 50], tran: [390, 140], data: [280, 140], rcv: [500, 140], prg: [500, 50], dis: [170, 140],
};

export function SdStates({ records, position }: { records: readonly SdRecord[]; position: number }) {
  const seen = new Map<string, number>();
  let prev: StateName = "idle";
  records.slice(0, position + 1).forEach((r) => {
    if (r.state && r.state !== prev) seen.set(`${prev}>${r.state}`, (seen.get(`${prev}>${r.state}`) ?? 0) + 1);
    if (r.state) prev = r.state;
  });
  const current = records[position]?.state ?? "idle";
  return (
    <svg className="sd-states" viewBox="0 0 560 190" role="img" aria-label={`the card is in ${current}; transitions so far: ${[...seen.keys()].map((k) => k.replace(">", " to ")).join(", ") || "none"}`} style={{ width: "100%", maxWidth: 560 }}>
      {[...seen.keys()].map((k) => {
        const [a, b] = k.split(">") as [StateName, StateName];
        const [x1, y1] = POS[a], [x2, y2] = POS[b];
        return <line key={k} x1={x1} y1={y1} x2={x2} y2={y2} stroke="#777" strokeWidth={1.5} markerEnd="url(#sd-st-arrow)" />;
      })}
      {STATES.map((s) => {
        const [x, y] = POS[s];
        const lit = s === current;
        return (
          <g key={s} data-state={s} data-current={lit ? "yes" : undefined}>
            <circle cx={x} cy={y} r={26} fill={lit ? OKABE_ITO[4] : "#fff"} stroke={lit ? OKABE_ITO[4] : "#555"} strokeWidth={2} />
            <text x={x} y={y + 4} textAnchor="middle" fontSize={12} fill={lit ? "#fff" : "#222"}>{s}</text>
          </g>
        );
      })}
      <text x={10} y={185} fontSize={10} fill="#555">top: identification mode; stby onwards: data transfer mode</text>
      <defs>
        <marker id="sd-st-arrow" viewBox="0 0 10 10" refX="36" refY="5" markerWidth="6" markerHeight="6" orient="auto">
          <path d="M0,0 L10,5 L0,10 z" fill="#777" />
        </marker>
      </defs>
    </svg>
  );
}
