// Free-NID scans as rows of bars over the NID space, one row per scan in order: where each
// began and stopped, bitmap scans blue, NAT entry scans orange, deferred ones a purple tick.
// The same picture for the model's scans and for the kernel's streamed live (the newest row
// last, scrolled into view as it arrives), so the two can be laid side by side.
import { useEffect, useRef } from "react";
import { scaleLinear } from "d3";
import { NidScanPhase, type NidScan } from "./events";
import "./NidScanStrip.css";

const COLOUR = ["#0072B2", "#D55E00", "#CC79A7"];
const PHASE = ["bitmap", "nat", "deferred"];
const ROW = 9;

export function NidScanStrip({ scans, maxNid, title }: { scans: NidScan[]; maxNid: number; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.scrollTo({ top: box.current.scrollHeight }); // follow the newest
  }, [scans.length]);
  const W = 300;
  const x = scaleLinear().domain([0, Math.max(1, maxNid)]).range([4, W - 4]);
  return (
    <figure className="nid-strip" data-testid="nid-strip" data-scans={scans.length}>
      <figcaption>{title}</figcaption>
      <div ref={box} style={{ maxHeight: "10rem", overflowY: "auto" }}>
        <svg viewBox={`0 0 ${W} ${Math.max(1, scans.length) * ROW + 4}`} width="100%" role="img" aria-label={`${title}: ${scans.length} scans`}>
          {scans.map((s, i) => {
            const to = s.end > s.start ? s.end : s.phase === NidScanPhase.Deferred ? s.start : Math.min(maxNid, s.start + Math.max(s.scanned, 1));
            return (
              <g key={i}>
                <title>{`${i + 1}: ${PHASE[s.phase]} ${s.start}→${s.end}, ${s.scanned} examined, ${s.found} found`}</title>
                <rect x={x(s.start)} y={i * ROW + 2} width={Math.max(2, x(to) - x(s.start))} height={ROW - 2} fill={COLOUR[s.phase]} />
              </g>
            );
          })}
        </svg>
      </div>
    </figure>
  );
}
