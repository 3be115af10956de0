// The exFAT view: a model volume in the worker, the buttons that change it, the cluster
// grid, the file table (the grid's text alternative) and the discard requests of a delete.
import { useEffect, useMemo, useState } from "react";
import { exfatClient } from "./exfat-client";
import { useWorker } from "../../shared/useWorker";
import { ALLOC_NO_FAT_CHAIN, runsOf, type ExfatSnapshot } from "./exfat-core";
import { DiscardPolicy } from "./events";
import type { DeleteResult } from "./exfat-scenario";
import { ClusterGrid } from "./ClusterGrid";
import { DeleteReplay } from "./exfat-replay";
import { DeleteReplayControls, otherPolicy, policyName } from "./DeleteReplayControls";
import { fileColour } from "../../shared/view/palette";
import "./exfat.css";

const CLUSTERS = 512; // a 2 MiB heap of 4 KiB clusters: small enough to see every cluster
const SECT_PER_CLUS_BITS = 3;

/** `start`: a file to make on the empty heap first (its clusters in `runs` pieces), and the delete's policy. */
export function ExfatView({ start }: { start?: { clusters: number; runs: number; batch: number } } = {}) {
  const worker = useWorker(exfatClient);
  const { client, busy, error } = worker;
  const [snap, setSnap] = useState<ExfatSnapshot | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [policy, setPolicy] = useState<DiscardPolicy>(start?.batch === 0 ? DiscardPolicy.PerCluster : DiscardPolicy.Batched);
  const [last, setLast] = useState<DeleteResult | null>(null);
  // the last delete, replayable: the volume before it and its events applied up to a step
  const [replay, setReplay] = useState<{ before: ExfatSnapshot; r: DeleteReplay } | null>(null);
  const [, setStep] = useState(0);

  useEffect(() => {
    if (!client) return;
    void worker.run(async (c) => {
      const empty = await c.reset(CLUSTERS, SECT_PER_CLUS_BITS);
      if (!start) return setSnap(empty);
      const runs = Math.min(start.runs, start.clusters); // each piece at least a cluster
      const r = runs > 1 ? await c.createFragmented(start.clusters, runs) : await c.createContiguous(start.clusters);
      setSnap(r.snapshot);
      setSelected(r.id);
    });
  }, [client, worker.run]);

  /** a file just made: the volume after it, the file selected, no delete shown */
  const made = (r: { id: number; snapshot: ExfatSnapshot }) => {
    setSnap(r.snapshot);
    setSelected(r.id);
    setLast(null);
    setReplay(null);
  };
  const createContiguous = () => worker.run(async (client) => made(await client.createContiguous(24)));
  const createFragmented = () => worker.run(async (client) => made(await client.createFragmented(20, 4)));
  const remove = () =>
    worker.run(async (client) => {
      if (selected === null) return;
      const r = await client.delete(selected, policy);
      const rp = new DeleteReplay(snap!.bitmap, r.result.events);
      rp.seek(rp.total);
      setReplay({ before: snap!, r: rp });
      setStep(rp.total);
      setSnap(r.snapshot);
      setLast(r.result);
      setSelected(null);
    });
  const reset = () =>
    worker.run(async (client) => {
      setSnap(await client.reset(CLUSTERS, SECT_PER_CLUS_BITS));
      setSelected(null);
      setLast(null);
      setReplay(null);
    });

  if (!snap) return <section className="exfat-view">{error ? <p className="error">{error}</p> : <p>Loading the exFAT model…</p>}</section>;

  return (
    <section className="exfat-view" aria-label="exFAT cluster heap model" data-testid="exfat-view">
      <h2>exFAT cluster heap (model)</h2>
      <div className="toolbar">
        <button onClick={createContiguous} disabled={busy}>Create contiguous file</button>
        <button onClick={createFragmented} disabled={busy}>Create fragmented file</button>
        <fieldset>
          <legend>Discard policy</legend>
          <label>
            <input type="radio" name="policy" checked={policy === DiscardPolicy.PerCluster} onChange={() => setPolicy(DiscardPolicy.PerCluster)} />
            0: per cluster (≤ 6.14)
          </label>
          <label>
            <input type="radio" name="policy" checked={policy === DiscardPolicy.Batched} onChange={() => setPolicy(DiscardPolicy.Batched)} />
            1: batched (≥ 6.15)
          </label>
        </fieldset>
        <button onClick={remove} disabled={busy || selected === null} data-testid="delete">
          Delete {snap.files.find((f) => f.id === selected)?.name ?? "selected file"}
        </button>
        <button onClick={reset} disabled={busy}>Reset</button>
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      <p className="muted">
        {snap.usedClusters} of {snap.numClusters - 2} clusters in use (4 KiB each). Click a file's clusters to select it; its
        chain is drawn in cluster order, solid for a contiguous NoFatChain run, dashed for a FAT chain.
      </p>
      {replay && replay.r.position < replay.r.total ? (
        <ClusterGrid snapshot={replay.before} bitmap={replay.r.bitmap.slice()} selected={null} discards={replay.r.discards(256)} onSelect={() => {}} />
      ) : (
        <ClusterGrid snapshot={snap} selected={selected} discards={last?.discards ?? []} onSelect={setSelected} />
      )}
      <table className="files" data-testid="files">
        <caption>Files on the volume</caption>
        <thead>
          <tr><th>File</th><th>Clusters</th><th>Runs</th><th>Chain</th><th>First cluster</th></tr>
        </thead>
        <tbody>
          {snap.files.map((f) => (
            <tr key={f.id} className={f.id === selected ? "selected" : ""} onClick={() => setSelected(f.id)} data-file={f.name}>
              <td><span className="swatch" style={{ background: fileColour(f.id) }} /> {f.name}</td>
              <td>{f.clusters.length}</td>
              <td>{runsOf(f.clusters)}</td>
              <td>{f.flags === ALLOC_NO_FAT_CHAIN ? "NoFatChain" : "FAT chain"}</td>
              <td>{f.clusters[0] ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {last && (
        <div className="discards" data-testid="discards" aria-live="polite">
          <h3>
            Deleting {last.name}: <span data-testid="discard-count">{last.discards.length}</span> discard request
            {last.discards.length === 1 ? "" : "s"} ({policyName(last.policy)})
          </h3>
          <p>
            The same delete under {policyName(otherPolicy(last.policy))} issues{" "}
            <strong data-testid="other-discard-count">{last.otherPolicyDiscards}</strong>.
          </p>
          {replay && (
            <div className="replay" data-testid="replay">
              <p>
                Replay the delete as the kernel issued it: <strong data-testid="replay-discards">{replay.r.discardsSoFar}</strong> of{" "}
                {last.discards.length} discard requests so far.
              </p>
              <DeleteReplayControls
                replay={replay.r}
                policy={last.policy}
                otherDiscards={last.otherPolicyDiscards}
                clusters={last.discards.reduce((n, d) => n + d.count, 0)}
                onStep={setStep}
              />
            </div>
          )}
          <ol className="discard-list">
            {last.discards.map((d, i) => (
              <li key={i}>
                sb_issue_discard: clusters {d.start}
                {d.count > 1 ? `–${d.start + d.count - 1}` : ""} ({d.count} × 8 sectors)
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
