// The ext4-lbs lab's panel: what a direct write of 1 MiB makes the device write, at each
// layout and write size. The guest's measurements, which the lab's `measure` writes to
// /mnt/host/ext4-direct.txt ("layout bs_KiB bytes" per line), are read over 9p and set beside
// the ext4 core's prediction (the data plus the zeros iomap writes after sub-block writes,
// ext4.h), cell by cell. The model's numbers wait for the measurements: shown from the start,
// they answered the lab's prediction before it was asked.
import { useEffect, useRef, useState } from "react";
import { ext4Client, type Ext4Row } from "./ext4-client";
import { useWorker } from "../../shared/useWorker";
import { LAYOUTS } from "./ext4-core";
import type { VmHandle } from "../../shared/machine";

const SIZES = [4096, 16384, 65536];
const BYTES = 1 << 20;
/** the lab's names for the layouts (its mount points) */
export const LAB_LAYOUT: Record<string, string> = { "4k": "4k", big: "bigalloc-64k", lbs: "64k (LBS)" };

/** "layout bs_KiB bytes" lines; a line that is not one is an error that names it */
export function parseMeasurements(text: string): Map<string, number> {
  const out = new Map<string, number>();
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const m = line.trim().match(/^(\w+) (\d+) (\d+)$/);
    if (!m || !LAB_LAYOUT[m[1]]) throw new Error(`ext4-direct.txt line ${i + 1}: expected "4k|big|lbs KiB bytes", got "${line.trim().slice(0, 60)}"`);
    out.set(`${LAB_LAYOUT[m[1]]}/${Number(m[2]) * 1024}`, Number(m[3]));
  });
  return out;
}

export function Ext4DirectView({ vm }: { vm: VmHandle | null }) {
  const { client } = useWorker(ext4Client);
  const [rows, setRows] = useState<Ext4Row[] | null>(null);
  const [kernel, setKernel] = useState<Map<string, number> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    client?.writeSweep(BYTES, true, SIZES).then(setRows, (e) => setError(e.message));
  }, [client]);
  async function load() {
    setError(null);
    try {
      setKernel(parseMeasurements(new TextDecoder().decode(await vm!.readSharedFile("ext4-direct.txt"))));
    } catch (e) {
      setKernel(null);
      setError(e instanceof Error ? e.message : String(e));
    }
  }
  return (
    <section className="panel" aria-label="ext4 direct writes, model and kernel" data-testid="ext4-direct">
      <h2>1 MiB written direct: bytes the device wrote</h2>
      <button type="button" onClick={load} disabled={!vm}>Load the guest's measurements</button>
      {error && <p className="error" role="alert">{error}</p>}
      {!kernel ? (
        <p className="muted" data-testid="ext4-direct-waits">
          The model&apos;s numbers appear here beside your kernel&apos;s once you load the guest&apos;s measurements (the lab&apos;s step
          &quot;Counting what reaches the device&quot; makes them): before, they would answer that step&apos;s prediction.
        </p>
      ) : (
        rows && (
          <>
            <DirectWritesTable rows={rows} kernel={kernel} />
            <p className="muted">
              Model: the 1 MiB of data plus the zeros <code>iomap_dio_bio_iter()</code> writes from the end of each write that ends
              inside a block to that block&apos;s end (the write extends the file, so the block&apos;s tail past EOF must read as zeros).
            </p>
          </>
        )
      )}
    </section>
  );
}

/** Draws the model's bytes to the device per layout and write size, and the kernel's where measured, marking differences. */
export function DirectWritesTable({ rows, kernel }: { rows: Ext4Row[]; kernel: Map<string, number> | null }) {
  const kib = (b: number) => `${Math.round(b / 1024)} KiB`;
  const cells = LAYOUTS.flatMap((l) => SIZES.map((bs) => ({ l, bs, model: BYTES + rows.find((r) => r.layout === l.name && r.bs === bs)!.zero_bytes, kernel: kernel?.get(`${l.name}/${bs}`) })));
  const measured = cells.filter((c) => c.kernel !== undefined);
  const differ = measured.filter((c) => c.kernel !== c.model).length;
  return (
    <>
      {kernel && (
        <p data-testid="ext4-direct-verdict" data-measured={measured.length} data-differ={differ}>
          {measured.length} of {cells.length} measured; {differ === 0 ? "every one is the model's, to the byte." : `${differ} differ from the model.`}
        </p>
      )}
      <table className="files" aria-label="bytes the device wrote for 1 MiB of direct writes">
        <thead><tr><th>layout</th>{SIZES.map((s) => <th key={s}>bs={s / 1024}k: model</th>)}{kernel && SIZES.map((s) => <th key={`k${s}`}>bs={s / 1024}k: kernel</th>)}</tr></thead>
        <tbody>
          {LAYOUTS.map((l) => (
            <tr key={l.name} data-layout={l.name}>
              <td>{l.name}</td>
              {SIZES.map((bs) => <td key={bs}>{kib(cells.find((c) => c.l === l && c.bs === bs)!.model)}</td>)}
              {kernel &&
                SIZES.map((bs) => {
                  const c = cells.find((x) => x.l === l && x.bs === bs)!;
                  return <td key={`k${bs}`} className={c.kernel !== undefined && c.kernel !== c.model ? "differs" : ""} data-cell={`${l.name}/${bs}`}>{c.kernel === undefined ? "–" : kib(c.kernel)}</td>;
                })}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
