// /play/blk: the block-layer playground. Choose a device and fio-like jobs, predict how
// mq-deadline's tail latency compares with none's, then run both in the blk core (in a
// worker) and see each request's sector against time, the queue depth and the numbers.
// The URL holds every parameter, so a link reproduces the exact scenario.
import { useEffect, useMemo, useRef, useState } from "react";
import { blkClient } from "./blk-client";
import { useWorker } from "../../shared/useWorker";
import { DD_DEFAULTS, DEVICES, fioJobs, modelDdTimeline, type BlkResult, type FioPattern } from "./blk-core";
import { OffsetTimePlot } from "./OffsetTimePlot";
import { DeadlineQueues } from "./DeadlineQueues";
import { KyberDepths, KyberQueues } from "./KyberQueues";
import { TraceReplay } from "./TraceReplay";
import { KernelDeadline } from "./KernelDeadline";
import type { BlkSteps } from "./blk-core";
import { useParams } from "../../shared/useParams";
import { LinkProblems, ParamField } from "../../shared/view/ParamField";
import { BLK_PARAMS } from "./params";

const SIZES = { "4k": 4096, "64k": 65536, "1M": 1 << 20 } as const;
const SPANS = { "1M": 1 << 20, "4M": 4 << 20, "16M": 16 << 20, "64M": 64 << 20 } as const;
const MAX_REQUESTS = 200_000;
const STEPS = 400; // the step-through replays the start of the run

export interface BlkParams {
  device: keyof typeof DEVICES;
  rw: FioPattern["rw"];
  numjobs: number;
  iodepth: number;
  bs: keyof typeof SIZES;
  size: keyof typeof SPANS;
  fifo_batch: number;
  writes_starved: number;
  seed: number;
}





type Prediction = "lower" | "same" | "higher";

/** How mq-deadline's p99 latency compares with none's (within 5% counts as the same). */
export function tailVerdict(none: BlkResult, dd: BlkResult): { ratio: number; verdict: Prediction } {
  const op = none.summary.read.requests ? "read" : "write";
  const ratio = dd.summary[op].p99_us / none.summary[op].p99_us;
  return { ratio, verdict: ratio < 0.95 ? "lower" : ratio > 1.05 ? "higher" : "same" };
}

