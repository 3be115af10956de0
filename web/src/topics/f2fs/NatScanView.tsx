// F2FS's free-NID machinery after each operation that scanned: the NAT blocks as a strip (one
// column per block: has a NAT entry scan read it, nat_block_bitmap), the free NIDs each block
// has in its free_nid_bitmap (free_nid_count, shaded), the scans of this step drawn over them
// (bitmap scans above, NAT entry scans below), and the free-NID list's length against the
// thresholds that start and trim it. Step, play and scrub through the run.
import { useEffect, useMemo, useRef, useState } from "react";
import { FREE_NID_PAGES, MAX_FREE_NIDS, NAT_ENTRY_PER_BLOCK, type NidFrame } from "./nid";
import { NidScanPhase, type NidScan } from "./events";
import { StepControls } from "../../shared/view/StepControls";
import { densityWord, paintCells, rgbaWord } from "../../shared/view/paint";

const PHASE = ["bitmap", "nat", "deferred"];
const LOADED = rgbaWord("#555555");
const NOT_LOADED = rgbaWord("#eeeeee");
const SCAN_COLOUR = ["#0072B2", "#D55E00", "#CC79A7"];

/** The blocks a scan covered: [from, to) in block numbers, split where it wrapped. */
function spans(s: NidScan, blocks: number): Array<[number, number]> {
  const max = blocks * NAT_ENTRY_PER_BLOCK;
  const from = Math.floor(s.start / NAT_ENTRY_PER_BLOCK);
  if (s.phase === NidScanPhase.Deferred) return [[from, from + 1]];
  const end = s.end > s.start ? s.end : (s.start + Math.max(s.scanned, 1)) % max || max;
  const to = Math.ceil(end / NAT_ENTRY_PER_BLOCK);
  return to > from ? [[from, to]] : [[from, blocks], [0, Math.max(1, to)]];
}

