// What the real kernel did: its exfat_empty_search events, streamed live from the guest,
// set against the directory model running the lab's steps with each setting of empty_hint.
// Model and kernel should agree record for record; where they do not, the first difference
// is shown with both records.
import { useEffect, useMemo, useState } from "react";
import { exfatClient } from "./exfat-client";
import { useWorker } from "../../shared/useWorker";
import { WORDS_PER_EVENT } from "../../shared/events";
import { EV } from "./events";
import { LAB_SCENARIO, firstDifference, type DirRun } from "./exfat-dir";
import type { TraceStats } from "../../shared/machine";
import type { Verdict } from "../../shared/verdict";
import { useVerdict } from "../../shared/verdict";

function onlySearches(events: Uint32Array): Uint32Array {
  const out: number[] = [];
  for (let i = 0; i < events.length; i += WORDS_PER_EVENT) if (events[i] === EV.EXFAT_EMPTY_SEARCH) out.push(...events.subarray(i, i + WORDS_PER_EVENT));
  return Uint32Array.from(out);
}

/** A search record's fields as the panel writes them: the kernel's -1 is no hint, or no slot (-ENOSPC). */
function searchFields(s: Uint32Array, i: number) {
  const w = s.subarray(i * WORDS_PER_EVENT, (i + 1) * WORDS_PER_EVENT);
  return { examined: w[1], hint: w[2] === 0xffffffff ? "none" : String(w[2]), slot: w[3] === 0xffffffff ? "-ENOSPC" : String(w[3]) };
}

const rec = (s: Uint32Array, i: number) => {
  if (i * WORDS_PER_EVENT >= s.length) return "(none)";
  const f = searchFields(s, i);
  return `examined ${f.examined}, hint ${f.hint}, slot ${f.slot}`;
};

/** The model run the kernel's latest searches reproduce (the tail of its stream), if any. */
export function modelMatching(kernel: Uint32Array, models: DirRun[]): DirRun | null {
  return models.find((m) => m.events.length && kernel.length >= m.events.length && firstDifference(kernel.subarray(kernel.length - m.events.length), m.events) < 0) ?? null;
}

/**
 * Where the lab's run starts in the kernel's stream, when no model run is its tail: the search
 * from which the kernel's records follow a model's from its first record for the longest, and
 * for how many (`agree`). Searches before it (a run given up, the learner's own creates) are
 * not the run's; `agree` reaching the stream's end means the run is still going.
 */
export function bestAlignment(kernel: Uint32Array, models: DirRun[]): { start: number; model: DirRun; agree: number } | null {
  const searches = kernel.length / WORDS_PER_EVENT;
  let best: { start: number; model: DirRun; agree: number } | null = null;
  for (const model of models) {
    if (!model.events.length) continue;
    for (let p = 0; p < searches; p++) {
      // only where the model's first record is: a fresh directory's first create
      if (firstDifference(kernel.subarray(p * WORDS_PER_EVENT, (p + 1) * WORDS_PER_EVENT), model.events.subarray(0, WORDS_PER_EVENT)) >= 0) continue;
      const d = firstDifference(kernel.subarray(p * WORDS_PER_EVENT), model.events);
      const agree = d < 0 ? Math.min(searches - p, model.events.length / WORDS_PER_EVENT) : d;
      if (!best || agree >= best.agree) best = { start: p, model, agree };
    }
  }
  return best;
}

/**
 * Where the learner's own searches begin, when an alignment covers a model run whole and the
 * stream goes on past it (a challenge's creates after the lab's run); null otherwise.
 */
export function ownSearchesFrom(aligned: { start: number; model: DirRun; agree: number }): number | null {
  return aligned.agree === aligned.model.events.length / WORDS_PER_EVENT ? aligned.start + aligned.agree : null;
}

/** The directory model through the lab's steps (this learner's), with the hint and without (null until the worker answers). */
export function useLabDirModels(scenario: readonly string[] = LAB_SCENARIO): DirRun[] | null {
  const { client } = useWorker(exfatClient);
  const [models, setModels] = useState<DirRun[] | null>(null);
  const key = scenario.join("\n");
  useEffect(() => {
    client?.dir([...scenario]).then(setModels, () => setModels(null));
  }, [client, key]);
  return models;
}

/** The lab's panel: the kernel's searches as they stream in, against the model it computes for the lab's steps. */
export function KernelEmptySearch({ events, stats, onVerdict, scenario }: { events: Uint32Array; stats: TraceStats | null; onVerdict?: (v: Verdict) => void; scenario?: readonly string[] }) {
  return <EmptySearchVerdict events={events} stats={stats} models={useLabDirModels(scenario)} onVerdict={onVerdict} />;
}