export function PlayBlk({ query }: { query: string }) {
  const params = useParams(BLK_PARAMS, query, "blk");
  const p: BlkParams = params.values;
  const [prediction, setPrediction] = useState<Prediction | null>(null);
  const [results, setResults] = useState<BlkResult[] | null>(null);
  const [steps, setSteps] = useState<BlkSteps | null>(null);
  const [kySteps, setKySteps] = useState<BlkSteps | null>(null);
  const worker = useWorker(blkClient);
  const { client, busy: running, error } = worker;

  const jobs = useMemo(() => fioJobs({ numjobs: p.numjobs, iodepth: p.iodepth, bs: SIZES[p.bs], rw: p.rw, size: SPANS[p.size] }), [p]);
  const requests = jobs.reduce((n, j) => n + j.ios, 0);
  const ddTimeline = useMemo(() => (steps ? modelDdTimeline(steps) : null), [steps]);

  const set = (k: keyof BlkParams, text: string) => {
    params.set(k, text);
    setResults(null);
    setSteps(null);
    setKySteps(null);
    setPrediction(null);
  };

  const run = () =>
    worker.run(async (c) => {
      const tunables = { ...DD_DEFAULTS, fifo_batch: p.fifo_batch, writes_starved: p.writes_starved };
      const scenario = { device: DEVICES[p.device], jobs, tunables, seed: p.seed };
      setResults(await c.run(scenario, ["none", "mq-deadline", "kyber", "bfq"]));
      setSteps(await c.steps(scenario, "mq-deadline", STEPS));
      setKySteps(await c.steps(scenario, "kyber", STEPS));
    });

  const tooMany = requests > MAX_REQUESTS;
  const timeMax = results ? Math.max(...results.map((r) => r.summary.elapsed_ms)) : 0;
  const sectorMax = jobs.length ? jobs[jobs.length - 1].offset + jobs[jobs.length - 1].span : 1;
  const verdict = results ? tailVerdict(results[0], results[1]) : null;
  const ms = (us: number) => (us / 1000).toFixed(2);

  return (
    <section className="play">
      <h1>Block layer: mq-deadline against none</h1>
      <p>
        fio-like jobs issue requests to a simulated device through blk-mq. With <code>none</code>, requests reach the
        device in the order they arrive; <code>mq-deadline</code> (as in <code>block/mq-deadline.c</code>) sorts them by
        sector in batches of <code>fifo_batch</code>, lets reads pass writes until writes have waited{" "}
        <code>writes_starved</code> times, and serves the oldest first once its deadline (500 ms for reads) has passed.
        <code> kyber</code> (<code>block/kyber-iosched.c</code>) does not sort: it gives reads and writes their own token
        pools, serves them round robin in batches (16 reads, 8 writes), and shrinks a domain's pool when reads miss their
        2 ms latency target. <code>bfq</code> (a small model of <code>block/bfq-iosched.c</code>: a queue per job, budgets
        in sectors under B-WF2Q+, the 125 ms budget timeout, 8 ms idling for a job's next request) serves one job at a
        time. Their rows and plots come along for comparison.
      </p>
      <form className="play-form" onSubmit={(e) => e.preventDefault()} aria-label="scenario">
        <LinkProblems problems={params.linkProblems} />
        <label>device <select value={params.raw.device} onChange={(e) => set("device", e.target.value)}>
          {Object.entries(DEVICES).map(([k, d]) => <option key={k} value={k}>{k}: {d.label}</option>)}
        </select></label>
        <label>rw <select value={params.raw.rw} onChange={(e) => set("rw", e.target.value)}>
          {["read", "randread", "write", "randwrite", "randrw"].map((v) => <option key={v}>{v}</option>)}
        </select></label>
        <ParamField name="numjobs" spec={BLK_PARAMS.numjobs} raw={params.raw.numjobs} error={params.errors.numjobs} label="numjobs" onChange={(t) => set("numjobs", t)} />
        <ParamField name="iodepth" spec={BLK_PARAMS.iodepth} raw={params.raw.iodepth} error={params.errors.iodepth} label="iodepth" onChange={(t) => set("iodepth", t)} />
        <label>bs <select value={params.raw.bs} onChange={(e) => set("bs", e.target.value)}>
          {Object.keys(SIZES).map((v) => <option key={v}>{v}</option>)}
        </select></label>
        <label>size per job <select value={params.raw.size} onChange={(e) => set("size", e.target.value)}>
          {Object.keys(SPANS).map((v) => <option key={v}>{v}</option>)}
        </select></label>
        <ParamField name="fifo_batch" spec={BLK_PARAMS.fifo_batch} raw={params.raw.fifo_batch} error={params.errors.fifo_batch} label="fifo_batch" onChange={(t) => set("fifo_batch", t)} />
        <ParamField name="writes_starved" spec={BLK_PARAMS.writes_starved} raw={params.raw.writes_starved} error={params.errors.writes_starved} label="writes_starved" onChange={(t) => set("writes_starved", t)} />
        <ParamField name="seed" spec={BLK_PARAMS.seed} raw={params.raw.seed} error={params.errors.seed} label="seed" onChange={(t) => set("seed", t)} />
        <span className="muted">{requests.toLocaleString()} requests{tooMany ? ` (more than ${MAX_REQUESTS.toLocaleString()}: make size smaller or bs larger)` : ""}</span>
      </form>

      <fieldset className="predict">
        <legend>Predict first: compared with none, mq-deadline's 99th-percentile latency will be</legend>
        {(["lower", "same", "higher"] as const).map((v) => (
          <label key={v}><input type="radio" name="prediction" value={v} checked={prediction === v} onChange={() => setPrediction(v)} /> {v === "same" ? "about the same (within 5%)" : v}</label>
        ))}
        <button type="button" onClick={run} disabled={running || tooMany || !params.valid}>{running ? "Running…" : prediction ? "Run and reveal" : "Run without predicting"}</button>
      </fieldset>
      {error && <p className="error" role="alert">{error}</p>}

      {results && verdict && (
        <div className="reveal" role="status" data-verdict={verdict.verdict} data-ratio={verdict.ratio.toFixed(4)}>
          <p>
            mq-deadline's p99 latency is <strong>{verdict.ratio.toFixed(2)}×</strong> none's: <strong>{verdict.verdict === "same" ? "about the same" : verdict.verdict}</strong>.
            {prediction && (prediction === verdict.verdict ? " Your prediction was right." : ` You predicted ${prediction}.`)}
          </p>
          <table className="files" aria-label="results">
            <thead><tr><th>scheduler</th><th>MB/s</th><th>time (ms)</th><th>read mean / p99 (ms)</th><th>write mean / p99 (ms)</th><th>head travel (sectors)</th></tr></thead>
            <tbody>
              {results.map((r) => (
                <tr key={r.summary.sched} data-sched={r.summary.sched}>
                  <td>{r.summary.sched}</td>
                  <td>{r.summary.mb_per_s.toFixed(1)}</td>
                  <td>{r.summary.elapsed_ms.toFixed(1)}</td>
                  <td>{ms(r.summary.read.mean_us)} / {ms(r.summary.read.p99_us)}</td>
                  <td>{ms(r.summary.write.mean_us)} / {ms(r.summary.write.p99_us)}</td>
                  <td>{r.summary.seek_sectors.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="plots">
            {results.map((r) => <OffsetTimePlot key={r.summary.sched} title={r.summary.sched} rows={r.rows} timeMaxMs={timeMax} sectorMax={sectorMax} />)}
          </div>
          <p className="muted">Dots: one request each, coloured by job. Same axes for every scheduler.</p>
          {ddTimeline && (
            <>
              <h2>Inside mq-deadline, step by step</h2>
              <DeadlineQueues timeline={ddTimeline} />
            </>
          )}
          {kySteps?.kyber && (
            <>
              <h2>Inside kyber, step by step</h2>
              <KyberQueues steps={kySteps} />
            </>
          )}
          {results[2]?.kyber && <KyberDepths runs={results[2].kyber} elapsedMs={results[2].summary.elapsed_ms} />}
        </div>
      )}
      <h2>A real trace from the guest, replayed</h2>
      <p>
        The guest's kernel traced its own block layer (<code>block_bio_queue</code>, <code>block_rq_insert</code>,{" "}
        <code>_issue</code>, <code>_complete</code> in <code>/sys/kernel/tracing</code>) while fio ran on a null_blk disk. The
        blk core replays the same requests under each scheduler; compare the queue times and the order with the kernel's.
      </p>
      <TraceReplay client={client} />
      <h2>mq-deadline in the kernel, decision by decision</h2>
      <p>
        Our kernel adds a tracepoint, <code>mq_deadline:dd_dispatch_request</code>: for each request mq-deadline hands on,
        why that direction (a batch going on, reads first, writes starved, only writes), why that request (next in sector
        order, an expired deadline, nothing further up) and its <code>batching</code> and <code>starved</code> counters. With
        the block events the page rebuilds the scheduler's lists before each decision and draws them in the view above; the
        model decides from the same lists, and the page marks where it chose otherwise.
      </p>
      <KernelDeadline client={client} />
    </section>
  );
}
