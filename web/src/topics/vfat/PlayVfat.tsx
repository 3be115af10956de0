// /play/vfat: what Linux's VFAT writes for a name, under a mount's iocharset and codepage
// (the blog series "Linuxカーネルのファイルアクセスの処理を追いかける"): the 8.3 short name's bytes and how each code page reads them, the long-name
// entries as raw 32-byte slots, their checksum. Predict first whether the short name keeps
// the characters. The vfat core runs in a worker; its model matches the guest kernel's
// entries for the same names (web/src/topics/vfat/vfat-core.test.ts).
import { useParams } from "../../shared/useParams";
import { LinkProblems } from "../../shared/view/ParamField";
import { VFAT_PARAMS } from "./params";
import { useEffect, useRef, useState } from "react";
import { hex, type Codepage, type IoCharset } from "./vfat-core";
import { vfatClient, type VfatClient, type VfatResult } from "./vfat-client";
import { inspectClient } from "../../shared/inspect/inspect-client";
import { useWorker } from "../../shared/useWorker";
import type { VfatEntry, VfatReport } from "./inspect-report";
import { fetchBytes } from "../../shared/gunzip";
import { VFAT_MOUNTS, VFAT_NAMES } from "./vfat-names";

// made in the guest by wasm/tests/images/make-images.ts: VFAT_NAMES created in order under each of VFAT_MOUNTS
const VOLUME = new URL("../../../../wasm/tests/images/vfat-names.img.gz", import.meta.url).href;

/**
 * The same name on a real volume: mkfs.vfat and our kernel wrote VFAT_NAMES, in order, under
 * three mounts; the inspector reads each entry back (bytes, both code pages, long name,
 * checksum) beside the model's entry for the same name in the same sequence.
 */