export function NatScanView({ frames, natBlocks: all }: { frames: NidFrame[]; natBlocks: number }) {
  const [k, setK] = useState(0);
  const f = frames[Math.min(k, frames.length - 1)];
  // the strips show the NAT up to a little past the last block any step read or scanned
  const natBlocks = useMemo(() => {
    let last = 0;
    for (const x of frames) {
      x.state.loaded.forEach((l, b) => l && (last = Math.max(last, b)));
      for (const s of x.scans) last = Math.max(last, Math.floor(Math.max(s.start, s.end) / NAT_ENTRY_PER_BLOCK));
    }
    return Math.min(all, Math.max(32, Math.ceil(((last + 1) * 1.25) / 8) * 8));
  }, [frames, all]);
  const loaded = useRef<HTMLCanvasElement>(null);
  const free = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    paintCells(loaded.current!.getContext("2d")!, Uint32Array.from(f.state.loaded.subarray(0, natBlocks), (l) => (l ? LOADED : NOT_LOADED)), natBlocks, 1);
    paintCells(free.current!.getContext("2d")!, Uint32Array.from(f.state.freeCount.subarray(0, natBlocks), (n) => densityWord(n, NAT_ENTRY_PER_BLOCK)), natBlocks, 1);
  }, [f, natBlocks]);
  const pct = (b: number) => `${(100 * b) / natBlocks}%`;
  const listMax = Math.max(2 * MAX_FREE_NIDS, ...frames.map((x) => x.state.free));
  const loadedBlocks = f.state.loaded.reduce((n, l) => n + l, 0);
  const opName = f.op ? f.op.op : "mount";

  return (
    <div className="nat-view" data-testid="nat-view">
      <StepControls total={frames.length - 1} position={k} onChange={setK} unit="scan" />
      <p data-testid="nat-step">
        <strong>{f.step}</strong>, at a {opName === "sync" ? "sync (writeback's f2fs_balance_fs_bg, then a checkpoint)" : opName === "alloc" ? "create (f2fs_alloc_nid)" : opName}:
      </p>
      <ul className="nat-scans" data-testid="nat-scans">
        {f.scans.map((s, i) => (
          <li key={i} style={{ borderLeftColor: SCAN_COLOUR[s.phase] }}>
            {PHASE[s.phase]} scan {s.phase === NidScanPhase.Deferred ? `deferred at NID ${s.start}` : `from NID ${s.start} to ${s.end}: ${s.scanned} examined, ${s.found} free NIDs found`}
          </li>
        ))}
      </ul>
      <div className="nat-strips" role="img" aria-label={`the first ${natBlocks} of ${all} NAT blocks, ${loadedBlocks} read by NAT entry scans; this step's scans: ${f.scans.map((s) => PHASE[s.phase]).join(", ")}`}>
        <div className="nat-row"><span>scans</span>
          <div className="nat-track">
            {f.scans.flatMap((s, i) =>
              spans(s, all).filter(([a]) => a < natBlocks).map(([a, b], j) => (
                <span key={`${i}-${j}`} className="nat-scan" title={PHASE[s.phase]} style={{ left: pct(a), width: pct(Math.min(b, natBlocks) - a), background: SCAN_COLOUR[s.phase], top: s.phase === NidScanPhase.Bitmap ? 0 : "50%" }} />
              )),
            )}
          </div>
        </div>
        <div className="nat-row"><span>read</span><canvas ref={loaded} className="nat-canvas" /></div>
        <div className="nat-row"><span>free NIDs</span><canvas ref={free} className="nat-canvas" /></div>
        <div className="nat-row"><span /><div className="nat-axis"><span>block 0, NID 0</span><span>block {natBlocks / 2}</span><span>block {natBlocks}, NID {natBlocks * NAT_ENTRY_PER_BLOCK}{natBlocks < all ? ` (of ${all} blocks; the rest untouched)` : ""}</span></div></div>
      </div>
      <div className="nat-list" aria-label="the free-NID list">
        free-NID list: <strong data-testid="nat-free">{f.state.free}</strong> NIDs
        <div className="gauge">
          <span className="gauge-fill" style={{ width: `${(100 * f.state.free) / listMax}%` }} />
          <span className="gauge-mark" style={{ left: `${(100 * NAT_ENTRY_PER_BLOCK) / listMax}%` }} title="below this a background call builds" />
          <span className="gauge-mark" style={{ left: `${(100 * MAX_FREE_NIDS) / listMax}%` }} title="the shrinker trims down to this" />
        </div>
        <span className="muted">
          marks: {NAT_ENTRY_PER_BLOCK} (below it, a background call scans) and MAX_FREE_NIDS {MAX_FREE_NIDS} (the shrinker's floor, {FREE_NID_PAGES} blocks' worth)
        </span>
      </div>
      <table className="files" aria-label="counters so far" data-testid="nat-counters">
        <thead><tr><th>bitmap scans</th><th>NAT scans</th><th>deferred</th><th>skipped</th><th>NIDs examined</th><th>NAT blocks read</th></tr></thead>
        <tbody>
          <tr>
            <td>{f.state.counters.bitmap_scans}</td><td>{f.state.counters.nat_scans}</td><td>{f.state.counters.nat_deferred}</td>
            <td>{f.state.counters.scans_skipped}</td><td>{f.state.counters.nids_scanned}</td><td>{loadedBlocks}</td>
          </tr>
        </tbody>
      </table>
      <p className="muted">
        Strips: one column per NAT block ({NAT_ENTRY_PER_BLOCK} NIDs). "read": dark once a NAT entry scan has read the block;
        "free NIDs": its free_nid_bitmap's count, light (none) to dark (all {NAT_ENTRY_PER_BLOCK}). Scans: blue the bitmap scan,
        orange the NAT entry scan, purple a deferred one. Counters count from the reset after the mount.
      </p>
    </div>
  );
}
