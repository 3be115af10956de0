// The real kernel's free-NID scans (f2fs_free_nid_scan, streamed live from the guest), one
// run per mount, each set against the free-NID model running the lab's steps under upstream
// (clue 0) and the lazy NAT update (clue 4): record for record, with the first difference
// shown when they part.
import { useEffect, useMemo, useState } from "react";
import { f2fsClient } from "./f2fs-client";
import { useWorker } from "../../shared/useWorker";
import { nidScansOf, NidScanPhase, type NidScan } from "./events";
import { oneWriterScript, type NidOp, type NidRun } from "./nid";
import type { TraceStats } from "../../shared/machine";
import { NidScanStrip } from "./NidScanStrip";
import type { Verdict } from "../../shared/verdict";
import { useVerdict } from "../../shared/verdict";

const PHASE = ["bitmap", "nat", "deferred"];
const CLUES = [0, 4];
const show = (r?: { scan: NidScan; times: number }) =>
  r
    ? `${PHASE[r.scan.phase]} ${r.scan.start}→${r.scan.end}, ${r.scan.scanned} examined, ${r.scan.found} found${r.scan.sync ? ", for a caller that could not wait" : ""}${r.times > 1 ? ` (×${r.times} in a row)` : ""}`
    : "(none)";
const same = (a: NidScan, b: NidScan) => a.phase === b.phase && a.start === b.start && a.end === b.end && a.scanned === b.scanned && a.found === b.found;

/** The kernel's scans cut into runs, each starting at a mount's NAT scan from NID 0. */
export function runsOfScans(scans: NidScan[]): NidScan[][] {
  const runs: NidScan[][] = [];
  for (const s of scans) {
    if (s.phase === NidScanPhase.Nat && s.start === 0) runs.push([]);
    runs.at(-1)?.push(s);
  }
  return runs;
}

/**
 * A scan with how many times it came in a row. A sync makes three background calls into the
 * free-NID code, sometimes four, depending on how writeback batches the node pages; while
 * the lazy update owes a NAT scan each one repeats a bitmap scan that finds nothing. Runs of
 * such identical records count once, so the comparison holds whether there were 3 or 4.
 */
interface Repeated {
  scan: NidScan;
  times: number;
}

export function collapseRepeats(scans: NidScan[]): Repeated[] {
  const out: Repeated[] = [];
  for (const s of scans) {
    const last = out.at(-1);
    if (last && s.phase === NidScanPhase.Bitmap && s.found === 0 && same(last.scan, s)) last.times++;
    else out.push({ scan: s, times: 1 });
  }
  return out;
}

/** The index of the first record where a run leaves a model (-1: the run is the model's so far, a prefix or all of it). */
function firstDiff(run: Repeated[], model: Repeated[]): number {
  for (let i = 0; i < run.length; i++) if (!model[i] || !same(run[i].scan, model[i].scan)) return i;
  return -1;
}

/**
 * The lab's steps with this learner's numbers (its `seed:` values `files` and `sync_every`; a
 * page without them, the lab's first version: 4000 files, a sync every 500).
 */
export function labScript(seed?: Readonly<Record<string, number | string>>): NidOp[] {
  const n = (v: unknown, d: number) => (typeof v === "number" && Number.isInteger(v) && v > 0 && v <= 20_000 ? v : d);
  return oneWriterScript(n(seed?.files, 4000), n(seed?.sync_every, 500));
}

/** The free-NID model's runs of the lab's steps under each of CLUES (null until they are in), for this panel and the disk's. */
export function useLabNidRuns(script: NidOp[]): NidRun[] | null {
  const { client } = useWorker(f2fsClient);
  const [runs, setRuns] = useState<NidRun[] | null>(null);
  const key = JSON.stringify(script);
  useEffect(() => {
    if (!client) return;
    Promise.all(CLUES.map((clue) => client.nidRun({ clue }, JSON.parse(key) as NidOp[]))).then(setRuns, () => setRuns(null));
  }, [client, key]);
  return runs;
}

/** The model's run under clue (one of CLUES). */
export const runUnder = (runs: NidRun[] | null, clue: number) => runs?.[CLUES.indexOf(clue)] ?? null;

