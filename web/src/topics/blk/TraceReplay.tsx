// A block trace from the guest, replayed: the kernel's own run (block_rq_insert, _issue,
// _complete) beside the blk core replaying the same arrivals under none, mq-deadline, kyber
// and bfq, on the service times the kernel measured (and the waits it left a tag free before a
// queue run). Same numbers, same offset-vs-time plots for kernel and model.
import { useMemo } from "react";
import type { BlkClient, BlkReplay } from "./blk-client";
import { BlkOp } from "../../shared/events";
import { ROW, ROW_WIDTH, type Scheduler } from "./blk-core";
import { kernelRows } from "./trace-kernel";
import { fetchBytes } from "../../shared/gunzip";
import { useTraceFile } from "./useTraceFile";
import { OffsetTimePlot } from "./OffsetTimePlot";

const SCHEDS: Scheduler[] = ["none", "mq-deadline", "kyber", "bfq"];
const RECORDED: Record<string, string> = {
  "null_blk under mq-deadline": new URL("./traces/blk-nullb-mq-deadline.trace.gz", import.meta.url).href,
  "null_blk under none": new URL("./traces/blk-nullb-none.trace.gz", import.meta.url).href,
};
const OPS: Array<[BlkOp, string]> = [[BlkOp.Read, "reads"], [BlkOp.Write, "writes"]];
const ms = (us: number) => (us / 1000).toFixed(1);

export function TraceReplay({ client }: { client: BlkClient | null }) {
  const { loaded: trace, error, busy, load, onFile } = useTraceFile((t) => client!.replay(t, SCHEDS));
  const replay: BlkReplay | null = trace?.result ?? null;

  // once per trace and replay, not per render: a trace can hold 100k requests
  const { kernel, timeMax, sectorMax } = useMemo(() => {
    const kernel = trace ? kernelRows(trace.trace) : null;
    const all = replay && kernel ? [kernel, ...replay.results.map((r) => r.rows)] : [];
    // loops, not spreads: a trace can hold more requests than a call takes arguments
    const maxOver = (rows: Float64Array, f: (o: number) => number) => {
      let m = 0;
      for (let o = 0; o < rows.length; o += ROW_WIDTH) m = Math.max(m, f(o));
      return m;
    };
    return {
      kernel,
      timeMax: all.reduce((m, rows) => Math.max(m, maxOver(rows, (o) => rows[o + ROW.dispatch_us]) / 1000), 0),
      sectorMax: kernel ? Math.max(1, maxOver(kernel, (o) => kernel[o + ROW.sector] + kernel[o + ROW.sectors])) : 1,
    };
  }, [trace, replay]);

  return (
    <div className="trace-replay" data-testid="trace-replay">
      <div className="toolbar">
        {Object.entries(RECORDED).map(([name, url]) => (
          <button key={name} disabled={!client || busy} onClick={() => load(name, () => fetchBytes(url))}>{name}</button>
        ))}
        <label>
          or your own (tracefs text, gzip is fine){" "}
          <input type="file" aria-label="a block trace file" disabled={!client || busy} onChange={onFile} />
        </label>
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {trace && (
        <p data-testid="trace-summary">
          {trace.name}: {trace.trace.requests.length} requests on device {trace.trace.devices[0]}, {trace.trace.events} block events
          {trace.trace.lost ? <span className="error">, {trace.trace.lost} lost by the ring buffer</span> : null}.
        </p>
      )}
      {replay && (
        <>
          <table className="files" aria-label="queue time, kernel and model">
            <thead>
              <tr><th>queue time (ms), mean / p99</th><th>kernel</th>{SCHEDS.map((s) => <th key={s}>model, {s}</th>)}</tr>
            </thead>
            <tbody>
              {OPS.map(([op, name]) => {
                const k = replay.comparisons[0].ops.find((o) => o.op === op);
                if (!k) return null;
                return (
                  <tr key={op} data-op={name}>
                    <td>{name}</td>
                    <td>{ms(k.kernel.queue.mean_us)} / {ms(k.kernel.queue.p99_us)}</td>
                    {replay.comparisons.map((c, i) => {
                      const o = c.ops.find((x) => x.op === op)!;
                      return <td key={i}>{ms(o.model.queue.mean_us)} / {ms(o.model.queue.p99_us)}</td>;
                    })}
                  </tr>
                );
              })}
              <tr data-op="order">
                <td>pairs issued in the kernel's order</td>
                <td>100%</td>
                {replay.comparisons.map((c, i) => <td key={i}>{(100 * c.pairsInOrder).toFixed(1)}%</td>)}
              </tr>
            </tbody>
          </table>
          <div className="plots">
            <OffsetTimePlot title="kernel (the trace)" rows={kernel!} timeMaxMs={timeMax} sectorMax={sectorMax} />
            {replay.results.map((r, i) => <OffsetTimePlot key={i} title={`model, ${SCHEDS[i]}`} rows={r.rows} timeMaxMs={timeMax} sectorMax={sectorMax} />)}
          </div>
          <p className="muted">
            The model replays the trace's arrivals (open loop: they do not react to the model's completions), serves each
            request in the time the kernel measured for it, and holds the tag as long as the kernel left it free waiting for a
            queue run (the model has no CPU). Dots are coloured by op here: reads and writes.
          </p>
        </>
      )}
    </div>
  );
}
