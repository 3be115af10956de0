// The real disk after the f2fs-clue lab: the volume's metadata area (superblock, checkpoint,
// SIT, NAT, SSA; everything before the main area) copied to /mnt/host, read over 9p and parsed
// by the F2FS inspector. Its NAT, block by block (valid NIDs per NAT block, as the kernel
// reads it: each block's current copy with the checkpoint's NAT journal on top), is set beside
// the free-NID model's count after the same steps.
import { useEffect, useMemo, useRef } from "react";
import { useGuestImage } from "../../shared/inspect/useGuestImage";
import { NAT_ENTRY_PER_BLOCK, type NidRun } from "./nid";
import type { F2fsReport } from "./inspect-report";
import type { VmHandle } from "../../shared/machine";
import { densityWord, paintCells } from "../../shared/view/paint";

/** NIDs 1 and 2 (node and meta inode) hold NAT entries but no node: the inspector skips them, the model counts them. */
const NO_NODE_IN_BLOCK_0 = 2;

function Strip({ counts, blocks, label }: { counts: number[]; blocks: number; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const words = Uint32Array.from({ length: blocks }, (_, b) => densityWord(counts[b] ?? 0, NAT_ENTRY_PER_BLOCK));
    paintCells(canvas.current!.getContext("2d")!, words, blocks, 1);
  }, [counts, blocks]);
  return <canvas ref={canvas} className="nat-canvas" role="img" aria-label={label} />;
}

/**
 * The lab's panel: /mnt/host/<file> read and inspected on request, against `model`, the free-NID
 * model's run of the lab's last steps (clue 4). `held`: the lab asks for the NAT's count and it
 * is not answered yet, so the image is read (a wrong copy still says so) but its counts wait.
 */
export function F2fsDiskNat({ vm, model, file = "f2fs.img", held = false }: { vm: VmHandle | null; model: NidRun | null; file?: string; held?: boolean }) {
  const img = useGuestImage<F2fsReport>(vm, file, "f2fs");
  return (
    <section className="panel" aria-label="The real disk's NAT" data-testid="f2fs-disk">
      <h2>The real disk's NAT</h2>
      <p className="muted">
        The lab's step "The NAT on disk" copies the volume's metadata area to <code>/mnt/host/{file}</code>; the F2FS inspector reads its
        NAT as the kernel does.
      </p>
      <button onClick={img.inspect} disabled={!vm || img.busy}>{img.busy ? "Reading…" : `Inspect ${file}`}</button>
      {img.error && <p className="error" role="alert">{img.error}</p>}
      {img.report && held && (
        <p data-testid="f2fs-disk-held">
          {file} is read. Its NAT&apos;s counts, and the model&apos;s, are held back until you answer the lab&apos;s question on how many
          NIDs the NAT gives a node: work it out from what your run made, then they show here.
        </p>
      )}
      {img.report && !held && <NatAgainstModel report={img.report} run={model} />}
    </section>
  );
}

/** Draws the NAT's valid NIDs per block on disk against the NIDs in use per block in a model run. */
export function NatAgainstModel({ report, run }: { report: F2fsReport; run: NidRun | null }) {
  const model = useMemo(() => (run ? Array.from(run.state.blocks.used) : null), [run]);
  const disk = report.nat.valid_per_block;
  const predicted = model ? model.map((n, b) => (b === 0 ? n - NO_NODE_IN_BLOCK_0 : n)) : [];
  let used = predicted.length;
  while (used && !predicted[used - 1]) used--;
  const shown = Math.max(8, disk.length, used);
  const differ = model ? Array.from({ length: shown }, (_, b) => b).filter((b) => (disk[b] ?? 0) !== (predicted[b] ?? 0)) : [];

  return (
    <>
      <p data-testid="f2fs-disk-summary">
        {report.nat.valid_nids} valid NIDs in {report.nat.blocks} NAT blocks, read as the kernel reads them: each block&apos;s
        entries, with the {report.nat.journal_entries} entries of the checkpoint&apos;s NAT journal on top (changes made after
        their NAT block was last written, which the journal holds instead); {report.counts.nat_matches_checkpoint ? "the checkpoint's valid_node_count agrees" : "the checkpoint's valid_node_count does NOT agree"}.
      </p>
      <div className="nat-strips">
        <div className="nat-row"><span>disk</span><Strip counts={disk} blocks={shown} label="valid NIDs per NAT block on disk" /></div>
        <div className="nat-row"><span>model</span><Strip counts={predicted} blocks={shown} label="NIDs in use per NAT block in the model" /></div>
      </div>
      <p data-testid="f2fs-disk-verdict" data-differ={differ.length}>
        {differ.length === 0
          ? `Every NAT block holds as many valid NIDs as the model says (block 0 less NIDs 1 and 2, the node and meta inodes, which have NAT entries but no node).`
          : `${differ.length} NAT block(s) differ from the model: ${differ.map((b) => `block ${b}: disk ${disk[b] ?? 0}, model ${predicted[b] ?? 0}`).join("; ")}.`}
      </p>
      {/* a row per block: a column per block was wider than the panel at 1280 px */}
      <table className="files" aria-label="valid NIDs per NAT block, disk and model">
        <thead><tr><th scope="col">NAT block</th><th scope="col">disk</th><th scope="col">model</th></tr></thead>
        <tbody>
          {Array.from({ length: shown }, (_, b) => (
            <tr key={b} className={differ.includes(b) ? "differs" : ""}>
              <th scope="row">{b}</th>
              <td>{disk[b] ?? 0}</td>
              <td>{predicted[b] ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