function RealVolume({ name, client, onPick }: { name: string; client: VfatClient | null; onPick(n: string): void }) {
  const [rows, setRows] = useState<Array<{ mount: string; model: VfatResult; disk: VfatEntry | undefined }> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setRows(null), [name]);
  async function show() {
    setBusy(true);
    setError(null);
    const inspector = inspectClient();
    try {
      const report = (await inspector.inspect(await fetchBytes(VOLUME))) as VfatReport;
      if (report.fs !== "vfat") throw new Error(`the recorded volume reads as ${report.fs}, not vfat`);
      const model = await client!.names([...VFAT_NAMES], VFAT_MOUNTS.map((mt) => ({ io: mt.io, cp: mt.codepage as Codepage })));
      const at = VFAT_NAMES.indexOf(name);
      setRows(
        VFAT_MOUNTS.map((mt, i) => {
          const mine = model[i * VFAT_NAMES.length + at];
          const disk = mine.result && report.files.find((f) => f.path.startsWith(`/${mt.dir}/`) && f.short_raw === hex(mine.result!.short));
          return { mount: `-o ${mt.options}`, model: mine, disk };
        }),
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      inspector.terminate();
      setBusy(false);
    }
  }
  if (!VFAT_NAMES.includes(name))
    return (
      <p className="muted" data-testid="vfat-disk-names">
        The recorded volume holds these names; pick one to see it on disk:{" "}
        {VFAT_NAMES.map((n) => <button key={n} type="button" className="linkish" onClick={() => onPick(n)}>{n}</button>)}
      </p>
    );
  const same = (r: { model: VfatResult; disk: VfatEntry | undefined }) =>
    !!r.disk && !!r.model.result && r.disk.long_name === (r.model.result.longName ?? undefined) && r.disk.checksum === r.model.result.checksum && (r.disk.lfn_entries ?? 0) === r.model.result.lfnSlots;
  return (
    <div data-testid="vfat-disk">
      <button type="button" onClick={show} disabled={!client || busy}>{busy ? "Reading…" : "Show it on the real volume"}</button>
      {error && <p className="error" role="alert">{error}</p>}
      {rows && (
        <table className="files" aria-label="the real volume against the model">
          <thead><tr><th>mount</th><th>8.3 bytes on disk</th><th>read as cp437</th><th>read as cp932</th><th>long name on disk</th><th>entries</th><th>checksum</th><th>the model's?</th></tr></thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.mount} data-mount={r.mount} data-same={r.model.error ? "no entry" : same(r) ? "yes" : "no"} className={r.model.error || same(r) ? "" : "differs"}>
                <td>{r.mount}</td>
                {r.model.error ? (
                  <td colSpan={7}>no entry of its own: {r.model.error}</td>
                ) : r.disk ? (
                  <>
                    <td><code>{r.disk.short_raw.replace(/(..)/g, "$1 ").trim()}</code></td>
                    <td>{r.disk.short_cp437}</td>
                    <td>{r.disk.short_cp932}</td>
                    <td>{r.disk.long_name ?? "(none)"}</td>
                    <td>{(r.disk.lfn_entries ?? 0) + 1}</td>
                    <td>0x{r.disk.checksum.toString(16).padStart(2, "0")}</td>
                    <td>{same(r) ? "yes: the same bytes, long name and checksum" : "no"}</td>
                  </>
                ) : (
                  <td colSpan={7} className="error">no entry with the model's 8.3 bytes {hex(r.model.result!.short)} in /{VFAT_MOUNTS.find((m) => `-o ${m.options}` === r.mount)!.dir}</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

const MOUNTS: Array<{ io: IoCharset; cp: Codepage; label: string }> = [
  { io: "utf8", cp: 932, label: "-o utf8,codepage=932" },
  { io: "utf8", cp: 437, label: "-o utf8,codepage=437" },
  { io: "iso8859-1", cp: 932, label: "-o iocharset=iso8859-1,codepage=932" },
];

export function PlayVfat({ query }: { query: string }) {
  const params = useParams(VFAT_PARAMS, query, "vfat");
  const name = params.raw.name;
  const [guess, setGuess] = useState<"kept" | "lost" | null>(null);
  const [results, setResults] = useState<VfatResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { client } = useWorker(vfatClient);

  const run = () => client!.names([name], MOUNTS.map(({ io, cp }) => ({ io, cp }))).then(setResults, (e) => setError(e.message));
  const change = (v: string) => {
    params.set("name", v);
    setResults(null);
  };
  // "kept": under utf8 + codepage 437, the short name reads back as the name (upper-cased)
  const verdict = (() => {
    const r = results?.find((x) => x.cp === 437 && x.io === "utf8")?.result;
    if (!r) return null;
    return r.asCp437 === name.toUpperCase().replace(/ /g, "") ? "kept" : "lost";
  })();

  return (
    <section className="play">
      <h1>VFAT: one name, two names on disk</h1>
      <p>
        VFAT keeps an 8.3 <em>short name</em> for MS-DOS, in the mount's <code>codepage</code>, and the full name in
        <em> long-name entries</em> as UTF-16, read from the program's bytes in the mount's <code>iocharset</code> (or UTF-8
        with <code>utf8</code>). Characters the code page lacks become <code>_</code> and earn a <code>~1</code> tail; bytes
        read in the wrong iocharset become the wrong characters.
      </p>
      <form className="play-form" onSubmit={(e) => e.preventDefault()} aria-label="scenario">
        <LinkProblems problems={params.linkProblems} />
        <label>file name <input value={name} onChange={(e) => change(e.target.value)} aria-label="file name" size={30} /></label>
      </form>
      <fieldset className="predict">
        <legend>Predict first: with -o utf8,codepage=437, does the short name keep every character of this name?</legend>
        <label><input type="radio" name="guess" checked={guess === "kept"} onChange={() => setGuess("kept")} /> yes (upper-cased)</label>
        <label><input type="radio" name="guess" checked={guess === "lost"} onChange={() => setGuess("lost")} /> no</label>
        <button type="button" onClick={run}>{guess ? "Run and reveal" : "Run without predicting"}</button>
      </fieldset>
      {error && <p className="error" role="alert">{error}</p>}
      <h2>On a real volume</h2>
      <p>
        The guest's <code>mkfs.vfat</code> and kernel created a list of names, in order, under each of the three mounts; the
        inspector reads the entries back from the image. (The model for the same sequence: a name's <code>~N</code> tail
        depends on the names before it.)
      </p>
      <RealVolume name={name} client={client} onPick={change} />
      {results && (
        <div className="reveal" role="status" data-verdict={verdict ?? ""}>
          {verdict && <p>Under code page 437 the short name {verdict === "kept" ? "keeps" : "loses"} characters{guess ? (guess === verdict ? ": as you predicted." : `: you predicted it would be ${guess}.`) : "."}</p>}
          <table className="files" aria-label="what each mount writes">
            <thead><tr><th>mount</th><th>8.3 bytes</th><th>read as cp437</th><th>read as cp932</th><th>long name (UTF-16 as stored)</th><th>long-name entries</th></tr></thead>
            <tbody>
              {results.map((r, i) => (
                <tr key={i} data-mount={MOUNTS[i].label}>
                  <td>{MOUNTS[i].label}</td>
                  {r.result ? (
                    <>
                      <td><code>{hex(r.result.short)}</code></td>
                      <td>{r.result.asCp437}</td>
                      <td>{r.result.asCp932}</td>
                      <td>{r.result.longName ?? "(none: the 8.3 name says it all)"}</td>
                      <td>{r.result.lfnSlots}</td>
                    </>
                  ) : (
                    <td colSpan={5} className="error">{r.error}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <h2>The entries, as written (32 bytes each)</h2>
          {results.map((r, i) =>
            r.result ? (
              <div key={i}>
                <p className="muted">{MOUNTS[i].label}: checksum 0x{r.result.checksum.toString(16).padStart(2, "0")}</p>
                <pre className="discard-list" data-testid={`entries-${i}`}>
                  {Array.from({ length: r.result.entries.length / 32 }, (_, k) => {
                    const e = r.result!.entries.subarray(k * 32, k * 32 + 32);
                    const kind = e[11] === 0x0f ? `long-name #${e[0] & 0x1f}${e[0] & 0x40 ? " (last)" : ""}` : "8.3 entry";
                    return `${hex(e).replace(/(..)/g, "$1 ").trim()}  ${kind}\n`;
                  }).join("")}
                </pre>
              </div>
            ) : null,
          )}
        </div>
      )}
    </section>
  );
}
