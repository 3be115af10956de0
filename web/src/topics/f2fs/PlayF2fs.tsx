// /play/f2fs: FxMark's unlink workloads on 1..120 simulated cores, upstream against each
// CLUE technique (the f2fs core, in a worker). Predict how many times faster all of CLUE is
// at 120 cores, then see the scaling curves, the numbers, where the cores waited, and when:
// per-core lock timelines of a few cores' runs, upstream beside CLUE.
// The guest VM has one CPU: this is where the scaling lesson happens.
import { useEffect, useMemo, useRef, useState } from "react";
import { f2fsClient } from "./f2fs-client";
import { useWorker } from "../../shared/useWorker";
import { benchWorkloadSteps, GUEST_NAT_BLOCKS, NAT_ENTRY_PER_BLOCK, type NidFrame } from "./nid";
import { FXMARK_COSTS, LOCKS, TIMELINE_MAX_SPANS, TIMELINE_ROWS, type FxmarkResult, type LockTrace, type Workload } from "./fxmark";
import { LockLegend, LockTimeline } from "./LockTimeline";
import { NatScanView } from "./NatScanView";
import { ScalingChart } from "../../shared/view/ScalingChart";
import { useParams } from "../../shared/useParams";
import { LinkProblems, ParamField } from "../../shared/view/ParamField";
import { checkParam, decimal, errorOf } from "../../shared/params";
import { F2FS_PARAMS } from "./params";

const CORES = [1, 2, 4, 8, 15, 30, 60, 120];
const CLUES = [0, 1, 2, 4, 7];
const NAMES: Record<number, string> = { 0: "upstream", 1: "optimistic (1)", 2: "heuristic (2)", 4: "lazy (4)", 7: "CLUE, all (7)" };
// the lock timelines: upstream beside all of CLUE, at one of these core counts, over the
// first this many µs of simulated time
const TL_CLUES = [0, 7];
/** a prediction: CLUE's speed-up over upstream */
const GUESS_SPEEDUP = decimal("your guess", 0, 1e6, 1);
const TL_CORES = F2FS_PARAMS.tl_cores.options!;
const TL_WINDOWS_US = F2FS_PARAMS.tl_us.options!;

export interface F2fsParams {
  workload: Workload;
  unlinks: number;
  remote_ns: number;
  nat_scan_ns: number;
  seed: number;
  tl_cores: number; // the lock timelines' core count
  tl_us: number; // and window
}


const costsOf = (p: F2fsParams) => ({ ...FXMARK_COSTS, remote_ns: p.remote_ns, nat_scan_ns: p.nat_scan_ns });


/** CLUE (7) over upstream (0) at the most cores */
export function speedupAtMost(results: FxmarkResult[]): number {
  const most = Math.max(...results.map((r) => r.cores));
  const at = (c: number) => results.find((r) => r.clue === c && r.cores === most)!.unlinks_per_sec;
  return at(7) / at(0);
}

