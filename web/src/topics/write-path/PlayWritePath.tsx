// /play/write-path: the write path without the VM, from traces our kernel recorded by the
// write-path lab's own steps (function_graph of a 4 KiB write on ext4 over loop, mq-deadline):
// pick how the data is written, predict how far down the calling task itself goes, then see
// the call tree. The link holds the choice.
import { useEffect, useMemo, useState } from "react";
import { parseFunctionGraph, pathTo, walk, type CallGraph, type Layer } from "./ftrace-graph";
import { fetchBytes } from "../../shared/gunzip";
import { CallTree, LAYER_COLOUR } from "./CallTree";
import { useParams } from "../../shared/useParams";
import { LinkProblems } from "../../shared/view/ParamField";
import { WRITE_PATH_PARAMS } from "./params";

const TRACES = {
  buffered: { label: "a buffered write()", task: "dd", url: new URL("./traces/write-path-buffered.trace.gz", import.meta.url).href },
  fsync: { label: "write() then fsync()", task: "dd", url: new URL("./traces/write-path-fsync.trace.gz", import.meta.url).href },
  direct: { label: "an O_DIRECT write()", task: "dd", url: new URL("./traces/write-path-direct.trace.gz", import.meta.url).href },
  sync: { label: "sync: the flusher writes back", task: "kworker", url: new URL("./traces/write-path-sync.trace.gz", import.meta.url).href },
} as const;
type Kind = keyof typeof TRACES;
const KINDS = Object.keys(TRACES) as Kind[];

/** The layers a write goes down through; writeback's own functions (balance_dirty_pages, the flusher) sit beside them. */
export const DOWN: Layer[] = ["vfs", "fs", "page cache", "blk-mq", "scheduler", "driver"];

/** The deepest of DOWN the task's own calls reach. */
export function deepestLayer(g: CallGraph, task: string): Layer {
  const roots = g.roots.filter((r) => r.task.startsWith(`${task}-`));
  let deepest = 0;
  for (const r of roots) for (const n of walk(r)) deepest = Math.max(deepest, DOWN.indexOf(n.layer));
  return DOWN[deepest];
}

export function PlayWritePath({ query }: { query: string }) {
  const params = useParams(WRITE_PATH_PARAMS, query, "write-path");
  const kind: Kind = params.values.trace;
  const [guess, setGuess] = useState<Layer | null>(null);
  const [graph, setGraph] = useState<CallGraph | null>(null);
  const [shown, setShown] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setGraph(null);
    setShown(false);
    fetchBytes(TRACES[kind].url).then((b) => setGraph(parseFunctionGraph(new TextDecoder().decode(b))), (e) => setError(String(e)));
  }, [kind]);
  const t = TRACES[kind];
  const deepest = useMemo(() => (graph ? deepestLayer(graph, t.task) : null), [graph, t.task]);
  const bio = graph ? pathTo(graph.roots.filter((r) => r.task.startsWith(`${t.task}-`)), "submit_bio") : null;

  return (
    <section className="play">
      <h1>The write path: how far down does the writer go?</h1>
      <p>
        Traces our guest kernel recorded with <code>function_graph</code> while writing 4 KiB to ext4 on a loop device with
        mq-deadline (the <a href="#/lab/write-path">write-path lab</a>'s own steps; run them there to trace your own). Pick a
        way of writing, predict the deepest layer the writing task's own calls reach, then open the tree.
      </p>
      <form className="play-form" onSubmit={(e) => e.preventDefault()} aria-label="scenario">
        <LinkProblems problems={params.linkProblems} />
        {KINDS.map((k) => (
          <label key={k}>
            <input type="radio" name="trace" checked={kind === k} onChange={() => params.set("trace", k)} /> {TRACES[k].label}
          </label>
        ))}
      </form>
      <fieldset className="predict">
        <legend>Predict first: the deepest layer {t.task === "dd" ? "dd's write (and fsync)" : "the flusher's work"} reaches</legend>
        <select value={guess ?? ""} onChange={(e) => setGuess(e.target.value as Layer)} aria-label="your guess">
          <option value="" disabled>choose a layer</option>
          {DOWN.map((l) => <option key={l} value={l}>{l}</option>)}
        </select>
        <button type="button" disabled={!graph} onClick={() => setShown(true)}>{guess ? "Reveal" : "Reveal without predicting"}</button>
      </fieldset>
      {error && <p className="error" role="alert">{error}</p>}
      {shown && graph && deepest && (
        <div className="reveal" role="status" data-deepest={deepest}>
          <p>
            The deepest layer is <strong style={{ borderBottom: `3px solid ${LAYER_COLOUR[deepest]}` }}>{deepest}</strong>
            {guess ? (guess === deepest ? ": your prediction was right." : `; you predicted ${guess}.`) : "."}{" "}
            {bio
              ? `The task itself calls submit_bio(): ${bio.map((n) => n.name.replace(/\..*$/, "")).join(" → ")}.`
              : "The task never calls submit_bio(): the data stays in the page cache for writeback to send."}
          </p>
          <CallTree graph={graph} />
        </div>
      )}
    </section>
  );
}
