// The vfat topic's lab view (declared in topic.ts): the volume the learner filled in the guest,
// read by the FAT inspector, entry by entry beside the vfat model's entry for the same name
// created in the same order under the same mount options.
import { useEffect, useMemo, useState } from "react";
import type { LabViewProps } from "../../shared/topic";
import { useGuestImage } from "../../shared/inspect/useGuestImage";
import type { VfatEntry, VfatReport } from "./inspect-report";
import { useWorker } from "../../shared/useWorker";
import { useVerdict } from "../../shared/verdict";
import type { Verdict } from "../../shared/verdict";
import { hex } from "./vfat-core";
import { vfatClient, type VfatResult } from "./vfat-client";
import { createdAs, mountDirs, type MountDir } from "./vfat-disk";

interface Row {
  disk: VfatEntry;
  model: VfatResult | null; // null: no bytes under this iocharset could have made the name
}

const spaced = (h: string) => h.replace(/(..)/g, "$1 ").trim();

/** An 8.3 name's 11 bytes in hex as its two fields, the name's 8 and the extension's 3, each on one line. */
function Bytes83({ hex: h }: { hex: string }) {
  const b = spaced(h).split(" ");
  return (
    <code>
      <span className="nowrap">{b.slice(0, 8).join(" ")}</span> <span className="nowrap">{b.slice(8).join(" ")}</span>
    </code>
  );
}

function same(r: Row): boolean {
  const m = r.model?.result;
  return !!m && r.disk.short_raw === hex(m.short) && (r.disk.long_name ?? null) === m.longName && r.disk.checksum === m.checksum;
}

export function VfatVolumeLab({ vm, onVerdict }: LabViewProps) {
  const img = useGuestImage<VfatReport>(vm, "vfat.img", "vfat");
  const { client, run } = useWorker(vfatClient);
  const [dirs, setDirs] = useState<Array<MountDir & { rows: Row[] }> | null>(null);
  useEffect(() => {
    if (!img.report || !client) return;
    const found = mountDirs(img.report);
    void run(async (c) => {
      const out = [];
      for (const d of found) {
        const bytes = d.entries.map((e) => createdAs(e, d.io, d.cp));
        const model = await c.directory(bytes.filter((b): b is Uint8Array => !!b), d.io, d.cp);
        let k = 0;
        out.push({ ...d, rows: d.entries.map((disk, i) => ({ disk, model: bytes[i] ? model[k++] : null })) });
      }
      setDirs(out);
    });
  }, [img.report, client]);

  const verdict = useMemo<Verdict>(() => {
    if (!dirs) return { state: "waiting", detail: "Copy the volume to /mnt/host/vfat.img and press Inspect vfat.img." };
    const rows = dirs.flatMap((d) => d.rows.map((r) => ({ d, r })));
    if (!rows.length) return { state: "waiting", detail: "The volume has none of the lab's directories (u932, u437, l932) with files in them yet." };
    const off = rows.filter(({ r }) => !same(r));
    return off.length
      ? { state: "disagree", detail: `${off.length} of ${rows.length} entries differ from the model's: ${off.slice(0, 3).map(({ d, r }) => `/${d.dir}/${r.disk.long_name ?? r.disk.short_cp437}`).join(", ")}` }
      : { state: "agree", detail: `all ${rows.length} entries in ${dirs.length} directories are the model's: the same 8.3 bytes, long name and checksum` };
  }, [dirs]);
  useVerdict(onVerdict, verdict);

  return (
    <section className="panel" aria-label="The FAT volume, entry by entry, against the model" data-testid="vfat-volume" data-verdict={verdict.state}>
      <h2>The volume, entry by entry</h2>
      <p className="muted">
        Copy the volume to <code>/mnt/host/vfat.img</code> in the guest, then inspect it: for every file in <code>/u932</code>,{" "}
        <code>/u437</code> and <code>/l932</code> the inspector reads the 8.3 entry and the long-name entries the kernel wrote, and
        the vfat model makes the same names in the same order under the same options.
      </p>
      <button onClick={img.inspect} disabled={!vm || img.busy}>
        {img.busy ? "Reading…" : "Inspect vfat.img"}
      </button>
      {img.error && (
        <p className="error" role="alert">
          {img.error}
        </p>
      )}
      <p role="status" data-testid="vfat-verdict">
        {verdict.state === "agree" ? "✓ " : verdict.state === "disagree" ? "✗ " : ""}
        {verdict.detail}
      </p>
      {dirs?.map((d) => (
        <table key={d.dir} className="files" aria-label={`/${d.dir}, mounted -o ${d.options}: the disk against the model`} data-dir={d.dir}>
          <caption>
            <code>/{d.dir}</code>, made under <code>-o {d.options}</code>
          </caption>
          <thead>
            <tr>
              <th>name as stored (long name)</th>
              <th>8.3 bytes on disk</th>
              <th>read as cp{d.cp}</th>
              <th>the model's 8.3 bytes</th>
              <th>long-name entries</th>
              <th>checksum</th>
              <th>the model's?</th>
            </tr>
          </thead>
          <tbody>
            {d.rows.map((r) => (
              <tr key={r.disk.entry} className={same(r) ? "" : "differs"} data-same={same(r) ? "yes" : "no"}>
                <td>{r.disk.long_name ?? <span className="muted">(none: the 8.3 name says it all)</span>}</td>
                <td>
                  <Bytes83 hex={r.disk.short_raw} />
                </td>
                <td>{d.cp === 932 ? r.disk.short_cp932 : r.disk.short_cp437}</td>
                <td>{r.model?.result ? <Bytes83 hex={hex(r.model.result.short)} /> : r.model?.error ?? "no name in this iocharset makes it"}</td>
                <td>{r.disk.lfn_entries ?? 0}</td>
                <td>0x{r.disk.checksum.toString(16).padStart(2, "0")}</td>
                <td>{same(r) ? "yes" : "no"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </section>
  );
}
