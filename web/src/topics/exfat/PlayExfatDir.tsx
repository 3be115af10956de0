// /play/exfat-dir: create files in one exFAT directory, remove some, create more, with and
// without Linux 6.2's empty-entry hint (Yuezhang Mo's patch: 5000 creates up to 57% faster). Predict how
// many times more directory entries the empty-entry search examines without the hint, then
// see the exfat core's directory model: both directories slot by slot, each search's count,
// the totals. The model matches the guest kernel's exfat_empty_search events record for
// record (the exfat-empty-hint lab checks it live). The link holds every parameter. A total
// the learner's exfat-empty-hint lab still asks of them is held here as in the lab.
import { useEffect, useMemo, useState } from "react";
import { exfatClient } from "./exfat-client";
import { useWorker } from "../../shared/useWorker";
import { dirScenarioOps, type DirRun, type DirScenario, type DirSweep } from "./exfat-dir";
import { DIR_EXAMINED, DirRunsView, runsHeld, useHeldTotals } from "./DirectoryView";
import { heldAcrossLabs } from "../../shared/held-answers";
import { DirSweepView } from "./DirSweep";
import { decimal, errorOf } from "../../shared/params";
import { useParams } from "../../shared/useParams";
import { LinkProblems, ParamField } from "../../shared/view/ParamField";
import { EXFAT_DIR_PARAMS } from "./params";


/** a prediction: how many times more entries without the hint */
const GUESS_RATIO = decimal("your guess", 0, 1e6, 1);

/** entries examined without the hint per entry examined with it */
export const examinedRatio = (runs: DirRun[]) => {
  const [hint, old] = [true, false].map((h) => runs.find((r) => r.emptyHint === h)!.examined);
  return old / Math.max(1, hint);
};

export function PlayExfatDir({ query }: { query: string }) {
  const params = useParams(EXFAT_DIR_PARAMS, query, "exfat-dir");
  const p: DirScenario = { files: params.values.files, removeEvery: params.values.remove, longNames: params.values.long };
  const [guess, setGuess] = useState("");
  const guessError = guess ? errorOf(GUESS_RATIO, guess) : undefined;
  const [runs, setRuns] = useState<DirRun[] | null>(null);
  const [sweeps, setSweeps] = useState<DirSweep[][] | null>(null);
  const worker = useWorker(exfatClient);
  const { busy, error } = worker;
  // the totals a lab of this learner's still asks for (exfat-empty-hint's own scenario): held
  // here as in the lab, with the ratio and the searches that would give them away
  // (read again at each run: an answer given in the lab's tab since frees it here)
  const [labKeys, setLabKeys] = useState(() => heldAcrossLabs(DIR_EXAMINED));
  const heldTotals = useHeldTotals(worker.client, labKeys);
  const held = runs !== null && runsHeld(runs, heldTotals);

  const set = (k: keyof typeof EXFAT_DIR_PARAMS, text: string) => {
    params.set(k, text);
    setRuns(null);
    setSweeps(null);
  };
  const reveal = () =>
    worker.run(async (client) => {
      setLabKeys(heldAcrossLabs(DIR_EXAMINED));
      setRuns(await client.dir(dirScenarioOps(p)));
      setSweeps(await client.dirSweeps(dirScenarioOps(p)));
    });
  const ratio = runs ? examinedRatio(runs) : null;
  const g = Number(guess);

  return (
    <section className="play">
      <h1>exFAT: how far does a create search for free directory entries?</h1>
      <p>
        Creating a file needs a run of free 32-byte entries in its directory (3 for a short name, more for a long one).
        Before Linux 6.2, <code>exfat_find_empty_entry()</code> searched from the directory's start each time, across every
        entry set in use; since 6.2 the search keeps a hint (<code>hint_femp</code>) of where free entries were last seen, and a
        removal leaves one. Yuezhang Mo's patch ("exfat: hint the empty entry which at the end of cluster chain") timed 5000 creates on an i.MX6 board with an SD card: up to 57% faster with it.
      </p>
      <form className="play-form" onSubmit={(e) => e.preventDefault()} aria-label="scenario">
        <LinkProblems problems={params.linkProblems} />
        <ParamField name="files" spec={EXFAT_DIR_PARAMS.files} raw={params.raw.files} error={params.errors.files} label="create files" onChange={(t) => set("files", t)} />
        <ParamField name="remove" spec={EXFAT_DIR_PARAMS.remove} raw={params.raw.remove} error={params.errors.remove} label="then remove every" after="-th (0: none)" onChange={(t) => set("remove", t)} />
        <ParamField name="long" spec={EXFAT_DIR_PARAMS.long} raw={params.raw.long} error={params.errors.long} label="then create long names" onChange={(t) => set("long", t)} />
      </form>
      <fieldset className="predict">
        <legend>Predict first: without the hint, how many times more entries do the searches examine?</legend>
        <ParamField name="guess" spec={GUESS_RATIO} raw={guess} error={guessError} label="about" after=" times" ariaLabel="your guess" onChange={setGuess} />
        <button type="button" onClick={reveal} disabled={busy || !params.valid || !!guessError}>{busy ? "Running…" : guess ? "Run and reveal" : "Run without predicting"}</button>
      </fieldset>
      {error && <p className="error" role="alert">{error}</p>}
      {runs && ratio !== null && held && (
        <div className="reveal" role="status" data-testid="dir-play-held">
          {heldTotals === null ? (
            <p className="muted">Checking these totals against the answers the exFAT empty-hint lab still asks of you…</p>
          ) : (
            <>
              <p>
                Held back: a total here answers a prediction or question of the exFAT empty-hint lab that you have not given yet.
                Answer it in the lab first, or change a number here.
              </p>
              <DirRunsView runs={runs} held={heldTotals} />
            </>
          )}
        </div>
      )}
      {runs && ratio !== null && !held && (
        <div className="reveal" role="status" data-ratio={ratio.toFixed(3)}>
          <p>
            Without the hint the searches examine <strong data-testid="dir-ratio">{ratio.toFixed(2)}×</strong> the entries they
            examine with it
            {guess && g > 0 ? `; you guessed ${g}× (${g >= ratio ? "over" : "under"} by ${Math.round((100 * Math.abs(g - ratio)) / ratio)}%).` : "."}
          </p>
          <p className="muted">
            Entries examined are not time: a create also allocates, builds and writes its entry set and inode, and reading
            entries already cached is cheap. The patch's 57% is whole creates timed on a real device.
          </p>
          <DirRunsView runs={runs} />
          {sweeps && <DirSweepView sweeps={sweeps} />}
        </div>
      )}
    </section>
  );
}
