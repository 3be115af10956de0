// /play/exfat: delete a file from an exFAT volume under Linux 6.14's discard (one request per
// cluster) or 6.15's (one per contiguous run). Choose the file's size and how many pieces it
// is in, predict how many discard requests the delete issues, then see the exfat core's answer
// and replay the delete event by event on the cluster grid, with the modelled time building
// up against the other policy's. The link holds every parameter.
import { useEffect, useMemo, useState } from "react";
import { exfatClient } from "./exfat-client";
import { useWorker } from "../../shared/useWorker";
import { DiscardPolicy } from "./events";
import type { ExfatSnapshot } from "./exfat-core";
import { DeleteReplay } from "./exfat-replay";
import type { DeleteResult } from "./exfat-scenario";
import { ClusterGrid } from "./ClusterGrid";
import { DeleteReplayControls, otherPolicy, policyName } from "./DeleteReplayControls";
import { errorOf, int } from "../../shared/params";
import { useParams } from "../../shared/useParams";
import { LinkProblems, ParamField } from "../../shared/view/ParamField";
import { EXFAT_PARAMS } from "./params";

export interface ExfatParams {
  clusters: number; // the file's, 4 KiB each
  runs: number; // pieces: 1 = contiguous (NoFatChain)
  batch: 0 | 1; // /sys/module/exfat/parameters/batch_discard
}


/** a prediction: a count of discard requests */
const GUESS = int("your guess", 0, 100_000_000, 0);

/** a file has at most as many pieces as clusters */
const piecesRule = (v: { clusters: number; runs: number }) =>
  v.runs > v.clusters ? { runs: `at most the file's ${v.clusters} cluster${v.clusters === 1 ? "" : "s"}` } : {};

export function PlayExfat({ query }: { query: string }) {
  const params = useParams(EXFAT_PARAMS, query, "exfat", piecesRule);
  const p: ExfatParams = { clusters: params.values.clusters, runs: params.values.runs, batch: params.values.batch ? 1 : 0 };
  const [guess, setGuess] = useState("");
  const [run, setRun] = useState<{ before: ExfatSnapshot; result: DeleteResult; replay: DeleteReplay } | null>(null);
  const [, setStep] = useState(0);
  const worker = useWorker(exfatClient);
  const { error } = worker;

  const set = (k: keyof typeof EXFAT_PARAMS, text: string) => {
    params.set(k, text);
    setRun(null);
  };

  const guessError = guess ? errorOf(GUESS, guess) : undefined;
  const policy = p.batch ? DiscardPolicy.Batched : DiscardPolicy.PerCluster;
  const reveal = () =>
    worker.run(async (client) => {
      // the file, and a second file growing between its pieces: runs - 1 spacer clusters
      await client.reset(p.clusters + p.runs + 64, 3);
      const made = p.runs > 1 ? await client.createFragmented(p.clusters, p.runs) : await client.createContiguous(p.clusters);
      const del = await client.delete(made.id, policy);
      const replay = new DeleteReplay(made.snapshot.bitmap, del.result.events);
      setRun({ before: made.snapshot, result: del.result, replay });
      setStep(0);
    });

  const discards = run?.result.discards.length ?? 0;
  const cols = p.clusters + p.runs > 2048 ? 128 : p.clusters + p.runs > 512 ? 64 : 32;
  const other = run ? run.result.otherPolicyDiscards : 0;
  return (
    <section className="play">
      <h1>exFAT: what deleting a file costs in discard requests</h1>
      <p>
        On a volume mounted with <code>-o discard</code>, freeing clusters tells the device they are unused. Up to Linux 6.14{" "}
        <code>exfat_clear_bitmap()</code> issued a discard for every cluster it cleared; since 6.15{" "}
        <code>__exfat_free_cluster()</code> clears the bits and issues one request per contiguous run. Its commit ("exfat: support batch discard of clusters when freeing clusters") timed{" "}
        <code>rm</code> of an 80 GiB file: 4 min 46 s before, 1.66 s after. Here the exfat core (after <code>fs/exfat/</code>)
        deletes a file you choose.
      </p>
      <form className="play-form" onSubmit={(e) => e.preventDefault()} aria-label="scenario">
        <LinkProblems problems={params.linkProblems} />
        <ParamField name="clusters" spec={EXFAT_PARAMS.clusters} raw={params.raw.clusters} error={params.errors.clusters} label="file size in 4 KiB clusters" onChange={(t) => set("clusters", t)} />
        <ParamField name="runs" spec={EXFAT_PARAMS.runs} raw={params.raw.runs} error={params.errors.runs} label="pieces (contiguous runs)" onChange={(t) => set("runs", t)} />
        <fieldset>
          <legend>batch_discard</legend>
          <label><input type="radio" name="batch" checked={p.batch === 0} onChange={() => set("batch", "0")} /> 0: per cluster (≤ 6.14)</label>
          <label><input type="radio" name="batch" checked={p.batch === 1} onChange={() => set("batch", "1")} /> 1: batched (≥ 6.15)</label>
        </fieldset>
      </form>
      <fieldset className="predict">
        <legend>Predict first: how many discard requests does the delete issue?</legend>
        <ParamField name="guess" spec={GUESS} raw={guess} error={guessError} label="about" after=" requests" ariaLabel="your guess" onChange={setGuess} />
        <button type="button" onClick={reveal} disabled={!params.valid || !!guessError}>{guess ? "Run and reveal" : "Run without predicting"}</button>
      </fieldset>
      {error && <p className="error" role="alert">{error}</p>}
      {run && (
        <div className="reveal" role="status" data-discards={discards} data-other={other}>
          <p>
            <strong data-testid="play-discards">{discards}</strong> discard request{discards === 1 ? "" : "s"} ({policyName(policy)})
            {guess ? (Number(guess) === discards ? ": your prediction was right." : `; you guessed ${guess}.`) : "."} The same delete under{" "}
            {policyName(otherPolicy(policy))} issues <strong data-testid="play-other">{other}</strong>.
          </p>
          <p className="muted">{run.replay.discardsSoFar} of {discards} discard requests issued so far.</p>
          <ClusterGrid snapshot={run.before} bitmap={run.replay.bitmap.slice()} cols={cols} selected={null} discards={run.replay.discards(256)} onSelect={() => {}} />
          <DeleteReplayControls replay={run.replay} policy={policy} otherDiscards={other} clusters={p.clusters} onStep={setStep} />
        </div>
      )}
    </section>
  );
}
