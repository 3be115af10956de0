// mq-deadline in the kernel, decision by decision: a trace with our kernel's
// mq_deadline:dd_dispatch_request events (recorded, or the learner's own file) drawn in the same
// DeadlineQueues view as the model's steps, the lists rebuilt from the block events; at each
// dispatch the model decides from the same lists (in the blk worker) and differences are marked.
import { useMemo, useState } from "react";
import type { BlkClient } from "../cores/blk-client";
import { parseBlkTrace, type BlkTrace } from "../cores/blk-trace";
import { kernelDdTimeline, type DdReplay } from "../cores/dd-kernel";
import { fetchBytes, gunzipMaybe } from "../cores/gunzip";
import { DeadlineQueues } from "./DeadlineQueues";

const RECORDED = new URL("../cores/traces/blk-nullb-dd.trace.gz", import.meta.url).href;

export function KernelDeadline({ client }: { client: BlkClient | null }) {
  const [trace, setTrace] = useState<{ name: string; trace: BlkTrace } | null>(null);
  const [replay, setReplay] = useState<DdReplay | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load(name: string, bytes: () => Promise<Uint8Array>) {
    setBusy(true);
    setError(null);
    setTrace(null);
    setReplay(null);
    try {
      const t = parseBlkTrace(new TextDecoder().decode(await gunzipMaybe(await bytes())));
      if (t.devices.length !== 1) throw new Error(`the trace has requests on ${t.devices.length} devices (${t.devices.join(", ")}): trace one device`);
      kernelDdTimeline(t); // says what is missing before the worker is asked
      setTrace({ name, trace: t });
      setReplay(await client!.decisions(t));
    } catch (e) {
      setError(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  }

  const timeline = useMemo(() => (trace ? kernelDdTimeline(trace.trace) : null), [trace]);

  return (
    <div className="kernel-deadline" data-testid="kernel-deadline">
      <div className="toolbar">
        <button disabled={!client || busy} onClick={() => load("null_blk, two readers and a writer", () => fetchBytes(RECORDED))}>
          recorded: null_blk, two readers and a writer
        </button>
        <label>
          or your own (tracefs text with dd_dispatch_request){" "}
          <input type="file" aria-label="an mq-deadline trace file" disabled={!client || busy} onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) load(f.name, async () => new Uint8Array(await f.arrayBuffer()));
          }} />
        </label>
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {trace && timeline && (
        <p data-testid="kernel-dd-summary">
          {trace.name}: {timeline.steps} dispatches by the kernel on device {trace.trace.devices[0]}; the lists rebuilt from
          its block events are as long as the kernel said its own were at {timeline.lengthsAgree} of them
          {trace.trace.lost ? <span className="error">; {trace.trace.lost} events lost by the ring buffer</span> : null}.
        </p>
      )}
      {timeline && <DeadlineQueues key={trace!.name} timeline={timeline} replay={replay ?? undefined} />}
    </div>
  );
}
