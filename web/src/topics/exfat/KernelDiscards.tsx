// What the real kernel did: the exfat_discard events fslab-trace streams from the guest, in
// the same records as the model's, grouped into deletes (a run of events under one policy).
// Each delete is set against the model: the file's runs read off the kernel's own clusters,
// a file of those runs made in the exfat core and deleted under the same policy; the requests
// should be as many and of the same lengths. (Where the kernel placed the runs, and in what
// chain order, the model does not reproduce: its allocator started from another volume.)
import { useEffect, useMemo, useRef, useState } from "react";
import type { ExfatDiscard } from "./events";
import { DiscardPolicy } from "./events";
import { exfatClient } from "./exfat-client";
import { useWorker } from "../../shared/useWorker";
import { ALLOC_FAT_CHAIN, ALLOC_NO_FAT_CHAIN, EXFAT_FIRST_CLUSTER, type ExfatSnapshot } from "./exfat-core";
import { ClusterGrid } from "./ClusterGrid";
import type { TraceStats } from "../../shared/machine";
import type { Verdict } from "../../shared/verdict";
import { useVerdict } from "../../shared/verdict";

/** Consecutive discards under one policy: one delete (two deletes in a row under one policy merge). */
export function deletesOf(discards: ExfatDiscard[]): ExfatDiscard[][] {
  const out: ExfatDiscard[][] = [];
  for (const d of discards) {
    const last = out.at(-1);
    if (last && last[0].policy === d.policy) last.push(d);
    else out.push([d]);
  }
  return out;
}

/** The deleted file's contiguous runs, from the clusters its discards covered. */
export function runsOf(group: ExfatDiscard[]): number[] {
  const runs: number[] = [];
  let end = -1;
  for (const d of [...group].sort((a, b) => a.start - b.start)) {
    if (d.start === end) runs[runs.length - 1] += d.count;
    else runs.push(d.count);
    end = d.start + d.count;
  }
  return runs;
}

/**
 * One delete as the cluster grid draws the model's: the heap from cluster 2 to just past the
 * file, the file's clusters (those its discards covered) as they were before the delete, and
 * the discard requests outlined. Chain order is not in the events, so no chain path is drawn.
 */
export function snapshotOfDelete(group: ExfatDiscard[], cols: number): ExfatSnapshot {
  const end = Math.max(...group.map((d) => d.start + d.count));
  const numClusters = EXFAT_FIRST_CLUSTER + Math.ceil((end - EXFAT_FIRST_CLUSTER + cols) / cols) * cols;
  const bitmap = new Uint8Array(Math.ceil((numClusters - EXFAT_FIRST_CLUSTER) / 8));
  const clusters: number[] = [];
  for (const d of [...group].sort((a, b) => a.start - b.start))
    for (let c = d.start; c < d.start + d.count; c++) {
      bitmap[(c - EXFAT_FIRST_CLUSTER) >> 3] |= 1 << ((c - EXFAT_FIRST_CLUSTER) & 7);
      clusters.push(c);
    }
  const flags = runsOf(group).length === 1 ? ALLOC_NO_FAT_CHAIN : ALLOC_FAT_CHAIN;
  return { numClusters, usedClusters: clusters.length, bitmap, files: [{ id: 1, name: "the deleted file", flags, clusters: Uint32Array.from(clusters) }] };
}

const shape = (g: ExfatDiscard[]) => g.map((d) => d.count).sort((a, b) => a - b).join(",");

const key = (g: ExfatDiscard[]) => `${g[0].policy}:${runsOf(g).join(",")}`;

/**
 * The model's delete of each file shape the kernel deleted (by the file's runs and the
 * policy): computed in the exfat worker once per shape; re-renders as each arrives.
 */
export function useModelDeletes(groups: ExfatDiscard[][]): (g: ExfatDiscard[]) => ExfatDiscard[] | undefined {
  const { client } = useWorker(exfatClient);
  // the model's delete of each file shape the kernel deleted, one at a time: the worker holds
  // one volume, so the runs are chained, never interleaved; a shape is computed once
  const model = useRef(new Map<string, ExfatDiscard[]>());
  const queued = useRef(new Set<string>());
  const chain = useRef<Promise<void>>(Promise.resolve());
  const [, setDone] = useState(0);
  useEffect(() => {
    if (!client) return;
    for (const g of groups) {
      const k = key(g);
      if (queued.current.has(k)) continue;
      queued.current.add(k);
      const runs = runsOf(g);
      chain.current = chain.current
        .then(async () => {
          await client.reset(runs.reduce((a, b) => a + b, 0) + runs.length + 16, 3);
          const made = await client.createRuns(runs);
          const del = await client.delete(made.id, g[0].policy);
          model.current.set(k, del.result.discards);
          setDone((n) => n + 1);
        })
        .catch(() => {
          queued.current.delete(k); // tried again when the next event arrives
        });
    }
  }, [groups, client]);
  return (g) => model.current.get(key(g));
}

/**
 * What the lab's `expect: - verdict: exfat-clusters` waits for: every delete the kernel made
 * (since the step opened) met by the model's delete of the same file under the same policy,
 * as many requests of the same lengths.
 */
