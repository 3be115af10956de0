// An exFAT directory's 32-byte entry slots, twice: with the Linux 6.2 empty-entry hint and
// without it, after the same creates and removes (the exfat core's directory model, in the
// worker). Each row of the strip is one 4 KiB cluster of 128 slots. Under it, the entries
// the empty-entry search examined for each create, and a table of the totals.
import { useEffect, useMemo, useRef, useState } from "react";
import { line, max, scaleLinear, select, axisLeft } from "d3";
import { exfatClient, type ExfatClient } from "./exfat-client";
import { useWorker } from "../../shared/useWorker";
import type { DirRun, DirSweep } from "./exfat-dir";
import type { HeldAnswer } from "../../shared/topic";
import { DirSweepView } from "./DirSweep";
import { OKABE_ITO } from "../../shared/view/palette";
import { SLOT_COLOURS, SlotStrip } from "./SlotStrip";
import "./exfat.css";

function ExaminedChart({ runs }: { runs: DirRun[] }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    const W = 520, H = 150, M = { l: 56, r: 70, t: 8, b: 20 };
    const series = runs.map((r) => Array.from({ length: r.events.length / 4 }, (_, i) => r.events[i * 4 + 1]));
    const n = max(series, (s) => s.length) || 1;
    const x = scaleLinear().domain([0, Math.max(1, n - 1)]).range([M.l, W - M.r]);
    const y = scaleLinear().domain([0, max(series.flat()) || 1]).range([H - M.b, M.t]);
    const svg = select(ref.current!);
    svg.selectAll("*").remove();
    svg.append("g").attr("transform", `translate(${M.l},0)`).call(axisLeft(y).ticks(4, "~s"));
    svg.append("text").attr("x", M.l).attr("y", H - 4).attr("font-size", 11).text("each search, in order →");
    series.forEach((s, k) => {
      const colour = OKABE_ITO[k === 0 ? 4 : 5];
      svg.append("path").attr("d", line<number>().x((_, i) => x(i)).y((v) => y(v))(s) ?? "").attr("fill", "none").attr("stroke", colour).attr("stroke-width", 1.5);
      if (s.length) svg.append("text").attr("x", x(s.length - 1) + 4).attr("y", y(s[s.length - 1]) + 4).attr("font-size", 11).attr("fill", colour).text(runs[k].emptyHint ? "hint" : "no hint");
    });
  }, [runs]);
  return <svg ref={ref} width={520} height={150} role="img" aria-label="entries examined by each empty-entry search, with and without the hint" style={{ maxWidth: "100%" }} />;
}

/** Whether a total of `runs` is held (`held`: the totals still to be given; null: not known yet, so all). */
export const runsHeld = (runs: readonly DirRun[], held: readonly number[] | null) => held === null || runs.some((r) => held.includes(r.examined));

/**
 * Both runs (with and without the hint): slots, entries examined per search, totals. `held`:
 * totals not to print, the answers a learner has still to give (null: not known yet, so all).
 */