/** Draws the kernel's exfat_empty_search records against model runs it is given. */
export function EmptySearchVerdict({ events, stats, models, onVerdict }: { events: Uint32Array; stats: TraceStats | null; models: DirRun[] | null; onVerdict?: (v: Verdict) => void }) {
  const kernel = useMemo(() => onlySearches(events), [events]);
  const searches = kernel.length / WORDS_PER_EVENT;
  let examined = 0;
  for (let i = 0; i < kernel.length; i += WORDS_PER_EVENT) examined += kernel[i + 1];
  const match = models ? modelMatching(kernel, models) : null;
  // else where the lab's run starts in the stream and how far it follows a model (a run going on,
  // or one that parts), or without such a start, the first record that differs from the model with the hint
  const aligned = models && !match && searches ? bestAlignment(kernel, models) : null;
  const first = aligned ? aligned.start + aligned.agree : models && !match && searches ? firstDifference(kernel, models[0].events) : -1;
  const going = !!aligned && aligned.start + aligned.agree === searches;
  // the lab's run whole, then creates of the learner's own (a challenge's): listed, not judged
  const own = aligned && !going ? ownSearchesFrom(aligned) : null;
  const whole = own !== null;
  const ownFrom = own ?? searches;
  useVerdict(
    onVerdict,
    match
      ? { state: "agree", detail: `the kernel's last ${match.events.length / WORDS_PER_EVENT} searches are the model's with empty_hint=${match.emptyHint ? 1 : 0}, record for record` }
      : whole
        ? { state: "agree", detail: `the kernel's run of the lab's steps is the model's with empty_hint=${aligned!.model.emptyHint ? 1 : 0}, record for record; ${searches - ownFrom} search${searches - ownFrom === 1 ? "" : "es"} of your own followed it` }
      : going
        ? { state: "waiting", detail: `the lab's run is still going: its ${aligned!.agree} searches so far are the model's first` }
        : first >= 0
        ? { state: "disagree", detail: `the kernel's searches are not (yet) the model's run of the lab's steps: they part at search ${first}` }
        : { state: "waiting", detail: "no exfat_empty_search events yet" },
  );

  return (
    <section className="panel" aria-label="Empty-entry searches of the real kernel" data-testid="kernel-searches">
      <h2>The kernel's empty-entry searches (live)</h2>
      {!stats ? (
        <p className="muted">Nothing yet. In the terminal, run <code>fslab-trace start exfat/exfat_empty_search</code>, then create files.</p>
      ) : (
        <>
          <p>
            <strong data-testid="kernel-search-count">{searches}</strong> exfat_empty_search events, <strong data-testid="kernel-examined">{examined}</strong> entries examined.
            {stats.lost > 0 && <span className="error"> {stats.lost} trace lines were lost on the way.</span>}
            {stats.overrun ? <span className="error"> The kernel's trace buffer dropped {stats.overrun} events.</span> : null}
          </p>
          {match ? (
            <p data-testid="model-verdict" data-hint={match.emptyHint ? 1 : 0}>
              Its last {match.events.length / WORDS_PER_EVENT} searches are the model's for the lab's steps with <code>empty_hint={match.emptyHint ? 1 : 0}</code>, record for record:{" "}
              <span data-testid="run-examined">{match.examined}</span> entries examined in that run (the searches before it, making the directory and earlier runs,
              are in the total above).
            </p>
          ) : whole ? (
            <>
              <p data-testid="model-verdict" data-hint={aligned!.model.emptyHint ? 1 : 0}>
                From search {aligned!.start}, all {aligned!.agree} searches of the lab&apos;s steps are the model&apos;s with{" "}
                <code>empty_hint={aligned!.model.emptyHint ? 1 : 0}</code>, record for record.{" "}
                {searches - ownFrom === 1 ? "The one search after them is your own create's" : `The ${searches - ownFrom} searches after them are your own creates'`}; the model
                does not know {searches - ownFrom === 1 ? "it" : "them"}:
              </p>
              <OwnSearches kernel={kernel} from={ownFrom} />
            </>
          ) : aligned && going ? (
            <p data-testid="model-verdict" data-hint="going">
              From search {aligned.start}, {aligned.agree} searches so far are the first of the model&apos;s{" "}
              {aligned.model.events.length / WORDS_PER_EVENT} for the lab&apos;s steps with <code>empty_hint={aligned.model.emptyHint ? 1 : 0}</code>, record
              for record: a run still going{aligned.start ? ` (the ${aligned.start} searches before it are not the lab's run)` : ""}.
            </p>
          ) : aligned ? (
            <p data-testid="model-verdict" data-hint="none">
              From search {aligned.start}, the kernel follows the model&apos;s run of the lab&apos;s steps with{" "}
              <code>empty_hint={aligned.model.emptyHint ? 1 : 0}</code> for {aligned.agree} searches, then parts at search {first}: kernel{" "}
              {rec(kernel, first)}; model {rec(aligned.model.events, aligned.agree)}.
            </p>
          ) : first >= 0 ? (
            <p data-testid="model-verdict" data-hint="none">
              Not (yet) the model&apos;s run of the lab&apos;s steps: no search in the stream is its first create&apos;s. First difference from the
              model with the hint, at search {first}: kernel {rec(kernel, first)}; model {rec(models![0].events, first)}.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/** The searches after the lab's run (the newest ten), each as the kernel recorded it. */
function OwnSearches({ kernel, from }: { kernel: Uint32Array; from: number }) {
  const searches = kernel.length / WORDS_PER_EVENT;
  const first = Math.max(from, searches - 10);
  const rows = [];
  for (let i = first; i < searches; i++) {
    const f = searchFields(kernel, i);
    rows.push(
      <tr key={i}>
        <td>{i}</td>
        <td>{f.examined}</td>
        <td>{f.hint}</td>
        <td>{f.slot}</td>
      </tr>,
    );
  }
  return (
    <table className="files" data-testid="own-searches">
        <caption>{first > from ? `The newest 10 of ${searches - from} searches after the lab's run` : "The searches after the lab's run"}</caption>
        <thead>
          <tr>
            <th scope="col">search</th>
            <th scope="col">entries examined</th>
            <th scope="col">hint (entry)</th>
            <th scope="col">slot found</th>
          </tr>
        </thead>
        <tbody>{rows}</tbody>
    </table>
  );
}
