// The write path lab's view: the call tree of the last `graph` command the learner ran in the
// guest (read from /mnt/host/write-path.trace over 9p), or one of the traces recorded by the
// same lab steps on our kernel, so the page shows something true before the VM is used.
import { useState } from "react";
import { parseFunctionGraph, type CallGraph } from "./ftrace-graph";
import type { VmHandle } from "../../shared/machine";
import { CallTree } from "./CallTree";
import { fetchBytes, gunzipMaybe } from "../../shared/gunzip";

const RECORDED: Record<string, string> = {
  "buffered write": new URL("./traces/write-path-buffered.trace.gz", import.meta.url).href,
  sync: new URL("./traces/write-path-sync.trace.gz", import.meta.url).href,
  fsync: new URL("./traces/write-path-fsync.trace.gz", import.meta.url).href,
  "O_DIRECT": new URL("./traces/write-path-direct.trace.gz", import.meta.url).href,
};

export function WritePathView({ vm }: { vm: VmHandle | null }) {
  const [graph, setGraph] = useState<CallGraph | null>(null);
  const [source, setSource] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load(what: string, get: () => Promise<Uint8Array>) {
    setBusy(true);
    setError(null);
    try {
      const g = parseFunctionGraph(new TextDecoder().decode(await gunzipMaybe(await get())));
      setGraph(g);
      setSource(what);
    } catch (e) {
      setError(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="panel" aria-label="The write path, traced" data-testid="write-path">
      <h2>The write path, traced</h2>
      <div className="toolbar">
        <button onClick={() => load("the guest's last trace", () => vm!.readSharedFile("write-path.trace"))} disabled={!vm || busy}>
          Load the last trace
        </button>
        <span className="muted">or one recorded on this kernel:</span>
        {Object.entries(RECORDED).map(([name, url]) => (
          <button key={name} disabled={busy} onClick={() => load(`recorded: ${name}`, () => fetchBytes(url))}>
            {name}
          </button>
        ))}
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {!graph && !error && (
        <p className="muted">In the guest, run a step's <code>graph …</code> command, then load its trace here.</p>
      )}
      {graph && (
        <>
          <p data-testid="trace-source">
            {source}
            {graph.command && (
              <>
                : <code>{graph.command}</code>
              </>
            )}
            {graph.unparsed > 0 && <span className="error"> ({graph.unparsed} lines not understood)</span>}
          </p>
          {source.startsWith("the guest") && !globalThis.crossOriginIsolated && (
            <p className="muted" data-testid="coarse-clock">
              This page is not cross-origin isolated, so the browser's clock, and the guest's with it, ticks in 100 µs steps:
              most short calls show 0 µs. Serve the page with the COOP/COEP headers (as <code>npm start</code> does).
            </p>
          )}
          <CallTree graph={graph} />
        </>
      )}
    </section>
  );
}
