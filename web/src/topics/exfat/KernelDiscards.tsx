// What the real kernel did: the exfat_discard lines fslab-trace streams from the guest, grouped
// into deletes (the discards one task sent under one policy, none freeing a cluster twice).
// Each delete is set against the model: a file of the same runs made in the exfat core and
// deleted under the same policy; the requests should be as many and of the same lengths. Once
// the learner's image is inspected, the runs are the file's on their disk (the file whose
// clusters the delete freed), so the model's file is the disk's, not one read off the kernel's
// own discards, and each batched request must be one of the file's runs exactly.
import { useEffect, useMemo, useRef, useState } from "react";
import type { ExfatDiscard } from "./events";
import { DiscardPolicy, traceEvents } from "./events";
import { exfatClient } from "./exfat-client";
import { useWorker } from "../../shared/useWorker";
import { ALLOC_FAT_CHAIN, ALLOC_NO_FAT_CHAIN, EXFAT_FIRST_CLUSTER, formatRuns, type ExfatSnapshot } from "./exfat-core";
import { ClusterGrid } from "./ClusterGrid";
import type { TraceStats } from "../../shared/machine";
import type { Verdict } from "../../shared/verdict";
import { useVerdict } from "../../shared/verdict";
import { decodeEvent, splitTraceLine, undoRewinds } from "../../shared/event-table";
import type { ExfatReport } from "./inspect-report";
import type { Run } from "../../shared/inspect/inspect";

/** A discard as its trace line tells it: also the task that freed the clusters (`rm`'s pid). */
export interface KernelDiscard extends ExfatDiscard {
  pid?: number;
}

/**
 * The exfat_discard lines still on the running machine's timeline, in order: a rewind line
 * (REWIND_LINE, "Reset this step") undoes the lines before it, whatever their event.
 */
export function discardsOfLines(lines: readonly string[]): KernelDiscard[] {
  return undoRewinds(lines, (l) => l).flatMap((l) => {
    const t = splitTraceLine(l);
    const f = t?.event === "exfat_discard" ? decodeEvent(traceEvents.exfat_discard, t.body) : null;
    return t && f ? [{ start: f.clu, count: f.count, policy: f.batched, pid: t.pid }] : [];
  });
}

/**
 * The discards grouped into deletes: a new delete starts where the policy or the task changes,
 * or where a discard covers a cluster the delete already freed (a file freed twice is two
 * deletes). Two files removed by one `rm` still make one delete: nothing in the events parts them.
 */
export function deletesOf<D extends KernelDiscard>(discards: D[]): D[][] {
  const out: D[][] = [];
  let freed = new Set<number>();
  for (const d of discards) {
    const last = out.at(-1);
    let same = !!last && last[0].policy === d.policy && last[0].pid === d.pid;
    for (let c = d.start; same && c < d.start + d.count; c++) if (freed.has(c)) same = false;
    if (!same) {
      out.push([d]);
      freed = new Set();
    } else last!.push(d);
    for (let c = d.start; c < d.start + d.count; c++) freed.add(c);
  }
  return out;
}

/** The clusters a delete freed, as contiguous runs ([first cluster, clusters]) in cluster order. */
export function runsAt(group: ExfatDiscard[]): Run[] {
  const out: Run[] = [];
  for (const d of [...group].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && last[0] + last[1] === d.start) last[1] += d.count;
    else out.push([d.start, d.count]);
  }
  return out;
}

/** The deleted file's contiguous runs' lengths, from the clusters its discards covered. */
export const runsOf = (group: ExfatDiscard[]): number[] => runsAt(group).map(([, n]) => n);

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

/** A file on the inspected image: its path and its runs ([first cluster, clusters], in chain order). */
export interface DiskFile {
  path: string;
  runs: Run[];
}

