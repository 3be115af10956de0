// Loading a block trace for a view: a recorded one or the learner's file (tracefs text,
// gzipped or not), parsed, held to one device, then analysed (in the blk worker). Errors
// name the file; nothing is shown half-loaded.
import { useState } from "react";
import { parseBlkTrace, type BlkTrace } from "./blk-trace";
import { gunzipMaybe } from "../../shared/gunzip";

export function useTraceFile<R>(analyse: (trace: BlkTrace) => Promise<R>) {
  // the trace as soon as it is parsed; its result when the analysis is done
  const [loaded, setLoaded] = useState<{ name: string; trace: BlkTrace; result?: R } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load(name: string, bytes: () => Promise<Uint8Array>) {
    setBusy(true);
    setError(null);
    setLoaded(null);
    try {
      const trace = parseBlkTrace(new TextDecoder().decode(await gunzipMaybe(await bytes())));
      if (trace.devices.length !== 1) throw new Error(`the trace has requests on ${trace.devices.length} devices (${trace.devices.join(", ")}): trace one device`);
      setLoaded({ name, trace });
      setLoaded({ name, trace, result: await analyse(trace) });
    } catch (e) {
      setError(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  }

  /** the learner's own file, from an <input type="file"> */
  const onFile = (e: { target: HTMLInputElement }) => {
    const f = e.target.files?.[0];
    if (f) load(f.name, async () => new Uint8Array(await f.arrayBuffer()));
  };
  return { loaded, error, busy, load, onFile };
}
