// The card's state machine (SD Physical Layer spec 4.3 and 4.8): identification mode (idle,
// ready, ident) and data transfer mode (stby, tran, data, rcv, prg, dis), the transitions the
// run went through drawn, the states it was in shaded, the current state lit. Draws what it is
// given: the model's states (one after every request), or the kernel's (only where the card's
// answers report one, sd-compare.ts: a transition is drawn only between two requests in a row
// whose states are both known).
import { useId } from "react";
import { STATES, type StateName } from "./sd-core";
import { OKABE_ITO } from "../../shared/view/palette";
import { useWidth } from "../../shared/view/useWidth";
import "./sd.css";

type Layout = { pos: Record<StateName, [number, number]>; w: number; h: number; note: string[] };
// wide: identification mode along the top, data transfer mode below it and to the right
const WIDE: Layout = {
  pos: {
    idle: [60, 50], ready: [170, 50], ident: [280, 50],
    stby: [390, 50], tran: [390, 140], data: [280, 140], rcv: [500, 140], prg: [500, 50], dis: [170, 140],
  },
  w: 560, h: 190,
  note: ["top: identification mode; stby onwards: data transfer mode"],
};
// narrow (a phone): three to a row, drawn at its real size so the names keep theirs
const NARROW: Layout = {
  pos: {
    idle: [50, 40], ready: [160, 40], ident: [270, 40],
    data: [50, 125], tran: [160, 125], stby: [270, 125],
    rcv: [50, 210], prg: [160, 210], dis: [270, 210],
  },
  w: 320, h: 275,
  note: ["top row: identification mode;", "the rest: data transfer mode"],
};

interface Props {
  /** per request, the card's state after it (undefined: not known) */
  states: ReadonlyArray<StateName | undefined>;
  position: number;
  /** the state to light, when it is not states[position] (the kernel's last reported one) */
  current?: StateName;
  /** the lit state is older than the position: drawn as a ring, not filled */
  stale?: boolean;
  /** the lit state differs from the other side's: drawn in the warning colour */
  differ?: boolean;
  /** whose states these are, for the picture's description */
  who?: string;
}

export function SdStates({ states, position, current: given, stale, differ, who }: Props) {
  const arrow = `sd-st-arrow-${useId().replace(/:/g, "")}`;
  const [box, width] = useWidth<HTMLDivElement>(560, 560);
  const layout = width < 440 ? NARROW : WIDE;
  const { pos: POS, w, h, note } = layout;
  const seen = new Set<string>();
  const visited = new Set<StateName>(["idle"]);
  states.slice(0, position + 1).forEach((s, i) => {
    const prev = i === 0 ? "idle" : states[i - 1];
    if (s) visited.add(s);
    if (s && prev && s !== prev) seen.add(`${prev}>${s}`);
  });
  const current = given ?? states[position] ?? "idle";
  const colour = differ ? OKABE_ITO[5] : OKABE_ITO[4];
  const transitions = [...seen].map((k) => k.replace(">", " to ")).join(", ") || "none";
  return (
    <div ref={box} className="sd-states-box">
    <svg className="sd-states" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`${who ? `${who}: ` : ""}the card is in ${current}${stale ? " (the last state reported)" : ""}${differ ? ", not as the other side says" : ""}; transitions seen: ${transitions}`} style={{ width: "100%", maxWidth: w }} data-layout={layout === NARROW ? "narrow" : "wide"} data-current={current} data-differ={differ ? "yes" : undefined}>
      {[...seen].map((k) => {
        const [a, b] = k.split(">") as [StateName, StateName];
        const [x1, y1] = POS[a], [x2, y2] = POS[b];
        return <line key={k} x1={x1} y1={y1} x2={x2} y2={y2} stroke="#777" strokeWidth={1.5} markerEnd={`url(#${arrow})`} />;
      })}
      {STATES.map((s) => {
        const [x, y] = POS[s];
        const lit = s === current;
        const filled = lit && !stale;
        return (
          <g key={s} data-state={s} data-current={lit ? "yes" : undefined}>
            <circle cx={x} cy={y} r={26} fill={filled ? colour : visited.has(s) ? "#eef3f8" : "#fff"} stroke={lit ? colour : "#555"} strokeWidth={lit ? 4 : 2} strokeDasharray={lit && stale ? "5 3" : undefined} />
            <text x={x} y={y + 4} textAnchor="middle" fontSize={12} fill={filled ? "#fff" : "#222"}>{s}</text>
          </g>
        );
      })}
      {note.map((line, k) => (
        <text key={k} x={10} y={h - 5 - (note.length - 1 - k) * 13} fontSize={10} fill="#555">{line}</text>
      ))}
      <defs>
        <marker id={arrow} viewBox="0 0 10 10" refX="36" refY="5" markerWidth="6" markerHeight="6" orient="auto">
          <path d="M0,0 L10,5 L0,10 z" fill="#777" />
        </marker>
      </defs>
    </svg>
    </div>
  );
}