export function discardVerdict(groups: ExfatDiscard[][], modelOf: (g: ExfatDiscard[]) => ExfatDiscard[] | undefined): Verdict {
  if (!groups.length) return { state: "waiting", detail: "no exfat_discard events yet" };
  for (const [i, g] of groups.entries()) {
    const m = modelOf(g);
    if (!m) return { state: "waiting", detail: `the model is deleting the same file as the kernel's delete ${i + 1}` };
    if (shape(m) !== shape(g))
      return { state: "disagree", detail: `delete ${i + 1}: the kernel sent ${g.length} requests (${shape(g)} clusters), the model ${m.length} (${shape(m)})` };
  }
  const n = groups.reduce((k, g) => k + g.length, 0);
  return { state: "agree", detail: `all ${groups.length} deletes: the model sent the kernel's ${n} requests, of the same lengths` };
}

/** The lab's panel: the kernel's discards as they stream in, each delete beside the model's. */
export function KernelDiscards({ discards, stats, onVerdict }: { discards: ExfatDiscard[]; stats: TraceStats | null; onVerdict?: (v: Verdict) => void }) {
  const groups = useMemo(() => deletesOf(discards), [discards]);
  const modelOf = useModelDeletes(groups);
  useVerdict(onVerdict, discardVerdict(groups, modelOf));
  return <KernelDiscardsView discards={discards} groups={groups} stats={stats} modelOf={modelOf} />;
}

interface ViewProps {
  discards: ExfatDiscard[];
  groups: ExfatDiscard[][]; // deletesOf(discards)
  stats: TraceStats | null;
  /** the model's discards for the same delete, once known */
  modelOf(g: ExfatDiscard[]): ExfatDiscard[] | undefined;
}

/** Draws the kernel's discards: counts, each delete against the model's, one delete on the cluster grid. */
export function KernelDiscardsView({ discards, groups, stats, modelOf }: ViewProps) {
  const clusters = discards.reduce((n, d) => n + d.count, 0);
  const batched = discards.filter((d) => d.policy === DiscardPolicy.Batched).length;
  const [shown, setShown] = useState<number | null>(null); // null: the newest delete
  const at = shown ?? groups.length - 1;
  const gridCols = useMemo(() => (groups[at] && Math.max(...groups[at].map((d) => d.start + d.count)) > 4096 ? 128 : 32), [groups, at]);
  const snap = useMemo(() => (groups[at] ? snapshotOfDelete(groups[at], gridCols) : null), [groups, at, gridCols]);

  return (
    <section className="panel" aria-label="Discard requests of the real kernel" data-testid="kernel-discards">
      <h2>The kernel's discards (live)</h2>
      {!stats ? (
        <p className="muted">
          Nothing yet. In the terminal, run <code>fslab-trace start exfat/exfat_discard</code>, then delete a file on the
          volume mounted with <code>-o discard</code>.
        </p>
      ) : (
        <>
          <p>
            <strong data-testid="kernel-discard-count">{discards.length}</strong> exfat_discard events covering {clusters} clusters
            ({batched} batched, {discards.length - batched} per cluster).
            {stats.lost > 0 && <span className="error"> {stats.lost} trace lines were lost on the way.</span>}
            {stats.overrun ? <span className="error"> The kernel's trace buffer dropped {stats.overrun} events.</span> : null}
          </p>
          <table className="files" aria-label="each delete, kernel and model">
            <thead><tr><th>delete</th><th>policy</th><th>file's runs</th><th>kernel requests</th><th>model requests</th><th>same?</th></tr></thead>
            <tbody>
              {groups.map((g, i) => {
                const m = modelOf(g);
                const same = m ? shape(m) === shape(g) : null;
                return (
                  <tr key={i} data-testid={`kernel-delete-${i}`} data-match={same === null ? "pending" : same ? "yes" : "no"} className={same === false ? "differs" : ""}>
                    <td>{i + 1}</td>
                    <td>{g[0].policy === DiscardPolicy.Batched ? "batched" : "per cluster"}</td>
                    <td>{runsOf(g).join(" + ")}</td>
                    <td>{g.length}</td>
                    <td>{m ? m.length : "…"}</td>
                    <td>{same === null ? "…" : same ? "yes: as many requests, of the same lengths" : "no"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {snap && (
            <div data-testid="kernel-delete-grid" data-requests={groups[at].length}>
              <h3>
                Delete{" "}
                <select aria-label="delete" value={at} onChange={(e) => setShown(Number(e.target.value) === groups.length - 1 ? null : Number(e.target.value))}>
                  {groups.map((g, i) => (
                    <option key={i} value={i}>{i + 1}{i === groups.length - 1 ? " (newest)" : ""}</option>
                  ))}
                </select>{" "}
                on the cluster heap: {groups[at].length} request{groups[at].length === 1 ? "" : "s"} outlined
              </h3>
              <ClusterGrid snapshot={snap} selected={null} discards={groups[at]} onSelect={() => {}} cols={gridCols} />
              <p className="muted">The file's clusters as the kernel's discards covered them, before the delete, from cluster 2.</p>
            </div>
          )}
          <ol className="discard-list">
            {discards.slice(-200).map((d, i) => (
              <li key={i}>
                clu {d.start}
                {d.count > 1 ? `–${d.start + d.count - 1}` : ""} ({d.count}) {d.policy === DiscardPolicy.Batched ? "batched" : "per cluster"}
              </li>
            ))}
          </ol>
          {discards.length > 200 && <p className="muted">showing the last 200</p>}
        </>
      )}
    </section>
  );
}
