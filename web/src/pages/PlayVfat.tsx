// /play/vfat: what Linux's VFAT writes for a name, under a mount's iocharset and codepage
// (seed 003): the 8.3 short name's bytes and how each code page reads them, the long-name
// entries as raw 32-byte slots, their checksum. Predict first whether the short name keeps
// the characters. The vfat core runs in a worker; its model matches the guest kernel's
// entries for the same names (web/src/cores/vfat-core.test.ts).
import { useEffect, useRef, useState } from "react";
import { WorkerClient } from "../cores/worker-client";
import { hex, type Codepage, type IoCharset } from "../cores/vfat-core";
import type { VfatResult } from "../cores/vfat.worker";

const MOUNTS: Array<{ io: IoCharset; cp: Codepage; label: string }> = [
  { io: "utf8", cp: 932, label: "-o utf8,codepage=932" },
  { io: "utf8", cp: 437, label: "-o utf8,codepage=437" },
  { io: "iso8859-1", cp: 932, label: "-o iocharset=iso8859-1,codepage=932" },
];

export function PlayVfat({ query }: { query: string }) {
  const [name, setName] = useState(new URLSearchParams(query).get("name") ?? "ＳＪＩＳ");
  const [guess, setGuess] = useState<"kept" | "lost" | null>(null);
  const [results, setResults] = useState<VfatResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const client = useRef<WorkerClient<{ names: string[]; mounts: Array<{ io: IoCharset; cp: Codepage }> }, VfatResult[]> | null>(null);
  useEffect(() => {
    client.current = new WorkerClient(new Worker(new URL("../cores/vfat.worker.ts", import.meta.url), { type: "module" }), "vfat", (d) => d.results);
    return () => client.current?.terminate();
  }, []);

  const run = () => client.current!.request({ names: [name], mounts: MOUNTS.map(({ io, cp }) => ({ io, cp })) }).then(setResults, (e) => setError(e.message));
  const change = (v: string) => {
    setName(v);
    setResults(null);
    history.replaceState(null, "", `#/play/vfat?name=${encodeURIComponent(v)}`);
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
        <label>file name <input value={name} onChange={(e) => change(e.target.value)} aria-label="file name" size={30} /></label>
      </form>
      <fieldset className="predict">
        <legend>Predict first: with -o utf8,codepage=437, does the short name keep every character of this name?</legend>
        <label><input type="radio" name="guess" checked={guess === "kept"} onChange={() => setGuess("kept")} /> yes (upper-cased)</label>
        <label><input type="radio" name="guess" checked={guess === "lost"} onChange={() => setGuess("lost")} /> no</label>
        <button type="button" onClick={run}>{guess ? "Run and reveal" : "Run without predicting"}</button>
      </fieldset>
      {error && <p className="error" role="alert">{error}</p>}
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
