// The exfat-empty-hint code step's divergence in the lab's own drawing: the directory as it
// stood before the create where the learner's exfat_set_empty_hint() parted from the kernel,
// each side's searches underlined on its slots (from the hint, or from entry 0) and where the
// entry set went, as the directory view's step-through draws a create. Loaded only when a grade
// diverges (the manifest's graders.specs[].moment).
import { useMemo } from "react";
import type { GradeMomentProps } from "../../shared/grade";
import { dirSlotsBefore, hintRun, searchesOf, searchText, type Search } from "./grader";
import { PLACED, SlotStrip } from "./SlotStrip";

const CODE: Record<string, number> = { unused: 0, deleted: 1, "in use": 2 };

export function HintMoment({ trace, stdout, at }: GradeMomentProps) {
  const shown = useMemo(() => {
    try {
      const ctx = hintRun(trace);
      const create = ctx.ops.filter((o) => o.op === "c")[at - 1];
      if (!create || create.op !== "c") return null;
      const { slots } = dirSlotsBefore(ctx, at - 1);
      const side = (searches: Search[]) => {
        // each search that found no room grew the directory by a cluster before the next
        const grown = searches.filter((s) => s[2] < 0).length;
        const all = Uint8Array.from([...slots.map((x) => CODE[x]), ...new Array(grown * ctx.dentriesPerClu).fill(0)]);
        const slot = searches.at(-1)?.[2] ?? -1;
        return {
          run: { slots: all, clusters: all.length / ctx.dentriesPerClu },
          underlined: searches.map((s) => ({ start: Math.max(0, s[1]), count: s[0] })),
          placed: slot >= 0 ? { start: slot, count: create.entries } : undefined,
          words: searches.length ? searches.map(searchText).join("; then ") : "no search",
        };
      };
      const line = stdout.trim().split("\n")[at - 1] ?? "";
      return { name: create.name, entries: create.entries, sides: [side(create.searches), side(searchesOf(line))] };
    } catch {
      return null; // the grade said what it could; the drawing has nothing more to add
    }
  }, [trace, stdout, at]);
  if (!shown) return null;
  return (
    <div className="dir-sweep" data-testid="hint-moment">
      <p>
        Create {at}: <code>{shown.name}</code> ({shown.entries} entries), in the directory as it stood.
      </p>
      <div className="plots">
        {shown.sides.map((s, i) => (
          <figure key={i} className="offset-plot">
            <figcaption>
              <strong>{i === 0 ? "the kernel" : "your function"}</strong>: <span data-testid={`moment-${i === 0 ? "kernel" : "yours"}`}>{s.words}</span>
            </figcaption>
            <SlotStrip run={s.run} testId={`moment-strip-${i === 0 ? "kernel" : "yours"}`} placed={s.placed} underlined={s.underlined} />
          </figure>
        ))}
      </div>
      <p className="muted">
        Underlined: the entries each search examined; <span className="swatch" style={{ background: PLACED }} /> the entry set it made.
      </p>
    </div>
  );
}
