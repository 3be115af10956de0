// The empty-entry search sweeping across a directory, one create at a time, with the hint and
// without: each create's search(es) drawn over the directory's 32-byte slots (the entries it
// examined underlined, from the hint or from slot 0), and where the new entry set went, in the
// same SlotStrip as the whole directories. Steps through the creates dirSweeps kept.
import { useState } from "react";
import type { DirSweep as Sweep } from "./exfat-dir";
import { StepControls } from "../../shared/view/StepControls";
import { PLACED, SlotStrip } from "./SlotStrip";

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
      {/* a position per kept create, counted from 1 as the creates are ("Create 1" at the first) */}
      <StepControls total={total - 1} position={at} onChange={setK} unit={total < hint.at(-1)!.create ? "kept create" : "create"} items />
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
            <SlotStrip
              run={s}
              testId={`sweep-strip-${i === 0 ? 1 : 0}`}
              placed={{ start: s.slot, count: s.entries }}
              underlined={s.searches.map((q) => ({ start: q.start, count: q.examined }))}
            />
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