export function KernelNidScans({ events, stats, modelRuns, onVerdict }: { events: Uint32Array; stats: TraceStats | null; modelRuns: NidRun[] | null; onVerdict?: (v: Verdict) => void }) {
  const models = useMemo(() => modelRuns?.map((r) => collapseRepeats(r.scans)) ?? null, [modelRuns]);
  const runs = useMemo(() => runsOfScans(nidScansOf(events)).map(collapseRepeats), [events]);
  // one NID scale for every strip: as far as any scan, kernel's or model's, reached
  // the newest mount's run against the model: what a lab's `verdict: f2fs-nid` waits for
  const last = runs.at(-1);
  const lastDiffs = last ? (models?.map((m) => firstDiff(last, m)) ?? []) : [];
  const lastWhole = last ? lastDiffs.findIndex((d, i) => d < 0 && last.length === models![i].length) : -1;
  useVerdict(
    onVerdict,
    !last || !models
      ? { state: "waiting", detail: "no mount's free-NID scans yet" }
      : lastWhole >= 0
        ? { state: "agree", detail: `mount ${runs.length}'s free-NID scans are the model's under clue ${CLUES[lastWhole]}, record for record` }
        : lastDiffs.every((d) => d >= 0)
          ? { state: "disagree", detail: `mount ${runs.length}'s free-NID scans part from every model run` }
          : { state: "waiting", detail: `mount ${runs.length}'s scans follow the model so far` },
  );
  const maxNid = useMemo(() => Math.max(1, ...[...runs.flat(), ...(models ?? []).flat()].map(({ scan: s }) => Math.max(s.start, s.end))), [runs, models]);

  return (
    <section className="panel" aria-label="Free-NID scans of the real kernel" data-testid="kernel-nid-scans">
      <h2>The kernel's free-NID scans (live) against the model</h2>
      {!stats ? (
        <p className="muted">Nothing yet. Run the commands of the lab's step "A volume, traced from its mount": they stream <code>f2fs_free_nid_scan</code> from before the mount.</p>
      ) : (
        <>
          {stats.lost > 0 && <p className="error">{stats.lost} trace lines were lost on the way.</p>}
          {!!stats.overrun && <p className="error">The kernel's trace buffer dropped {stats.overrun} events.</p>}
          {runs.length === 0 && <p className="muted">No mount seen yet.</p>}
          {runs.map((run, r) => {
            const diffs = models?.map((m) => firstDiff(run, m)) ?? [];
            const whole = diffs.findIndex((d, i) => d < 0 && run.length === models![i].length);
            // the model this run follows furthest (a run with no difference yet follows it all the way)
            const reach = diffs.map((d) => (d < 0 ? Infinity : d));
            const best = reach.length ? reach.indexOf(Math.max(...reach)) : -1;
            const full: Repeated[] = best >= 0 ? models![best] : [];
            const at = best >= 0 ? diffs[best] : -1;
            // the model only as far as the kernel has got (and the record where they part): its
            // records still to come would answer a prediction about this run before it is made
            const model = full.slice(0, Math.max(run.length, at + 1));
            return (
              <div key={r} className="nid-run" data-testid={`nid-run-${r}`} data-match={whole >= 0 ? CLUES[whole] : "none"}>
                <h3>Mount {r + 1}: {run.reduce((n, x) => n + x.times, 0)} scans</h3>
                <p data-testid={`nid-verdict-${r}`}>
                  {whole >= 0
                    ? `Verdict: the kernel did what the model's run of the lab's steps under clue ${CLUES[whole]} does, record for record (repeated empty bitmap scans counted once).`
                    : at < 0 && best >= 0
                      ? // not "of N": the model's total would answer a prediction of the run still to come
                        `So far the model's run under clue ${CLUES[best]} (${run.length} record${run.length === 1 ? "" : "s"} alike).`
                      : best >= 0
                        ? `Parts from the model under clue ${CLUES[best]} at record ${at + 1}: kernel ${show(run[at])}; model ${show(model[at])}.`
                        : "The model is still running."}
                </p>
                <div className="plots">
                  <NidScanStrip scans={run.map((x) => x.scan)} maxNid={maxNid} title="kernel (live)" />
                  <NidScanStrip scans={model.map((x) => x.scan)} maxNid={maxNid} title={`model${best >= 0 ? `, clue ${CLUES[best]}` : ""}`} />
                </div>
                <table className="files" aria-label={`mount ${r + 1}'s scans, kernel and model`}>
                  <thead><tr><th>#</th><th>kernel</th><th>model{best >= 0 ? ` (clue ${CLUES[best]})` : ""}</th></tr></thead>
                  <tbody>
                    {Array.from({ length: Math.max(run.length, model.length) }, (_, i) => (
                      <tr key={i} className={run[i] && model[i] && same(run[i].scan, model[i].scan) ? "" : "differs"}>
                        <td>{i + 1}</td><td>{show(run[i])}</td><td>{show(model[i])}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          })}
        </>
      )}
    </section>
  );
}
