// The empty-entry search sweeping across a directory, one create at a time, with the hint and
// without: each create's search(es) drawn over the directory's 32-byte slots (the entries it
// examined outlined, from the hint or from slot 0), and where the new entry set went. Steps
// through the script's first creates (dirSweeps in the exfat worker).
import { useEffect, useRef, useState } from "react";
import type { DirSweep as Sweep } from "../cores/exfat-dir";
import { StepControls } from "./StepControls";

const SLOT_COLOURS = ["#e8e8e8", "#E69F00", "#0072B2"]; // unused, deleted, in use (as SlotStrip)
const EXAMINED = "#000000";
const PLACED = "#CC79A7";
const W = 4;
const H = 9;

function SweepStrip({ s, testId }: { s: Sweep; testId: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const per = s.slots.length / s.clusters;
  useEffect(() => {
    const c = ref.current!;
    const ratio = window.devicePixelRatio || 1;
    c.width = per * W * ratio;
    c.height = s.clusters * (H + 2) * ratio;
    const g = c.getContext("2d")!;
    g.scale(ratio, ratio);
    const at = (i: number): [number, number] => [(i % per) * W, Math.floor(i / per) * (H + 2)];
    s.slots.forEach((v, i) => {
      const [x, y] = at(i);
      g.fillStyle = i >= s.slot && i < s.slot + s.entries ? PLACED : SLOT_COLOURS[v];
      g.fillRect(x, y, W - 0.5, H);
    });
    // the examined entries: a line under each
    g.fillStyle = EXAMINED;
    for (const q of s.searches)
      for (let i = q.start; i < q.start + q.examined && i < s.slots.length; i++) {
        const [x, y] = at(i);
        g.fillRect(x, y + H - 2, W - 0.5, 2);
      }
  }, [s, per]);
  return <canvas ref={ref} style={{ width: per * W, height: s.clusters * (H + 2) }} aria-hidden="true" data-testid={testId} />;
}

const words = (s: Sweep) =>
  s.searches
    .map((q) => `examined ${q.examined} from slot ${q.start}${q.result === null ? ", found no room (the directory grows a cluster)" : `, found room at ${q.result}`}`)
    .join("; then ");

export function DirSweepView({ sweeps }: { sweeps: Sweep[][] }) {
  const [hint, old] = sweeps;
  const total = Math.min(hint.length, old.length);
  const [k, setK] = useState(0);
  const at = Math.min(k, total - 1);
  if (total === 0) return null;
  return (
    <div className="dir-sweep" data-testid="dir-sweep">
      <h3>The search, create by create</h3>
      <StepControls total={total - 1} position={at} onChange={setK} unit="create" />
      <p data-testid="sweep-op">
        Create {hint[at].create}: <code>{hint[at].name}</code> ({hint[at].entries} entries).
      </p>
      <div className="plots">
        {[hint[at], old[at]].map((s, i) => (
          <figure key={i} className="offset-plot">
            <figcaption>
              <strong>{i === 0 ? "with the hint" : "without"}</strong>: <span data-testid={`sweep-${i === 0 ? 1 : 0}`}>{words(s)}</span>; placed at{" "}
              {s.slot}.
            </figcaption>
            <SweepStrip s={s} testId={`sweep-strip-${i === 0 ? 1 : 0}`} />
          </figure>
        ))}
      </div>
      <p className="muted">
        Underlined: the entries this create's search examined; <span className="swatch" style={{ background: PLACED }} /> the entry
        set it made. {total} of the script's creates
        {total < hint.at(-1)!.create ? ` (the first ${hint.findIndex((s, i) => s.create !== i + 1) < 0 ? total : hint.findIndex((s, i) => s.create !== i + 1)} and the last ones: each step keeps a copy of the directory)` : ""}.
      </p>
    </div>
  );
}
