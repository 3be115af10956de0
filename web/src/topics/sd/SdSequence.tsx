// The initialisation as a sequence diagram: the host (Linux's MMC core through the SDHCI
// driver) on the left, the card on the right; each request an arrow to the card, its answer an
// arrow back (or a cross: no answer, -110), the card's state after it on the card's side.
// Draws what it is given; the page steps through it.
import { commandName, hex, r1Words, type SdRecord } from "./sd-core";
import { OKABE_ITO } from "../../shared/view/palette";
import { useWidth } from "../../shared/view/useWidth";
import "./sd.css";

// a request's name above its arrow, the answer's below the dashed one back: 44 px keeps one
// row's answer clear of the next row's request
const ROW = 44;

export function answerWords(r: SdRecord): string {
  if (r.err) return "no answer (-110)";
  if (r.opcode === 0 && !r.app) return "(none expected)";
  if (r.opcode === 2 || r.opcode === 9) return `R2 ${r.opcode === 2 ? "CID" : "CSD"}`;
  if (r.app && r.opcode === 41) return `R3 OCR ${hex(r.resp[0])}${r.resp[0] >>> 31 ? " ready" : " busy"}`;
  if (r.opcode === 8 && !r.app) return `R7 ${hex(r.resp[0])}`;
  if (r.opcode === 3 && !r.app) return `R6 RCA ${hex(r.resp[0] >>> 16)}`;
  return `R1 ${r1Words(r.resp[0])}`;
}

export function SdSequence({ records, position, differ }: { records: readonly SdRecord[]; position: number; differ?: ReadonlySet<number> }) {
  // a window of rows around the current one, so the diagram keeps a readable height
  const from = Math.max(0, Math.min(position - 6, records.length - 12));
  const shown = records.slice(from, from + 12);
  // drawn at its real width, so the labels keep their size on a phone; narrow: shorter labels
  const [ref, measured] = useWidth<HTMLDivElement>(640, 720);
  const width = Math.max(300, measured);
  const narrow = width < 520;
  const host = narrow ? 60 : 90, card = width - (narrow ? 50 : 90);
  const label = (r: SdRecord) => (narrow ? `${r.app ? "ACMD" : "CMD"}${r.opcode} ${hex(r.arg)}` : `${commandName(r.opcode, r.app)} ${hex(r.arg)}`);
  return (
    <div ref={ref} className="sd-sequence-box">
    <svg className="sd-sequence" width={width} height={shown.length * ROW + 40} viewBox={`0 0 ${width} ${shown.length * ROW + 40}`} role="img" aria-label={`requests ${from + 1} to ${from + shown.length} of ${records.length}; the current is ${position + 1}`}>
      <text x={host} y={14} textAnchor="middle" fontSize={12} fontWeight="bold">{narrow ? "host" : "host (mmc core)"}</text>
      <text x={card} y={14} textAnchor="middle" fontSize={12} fontWeight="bold">card</text>
      <line x1={host} x2={host} y1={20} y2={shown.length * ROW + 36} stroke="#888" />
      <line x1={card} x2={card} y1={20} y2={shown.length * ROW + 36} stroke="#888" />
      {shown.map((r, k) => {
        const i = from + k;
        const y = 32 + k * ROW;
        const now = i === position;
        const past = i <= position;
        const colour = differ?.has(i) ? OKABE_ITO[5] : now ? OKABE_ITO[4] : past ? "#333" : "#bbb";
        return (
          <g key={i} data-row={i} opacity={past ? 1 : 0.45}>
            <text x={6} y={y + 4} fontSize={10} fill="#555">{i + 1}</text>
            <line x1={host} x2={card - 4} y1={y} y2={y} stroke={colour} strokeWidth={now ? 2.5 : 1.2} markerEnd="url(#sd-arrow)" />
            <text x={(host + card) / 2} y={y - 4} textAnchor="middle" fontSize={11} fill={colour}>
              {label(r)}
            </text>
            {r.err ? (
              <text x={card - 8} y={y + 16} fontSize={11} fill={OKABE_ITO[5]} textAnchor="end">✕ {narrow ? "no answer" : answerWords(r)}</text>
            ) : (
              <>
                <line x1={card} x2={host + 4} y1={y + 12} y2={y + 12} stroke={colour} strokeDasharray="4 3" markerEnd="url(#sd-arrow)" />
                <text x={(host + card) / 2} y={y + 25} textAnchor="middle" fontSize={10} fill={colour}>{narrow ? answerWords(r).split(" ").slice(0, 3).join(" ") : answerWords(r)}</text>
              </>
            )}
            {r.state && <text x={card + 6} y={y + 4} fontSize={11} fill={colour}>{r.state}</text>}
          </g>
        );
      })}
      <defs>
        <marker id="sd-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" fill="context-stroke" />
        </marker>
      </defs>
    </svg>
    </div>
  );
}