export function PlayF2fs({ query }: { query: string }) {
  const params = useParams(F2FS_PARAMS, query, "f2fs");
  const p: F2fsParams = params.values;
  const [guess, setGuess] = useState("");
  const guessError = guess ? errorOf(GUESS_SPEEDUP, guess) : undefined;
  const [results, setResults] = useState<FxmarkResult[] | null>(null);
  const worker = useWorker(f2fsClient);
  const { client, busy: running, error, setError } = worker;

  // lock timelines of the scenario's runs; a newer request makes an older reply stale
  const [traces, setTraces] = useState<LockTrace[] | null>(null);
  const traceSeq = useRef(0);
  const requestTraces = (q: F2fsParams) => {
    const seq = ++traceSeq.current;
    setTraces(null);
    return client!.traces(q.workload, TL_CLUES, q.tl_cores, q.unlinks, costsOf(q), q.seed, { untilNs: q.tl_us * 1000 }).then((t) => {
      if (seq === traceSeq.current) setTraces(t);
    });
  };

  const set = (k: keyof F2fsParams, text: string) => {
    params.set(k, text);
    const c = checkParam(F2FS_PARAMS[k], text);
    const next = "value" in c ? { ...p, [k]: c.value } : null;
    // the timelines' own controls redraw them and keep the answer
    if (next && (k === "tl_cores" || k === "tl_us")) {
      if (results) requestTraces(next).catch((e) => setError(e instanceof Error ? e.message : String(e)));
      return;
    }
    setResults(null);
    traceSeq.current++;
    setTraces(null);
  };

  const run = () =>
    worker.run(async (c) => {
      // the worker answers in order: the sweep, then the timelines of two of its scenarios
      const [sweep] = await Promise.all([c.sweep(p.workload, CLUES, CORES, p.unlinks, costsOf(p), p.seed), requestTraces(p)]);
      setResults(sweep);
    });

  // the free-NID model through fslab-bench's f2fs-clue workload, on the guest volume's NAT
  const [nidClue, setNidClue] = useState<number | null>(null);
  const [frames, setFrames] = useState<NidFrame[] | null>(null);
  const runNid = async (clue: number) => {
    setNidClue(clue);
    setFrames(null);
    try {
      setFrames(await client!.nidFrames({ clue }, benchWorkloadSteps(8000, GUEST_NAT_BLOCKS * NAT_ENTRY_PER_BLOCK)));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const series = useMemo(
    () => (results ? CLUES.map((c) => ({ name: NAMES[c], points: results.filter((r) => r.clue === c).map((r) => ({ cores: r.cores, value: r.unlinks_per_sec })) })) : []),
    [results],
  );
  const speedup = results ? speedupAtMost(results) : 0;
  const guessed = Number(guess);

  return (
    <section className="play">
      <h1>F2FS unlink on many cores: upstream against CLUE</h1>
      <p>
        Every F2FS unlink may refill the free-NID list: a scan of the free-NID bitmap and of NAT entries under one
        filesystem-wide lock (<code>build_lock</code>). CLUE (our guest's <code>/sys/fs/f2fs/&lt;dev&gt;/clue</code>) checks
        first without the lock and lets one core scan the bitmap while others go on (1), starts each bitmap scan where the
        last stopped (2), and leaves the NAT scan to the checkpoint (4). FxMark's MWUL unlinks in private directories;
        MWUM in one shared directory, whose lock serializes every unlink. The costs are chosen to give the paper's shape
        on its 120-core, 8-socket server; a lock handed to another socket costs <code>remote_ns</code> more.
      </p>
      <form className="play-form" onSubmit={(e) => e.preventDefault()} aria-label="scenario">
        <LinkProblems problems={params.linkProblems} />
        <label>workload <select value={params.raw.workload} onChange={(e) => set("workload", e.target.value)}>
          <option value="MWUL">MWUL (private directories)</option>
          <option value="MWUM">MWUM (one shared directory)</option>
        </select></label>
        <ParamField name="unlinks" spec={F2FS_PARAMS.unlinks} raw={params.raw.unlinks} error={params.errors.unlinks} label="unlinks per core" onChange={(t) => set("unlinks", t)} />
        <ParamField name="remote_ns" spec={F2FS_PARAMS.remote_ns} raw={params.raw.remote_ns} error={params.errors.remote_ns} label="remote_ns" onChange={(t) => set("remote_ns", t)} />
        <ParamField name="nat_scan_ns" spec={F2FS_PARAMS.nat_scan_ns} raw={params.raw.nat_scan_ns} error={params.errors.nat_scan_ns} label="nat_scan_ns" onChange={(t) => set("nat_scan_ns", t)} />
        <ParamField name="seed" spec={F2FS_PARAMS.seed} raw={params.raw.seed} error={params.errors.seed} label="seed" onChange={(t) => set("seed", t)} />
      </form>
      <fieldset className="predict">
        <legend>Predict first: at 120 cores, how many times upstream's unlinks per second does CLUE (all three) reach?</legend>
        <ParamField name="guess" spec={GUESS_SPEEDUP} raw={guess} error={guessError} label="about" after=" times" ariaLabel="your guess" onChange={setGuess} />
        <button type="button" onClick={run} disabled={running || !params.valid || !!guessError}>{running ? "Running…" : guess ? "Run and reveal" : "Run without predicting"}</button>
      </fieldset>
      {error && <p className="error" role="alert">{error}</p>}
      {results && (
        <div className="reveal" role="status" data-speedup={speedup.toFixed(3)}>
          <p>
            At 120 cores CLUE reaches <strong>{speedup.toFixed(1)}×</strong> upstream in {p.workload}
            {guess && Number.isFinite(guessed) && guessed > 0 ? `; you guessed ${guessed}× (${guessed > speedup ? "over" : "under"} by ${Math.abs(guessed / speedup - 1) < 0.005 ? "nothing" : `${(Math.abs(guessed - speedup) / speedup * 100).toFixed(0)}%`}).` : "."}
            {" "}The paper reports about 15× for MWUL and 3× for MWUM.
          </p>
          <ScalingChart series={series} yLabel="unlinks per second" />
          <table className="files" aria-label="unlinks per second (thousands)">
            <thead><tr><th>clue</th>{CORES.map((c) => <th key={c}>{c}</th>)}</tr></thead>
            <tbody>
              {CLUES.map((c) => (
                <tr key={c} data-clue={c}>
                  <td>{NAMES[c]}</td>
                  {CORES.map((n) => <td key={n}>{(results.find((r) => r.clue === c && r.cores === n)!.unlinks_per_sec / 1000).toFixed(0)}k</td>)}
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Where 120 cores waited (ms, summed over cores)</h2>
          <table className="files" aria-label="lock waits at 120 cores">
            <thead><tr><th>clue</th>{LOCKS.map((l) => <th key={l}>{l} lock</th>)}<th>bitmap scans skipped</th><th>NAT scans deferred</th></tr></thead>
            <tbody>
              {CLUES.map((c) => {
                const r = results.find((x) => x.clue === c && x.cores === 120)!;
                return (
                  <tr key={c}>
                    <td>{NAMES[c]}</td>
                    {LOCKS.map((l) => <td key={l}>{r.wait_ms[l].toFixed(0)}</td>)}
                    <td>{r.scans_skipped}</td>
                    <td>{r.nat_deferred}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <h2>Lock waits over time: {p.tl_cores} cores, upstream against CLUE (7), {p.workload}</h2>
          <p>
            When each core waited for a lock and held one, from the start of the same runs ({p.tl_cores} cores, {p.unlinks} unlinks
            each) over the first {p.tl_us} µs of simulated time; at most {TIMELINE_ROWS} cores are drawn, so at more cores every
            n-th is shown (its number and socket on the left). All cores start together, so the first unlinks queue up at once.
            Each run keeps at most {TIMELINE_MAX_SPANS} spans per core.
          </p>
          <form className="lock-controls" aria-label="lock timelines" onSubmit={(e) => e.preventDefault()}>
            <label>cores <select value={params.raw.tl_cores} onChange={(e) => set("tl_cores", e.target.value)}>
              {TL_CORES.map((n) => <option key={n} value={n}>{n}</option>)}
            </select></label>
            <label>window <select value={params.raw.tl_us} onChange={(e) => set("tl_us", e.target.value)}>
              {TL_WINDOWS_US.map((n) => <option key={n} value={n}>first {n} µs</option>)}
            </select></label>
          </form>
          <LockLegend />
          {traces ? (
            <div className="lock-timelines">
              {traces.map((t) => <LockTimeline key={t.result.clue} trace={t} title={NAMES[t.result.clue]} />)}
            </div>
          ) : (
            <p className="muted">Tracing…</p>
          )}
        </div>
      )}
      <h2>The free-NID scan, step by step</h2>
      <p>
        What the locks above protect: the list of free node IDs a create takes from, refilled by scanning the free-NID
        bitmap and, when that is not enough, the NAT itself. The free-NID model (after <code>fs/f2fs/node.c</code> and our
        CLUE patch) runs the guest's <code>fslab-bench f2fs-clue</code> workload on the guest volume's {GUEST_NAT_BLOCKS} NAT
        blocks: 8000 creates, all removed, the shrinker, 8000 creates again. One caller at a time, so the optimistic bit
        changes nothing here; the heuristic (2) and the lazy update (4) do.
      </p>
      <fieldset className="toolbar" aria-label="clue mask for the free-NID model">
        <legend>clue</legend>
        {[0, 2, 4].map((c) => (
          <label key={c}>
            <input type="radio" name="nid-clue" checked={nidClue === c} onChange={() => runNid(c)} /> {NAMES[c]}
          </label>
        ))}
      </fieldset>
      {frames && <NatScanView key={nidClue ?? -1} frames={frames} natBlocks={GUEST_NAT_BLOCKS} />}
    </section>
  );
}
