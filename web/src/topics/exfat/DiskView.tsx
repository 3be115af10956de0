// The real disk: an image the learner made in the guest, copied to /mnt/host (the 9p
// share), read by the page and parsed by the inspectors in a worker. For exFAT it lists the
// entry sets with the directory slots they occupy, so the model's picture can be checked
// against what the kernel actually wrote.
import { useMemo, useState } from "react";
import { useGuestImage, type GuestImage } from "../../shared/inspect/useGuestImage";
import type { InspectedReport } from "../../shared/inspect/inspect";
import type { ExfatReport } from "./inspect-report";
import type { VmHandle } from "../../shared/machine";
import { formatRuns } from "./exfat-core";
import { slotsOfDisk, snapshotOfDisk } from "./exfat-disk";
import { ClusterGrid } from "./ClusterGrid";
import { SlotStrip } from "./SlotStrip";


/** The lab's disk panel: /mnt/host/<file> read and inspected on request; dir: a directory to draw slot by slot, as the directory model draws its own. */
export function DiskView({ vm, file, dir }: { vm: VmHandle | null; file: string; dir?: string }) {
  return <DiskPanel img={useGuestImage(vm, file)} ready={!!vm} file={file} dir={dir} />;
}

/**
 * The disk panel over an image read elsewhere (a lab view that also grades against the disk holds
 * it). `held`: the prediction the learner has still to make, when this image answers it, in
 * words: the report waits until it is made.
 */
export function DiskPanel({ img, ready, file, dir, held }: { img: GuestImage<InspectedReport>; ready: boolean; file: string; dir?: string; held?: string }) {
  return (
    <section className="panel" aria-label="The real disk, inspected" data-testid="disk-view">
      <h2>The real disk</h2>
      <p className="muted">
        In the guest, copy the volume's image to <code>/mnt/host/{file}</code>; the page reads it through the 9p share and
        the inspector parses the real on-disk structures.
      </p>
      <button onClick={img.inspect} disabled={!ready || img.busy}>{img.busy ? "Reading…" : `Inspect ${file}`}</button>
      {img.error && <p className="error" role="alert">{img.error}</p>}
      {img.report && img.bytes && held && (
        <p className="muted" data-testid="disk-held">
          Held: this image answers a prediction of the lab you have not made yet ({held}). The image shows once you have
          made it (or chosen "No guess").
        </p>
      )}
      {img.report && img.bytes && !held && <DiskReport report={img.report} bytes={img.bytes} dir={dir} />}
    </section>
  );
}

/** Draws an inspected image: for exFAT, the cluster grid from its own bitmap and chains, a directory's slots, its entry sets. */
export function DiskReport({ report: inspected, bytes, dir }: { report: InspectedReport; bytes: Uint8Array; dir?: string }) {
  // read as exFAT's only where its fs says it is
  const report = inspected as ExfatReport;
  const [selected, setSelected] = useState<number | null>(null);
  // the same cluster grid the model draws, from the disk's own bitmap and chains
  const grid = useMemo(() => (report.fs === "exfat" ? snapshotOfDisk(bytes, report) : null), [report, bytes]);
  const dirSlots = useMemo(() => {
    if (report.fs !== "exfat" || !dir) return null;
    try {
      return slotsOfDisk(bytes, report, dir);
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }, [report, bytes, dir]);
  return (
    <>
      {report.fs === "exfat" && (
        <>
          <p data-testid="disk-summary">
            exFAT, {report.boot.cluster_count} clusters of {report.cluster_size} B: {plural(report.counts.directories, "directory", "directories")},{" "}
            {plural(report.counts.files, "file", "files")}, {report.counts.deleted_entries} deleted entries, {report.counts.free_clusters} clusters free.
          </p>
          {grid && (
            <>
              <p className="muted" data-testid="disk-grid-note">
                Its {grid.numClusters - 2} clusters as the model's grid draws them: coloured by the file that owns them (from
                the disk's chains), grey when in use by the bitmap, up-case table or root, light when free. Click a file's
                clusters to see its chain.
              </p>
              <ClusterGrid snapshot={grid} selected={selected} discards={[]} onSelect={setSelected} cols={grid.numClusters > 2048 ? 128 : 64} />
            </>
          )}
          {dirSlots && "error" in dirSlots && <p className="error">{dirSlots.error}</p>}
          {dirSlots && "slots" in dirSlots && (
            <div data-testid="disk-dir-slots">
              <p className="muted">
                {dir} on disk, slot by slot as the directory model draws its own (a row per {report.cluster_size} B cluster):{" "}
                {dirSlots.slots.filter((s) => s === 2).length} in use, {dirSlots.slots.filter((s) => s === 1).length} deleted,{" "}
                {dirSlots.slots.filter((s) => s === 0).length} never used.
              </p>
              <SlotStrip run={dirSlots} testId="slots-disk" />
            </div>
          )}
          <div className="discard-list">
            <table className="files" aria-label="entry sets on disk">
              <thead><tr><th>path</th><th>entry</th><th>entries</th><th>clusters</th></tr></thead>
              <tbody>
                {report.files.slice(0, 500).map((f) => (
                  <tr key={f.path + f.entry}><td>{f.path}</td><td>{f.entry}</td><td>{f.secondary_count + 1}</td><td>{formatRuns(f.runs)}</td></tr>
                ))}
              </tbody>
            </table>
          </div>
          {report.files.length > 500 && <p className="muted">showing the first 500 of {report.files.length}</p>}
        </>
      )}
      {report.fs !== "exfat" && <p data-testid="disk-summary">A {report.fs} volume: run <code>npx fslab inspect</code> on it for the details.</p>}
    </>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