/** The file on the inspected image whose clusters are exactly those the delete freed, if one is. */
export function fileOnDisk(group: ExfatDiscard[], report: ExfatReport | null): DiskFile | null {
  if (!report || report.fs !== "exfat") return null;
  const freed = new Set<number>();
  for (const d of group) for (let c = d.start; c < d.start + d.count; c++) freed.add(c);
  for (const f of report.files) {
    if (f.dir || !f.runs.length) continue;
    let n = 0;
    let all = true;
    for (const [s, k] of f.runs) {
      n += k;
      for (let c = s; all && c < s + k; c++) all = freed.has(c);
    }
    if (all && n === freed.size) return { path: f.path, runs: f.runs };
  }
  return null;
}

/** What the learner's disk says of the deletes: the inspected image (null until inspected) and its name. */
export interface DiskSide {
  report: ExfatReport | null;
  file: string;
}

/** The file's run lengths the model deletes: the disk's, in chain order, once the file is found on it; else the kernel's. */
const runsFor = (g: ExfatDiscard[], disk?: DiskSide) => fileOnDisk(g, disk?.report ?? null)?.runs.map(([, n]) => n) ?? runsOf(g);

/**
 * The model's delete of each file shape the kernel deleted (by the file's runs and the
 * policy): computed in the exfat worker once per shape; re-renders as each arrives.
 */