export function DirRunsView({ runs, held = [] }: { runs: DirRun[]; held?: readonly number[] | null }) {
  return (
    <div className="dir-runs" data-testid="dir-runs">
      <p className="muted">
        Slots: <span className="swatch" style={{ background: SLOT_COLOURS[2] }} /> in use{" "}
        <span className="swatch" style={{ background: SLOT_COLOURS[1] }} /> deleted{" "}
        <span className="swatch" style={{ background: SLOT_COLOURS[0] }} /> unused; a row is one 4 KiB cluster of 128 entries.
        A short name takes 3 entries (file, stream extension, name), a name of 16–30 characters 4.
      </p>
      <div className="plots">
        {runs.map((r) => (
          <figure key={String(r.emptyHint)} className="offset-plot">
            <figcaption><strong>{r.emptyHint ? "empty_hint=1 (Linux 6.2+)" : "empty_hint=0 (before 6.2)"}</strong></figcaption>
            <SlotStrip run={r} />
          </figure>
        ))}
      </div>
      {/* each search's count would add up to a held total: the chart waits with it */}
      {runsHeld(runs, held) ? (
        <p className="muted" data-testid="dir-chart-held">
          Each search&apos;s count, drawn here, waits with the total it adds up to.
        </p>
      ) : (
        <ExaminedChart runs={runs} />
      )}
      <table className="files" aria-label="empty-entry search totals">
        <thead><tr><th>empty_hint</th><th>searches</th><th>entries examined</th><th>per search</th><th>clusters</th></tr></thead>
        <tbody>
          {runs.map((r) => {
            const searches = r.events.length / 4;
            // the per-search figure times the searches is the total: both are held
            const hold = runsHeld([r], held);
            return (
              <tr key={String(r.emptyHint)} data-hint={r.emptyHint ? 1 : 0}>
                <td>{r.emptyHint ? 1 : 0}</td>
                <td>{searches}</td>
                {hold ? (
                  <td colSpan={2} data-testid={`examined-${r.emptyHint ? 1 : 0}`} data-held="1" className="muted">
                    held: {held === null ? "the model is checking it against" : "it answers"} a prediction or question of this lab you have not given yet
                  </td>
                ) : (
                  <>
                    <td data-testid={`examined-${r.emptyHint ? 1 : 0}`}>{r.examined}</td>
                    <td>{searches ? (r.examined / searches).toFixed(1) : "-"}</td>
                  </>
                )}
                <td>{r.clusters}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The directory model as a lab shows it. `held`: the lab's keyed answers about directory runs
 * (exfat.dir-examined) the learner has still to give; a run built with the buttons that comes to
 * one of them (the lab's own steps, rebuilt) shows its totals only once it is given.
 */
export function DirectoryView({ held = [] }: { held?: readonly HeldAnswer[] }) {
  const { client } = useWorker(exfatClient);
  const heldTotals = useHeldTotals(client, held);
  const [ops, setOps] = useState<string[]>([]);
  const [runs, setRuns] = useState<DirRun[] | null>(null);
  const [sweeps, setSweeps] = useState<DirSweep[][] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!client) return;
    client.dir(ops).then(setRuns, (e) => setError(e.message));
    client.dirSweeps(ops).then(setSweeps, (e) => setError(e.message));
  }, [client, ops]);

  const live = (o: string[]) => new Set(o.filter((x) => x[0] === "+").map((x) => x.slice(1)).filter((n) => !o.includes(`-${n}`)));
  const createShort = (k: number) => setOps((o) => [...o, ...Array.from({ length: k }, (_, i) => `+f${o.length + i + 1}`)]);
  const createLong = (k: number) => setOps((o) => [...o, ...Array.from({ length: k }, (_, i) => `+file-with-long-name-${o.length + i + 1}`)]);
  const removeEveryThird = () => setOps((o) => [...o, ...[...live(o)].filter((_, i) => i % 3 === 2).map((n) => `-${n}`)]);

  return (
    <section className="exfat-view" aria-label="exFAT directory entries model" data-testid="dir-view">
      <h2>exFAT directory entries (model)</h2>
      <div className="toolbar">
        <button onClick={() => createShort(10)}>Create 10 files</button>
        <button onClick={() => createShort(100)}>Create 100 files</button>
        <button onClick={removeEveryThird}>Remove every third file</button>
        <button onClick={() => createLong(10)}>Create 10 long names</button>
        <button onClick={() => setOps([])}>Reset</button>
      </div>
      {error && <p className="error">{error}</p>}
      {runs && <DirRunsView runs={runs} held={heldTotals} />}
      {sweeps && runs && runsHeld(runs, heldTotals) && (
        <p className="muted" data-testid="dir-sweep-held">
          The search create by create waits too: its counts add up to the held total.
        </p>
      )}
      {sweeps && runs && !runsHeld(runs, heldTotals) && <DirSweepView key={ops.length} sweeps={sweeps} />}
    </section>
  );
}

/** the model of the keys whose answers are directory totals (answers.ts) */
export const DIR_EXAMINED = "exfat.dir-examined";

/** The held keys' answers (exfat.dir-examined), as the key computes them (answers.ts, in the worker); null until it has. */
export function useHeldTotals(client: ExfatClient | null, held: readonly HeldAnswer[]): number[] | null {
  const keys = JSON.stringify(held.filter((k) => k.model === DIR_EXAMINED).map((k) => k.params));
  const [totals, setTotals] = useState<{ keys: string; totals: number[] } | null>(null);
  useEffect(() => {
    if (!client) return;
    let stale = false;
    const answers = (JSON.parse(keys) as HeldAnswer["params"][]).map((p) => client.answer("dir-examined", p).then(Number));
    Promise.all(answers).then((t) => stale || setTotals({ keys, totals: t }), () => stale || setTotals({ keys, totals: [] }));
    return () => {
      stale = true;
    };
  }, [client, keys]);
  if (keys === "[]") return [];
  return totals?.keys === keys ? totals.totals : null;
}