export function useModelDeletes(groups: ExfatDiscard[][], disk?: DiskSide): (g: ExfatDiscard[]) => ExfatDiscard[] | undefined {
  const { client } = useWorker(exfatClient);
  // the model's delete of each file shape the kernel deleted, one at a time: the worker holds
  // one volume, so the runs are chained, never interleaved; a shape is computed once
  const model = useRef(new Map<string, ExfatDiscard[]>());
  const queued = useRef(new Set<string>());
  const chain = useRef<Promise<void>>(Promise.resolve());
  const [, setDone] = useState(0);
  const key = (g: ExfatDiscard[]) => `${g[0].policy}:${runsFor(g, disk).join(",")}`;
  useEffect(() => {
    if (!client) return;
    for (const g of groups) {
      const k = key(g);
      if (queued.current.has(k)) continue;
      queued.current.add(k);
      const runs = runsFor(g, disk);
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
  }, [groups, client, disk?.report]);
  return (g) => model.current.get(key(g));
}

const asRuns = (g: ExfatDiscard[]): Run[] => [...g].sort((a, b) => a.start - b.start).map((d) => [d.start, d.count]);

/**
 * What the lab's `expect: - verdict: exfat-clusters` waits for: every delete the kernel made
 * met by the model's delete of the same file under the same policy, as many requests of the
 * same lengths; and, given the disk, the newest delete set against the file it freed there:
 * one request per run as the disk holds it (batched), or one per cluster.
 */
export function discardVerdict(groups: ExfatDiscard[][], modelOf: (g: ExfatDiscard[]) => ExfatDiscard[] | undefined, disk?: DiskSide): Verdict {
  if (!groups.length) return { state: "waiting", detail: "no exfat_discard events yet" };
  for (const [i, g] of groups.entries()) {
    const m = modelOf(g);
    if (!m) return { state: "waiting", detail: `the model is deleting the same file as the kernel's delete ${i + 1}` };
    if (shape(m) !== shape(g))
      return { state: "disagree", detail: `delete ${i + 1}: the kernel sent ${g.length} requests (${shape(g)} clusters), the model ${m.length} (${shape(m)})` };
  }
  const n = groups.reduce((k, g) => k + g.length, 0);
  const all = `all ${groups.length} deletes: the model sent the kernel's ${n} requests, of the same lengths`;
  if (!disk) return { state: "agree", detail: all };
  const k = groups.length - 1;
  const g = groups[k];
  if (!disk.report) return { state: "waiting", detail: `delete ${k + 1}, the newest, is not set against your disk yet: press "Inspect ${disk.file}"` };
  const f = fileOnDisk(g, disk.report);
  if (!f)
    return {
      state: "disagree",
      detail: `delete ${k + 1} freed clusters ${formatRuns(runsAt(g))}, and no file on the inspected ${disk.file} holds exactly those: copy the image after the file is written and before it is deleted, then inspect it again`,
    };
  const batched = g[0].policy === DiscardPolicy.Batched;
  const want: Run[] = batched ? [...f.runs].sort((a, b) => a[0] - b[0]) : f.runs.flatMap(([s, c]) => Array.from({ length: c }, (_, j): Run => [s + j, 1])).sort((a, b) => a[0] - b[0]);
  const got = asRuns(g);
  if (want.length !== got.length || want.some(([s, c], j) => got[j][0] !== s || got[j][1] !== c))
    return { state: "disagree", detail: `delete ${k + 1} freed ${f.path}, whose runs on disk are ${formatRuns(f.runs)}; the kernel's ${g.length} requests covered ${formatRuns(got)}` };
  return { state: "agree", detail: `${all}; the newest freed ${f.path}: one request per ${batched ? "run" : "cluster"} of it as your disk holds it (${formatRuns(f.runs)})` };
}

/** The lab's panel: the kernel's discards as they stream in, each delete beside the model's. */
export function KernelDiscards({ discards, stats, onVerdict, disk }: { discards: KernelDiscard[]; stats: TraceStats | null; onVerdict?: (v: Verdict) => void; disk?: DiskSide }) {
  const groups = useMemo(() => deletesOf(discards), [discards]);
  const modelOf = useModelDeletes(groups, disk);
  useVerdict(onVerdict, discardVerdict(groups, modelOf, disk));
  return <KernelDiscardsView discards={discards} groups={groups} stats={stats} modelOf={modelOf} disk={disk} />;
}

interface ViewProps {
  discards: ExfatDiscard[];
  groups: ExfatDiscard[][]; // deletesOf(discards)
  stats: TraceStats | null;
  /** the model's discards for the same delete, once known */
  modelOf(g: ExfatDiscard[]): ExfatDiscard[] | undefined;
  disk?: DiskSide;
}

/** Draws the kernel's discards: counts, each delete against the model's, one delete on the cluster grid. */
export function KernelDiscardsView({ discards, groups, stats, modelOf, disk }: ViewProps) {
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
            <thead>
              <tr>
                <th>delete</th><th>policy</th><th>the file's runs: how many, and clusters in each</th>
                {disk?.report && <th>file on {disk.file}</th>}
                <th>kernel requests</th><th>model requests</th><th>same?</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g, i) => {
                const m = modelOf(g);
                const same = m ? shape(m) === shape(g) : null;
                const runs = runsFor(g, disk);
                const onDisk = disk?.report ? fileOnDisk(g, disk.report) : null;
                return (
                  <tr key={i} data-testid={`kernel-delete-${i}`} data-match={same === null ? "pending" : same ? "yes" : "no"} className={same === false ? "differs" : ""}>
                    <td>{i + 1}</td>
                    <td>{g[0].policy === DiscardPolicy.Batched ? "batched" : "per cluster"}</td>
                    <td>
                      {runs.length} run{runs.length === 1 ? "" : "s"}: {runs.join(" + ")}
                    </td>
                    {disk?.report && <td>{onDisk ? `${onDisk.path} (${formatRuns(onDisk.runs)})` : "none holds exactly these clusters"}</td>}
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
          <ol className="discard-list" aria-label={`delete ${at + 1}'s requests`}>
            {(groups[at] ?? []).slice(-200).map((d, i) => (
              <li key={i}>
                clu {d.start}
                {d.count > 1 ? `–${d.start + d.count - 1}` : ""} ({d.count}) {d.policy === DiscardPolicy.Batched ? "batched" : "per cluster"}
              </li>
            ))}
          </ol>
          {(groups[at]?.length ?? 0) > 200 && <p className="muted">showing its last 200</p>}
        </>
      )}
    </section>
  );
}
