// A function_graph call tree: each kernel call a row, indented under its caller, with its
// layer (VFS, filesystem, page cache, writeback, blk-mq, scheduler, driver) as a coloured bar
// scaled to its duration and as a word. "The way down" opens only the calls that lead to the
// landmarks of the write path; "Everything" lets the learner open any call.
// Keyboard: arrows move between rows, Right opens, Left closes or goes to the caller.
import { useMemo, useRef, useState, type KeyboardEvent } from "react";
import { scaleLinear } from "d3";
import { LAYERS, selfTimeByLayer, walk, type CallGraph, type CallNode, type Layer } from "./ftrace-graph";

export const LAYER_COLOUR: Record<Layer, string> = {
  vfs: "#0072B2",
  fs: "#009E73",
  "page cache": "#56B4E9",
  writeback: "#E69F00",
  "blk-mq": "#D55E00",
  scheduler: "#CC79A7",
  driver: "#000000",
  other: "#bbbbbb",
};

/** The calls a write passes on its way down (and the completion on its way back). */
export const LANDMARKS = [
  "generic_perform_write",
  "iomap_dio_rw",
  "ext4_writepages",
  "submit_bio",
  "dd_insert_requests",
  "dd_dispatch_request",
  "loop_queue_rq",
  "blk_mq_complete_request",
];
const base = (n: CallNode) => n.name.replace(/\..*$/, "");
const isLandmark = (n: CallNode) => LANDMARKS.includes(base(n));

/** Every call on a path from a root to a landmark: the tree opened "the way down". */
function wayDown(roots: CallNode[]): Set<CallNode> {
  const open = new Set<CallNode>();
  const visit = (n: CallNode, path: CallNode[]): void => {
    if (isLandmark(n)) for (const p of path) open.add(p);
    for (const c of n.children) visit(c, [...path, n]);
  };
  for (const r of roots) visit(r, []);
  return open;
}

const us = (d: number | null) => (d === null ? "still running" : d >= 1000 ? `${(d / 1000).toFixed(2)} ms` : `${d.toFixed(1)} µs`);

interface Row {
  node: CallNode;
  depth: number;
  parent: number; // index of the caller's row, -1 for a root
}

export function CallTree({ graph }: { graph: CallGraph }) {
  const tasks = useMemo(() => [...new Set(graph.roots.map((r) => r.task))], [graph]);
  const [task, setTask] = useState<string>("all");
  const [mode, setMode] = useState<"way" | "all">("way");
  const roots = useMemo(() => (task === "all" ? graph.roots : graph.roots.filter((r) => r.task === task)), [graph, task]);
  // Which calls are open belongs to one tree and one mode: a new trace or mode resets it in
  // the same render (an effect would draw the new tree closed for a frame first).
  const [shown, setShown] = useState(() => ({ roots, mode, open: wayDown(roots) }));
  const [focus, setFocus] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  if (shown.roots !== roots || shown.mode !== mode) {
    setShown({ roots, mode, open: mode === "way" ? wayDown(roots) : new Set() });
    setFocus(0);
  }
  const open = shown.open;
  const setOpen = (next: Set<CallNode>) => setShown({ roots, mode, open: next });

  const rows = useMemo(() => {
    const out: Row[] = [];
    const add = (n: CallNode, depth: number, parent: number) => {
      const i = out.length;
      out.push({ node: n, depth, parent });
      if (open.has(n)) for (const c of n.children) add(c, depth + 1, i);
    };
    for (const r of roots) add(r, 0, -1);
    return out;
  }, [roots, open]);

  const longest = Math.max(1, ...roots.map((r) => r.durationUs ?? 0));
  const width = scaleLinear().domain([0, longest]).range([0, 100]).clamp(true);
  const self = useMemo(() => selfTimeByLayer(roots), [roots]);
  const callsIn = useMemo(() => {
    const m = new Map<Layer, number>(LAYERS.map((l) => [l, 0]));
    for (const r of roots) for (const n of walk(r)) m.set(n.layer, m.get(n.layer)! + 1);
    return m;
  }, [roots]);
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;

  const toggle = (n: CallNode, to = !open.has(n)) => {
    if (!n.children.length) return;
    const next = new Set(open);
    if (to) next.add(n);
    else next.delete(n);
    setOpen(next);
  };
  const moveFocus = (i: number) => {
    const j = Math.max(0, Math.min(rows.length - 1, i));
    setFocus(j);
    (list.current?.querySelector(`[data-row="${j}"]`) as HTMLElement | null)?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    const row = rows[focus];
    if (!row) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveFocus(focus + 1),
      ArrowUp: () => moveFocus(focus - 1),
      Home: () => moveFocus(0),
      End: () => moveFocus(rows.length - 1),
      ArrowRight: () => (open.has(row.node) ? moveFocus(focus + 1) : toggle(row.node, true)),
      ArrowLeft: () => (open.has(row.node) ? toggle(row.node, false) : row.parent >= 0 && moveFocus(row.parent)),
      Enter: () => toggle(row.node),
      " ": () => toggle(row.node),
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  };

  return (
    <div className="call-tree">
      <div className="toolbar">
        <label>
          Task{" "}
          <select value={task} onChange={(e) => setTask(e.target.value)} aria-label="task">
            <option value="all">all ({tasks.length})</option>
            {tasks.map((t) => (
              <option key={t} value={t}>{t}</option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Open</legend>
          <label><input type="radio" checked={mode === "way"} onChange={() => setMode("way")} /> the way down</label>
          <label><input type="radio" checked={mode === "all"} onChange={() => setMode("all")} /> top calls only</label>
        </fieldset>
        <span className="muted" data-testid="call-count">{[...callsIn.values()].reduce((a, b) => a + b, 0)} calls</span>
      </div>
      <ul className="layer-legend" aria-label="layers">
        {LAYERS.map((l) => (
          <li key={l}><span className="swatch" style={{ background: LAYER_COLOUR[l] }} /> {l}</li>
        ))}
      </ul>
      <div className="tree-rows" role="tree" aria-label="kernel calls" ref={list} onKeyDown={onKey}>
        {rows.map((r, i) => {
          const n = r.node;
          const mark = isLandmark(n);
          return (
            <div
              key={i}
              role="treeitem"
              aria-level={r.depth + 1}
              aria-expanded={n.children.length ? open.has(n) : undefined}
              aria-selected={i === focus}
              tabIndex={i === focus ? 0 : -1}
              data-row={i}
              data-call={base(n)}
              className={`call-row${mark ? " landmark" : ""}`}
              onFocus={() => setFocus(i)}
              onClick={() => {
                setFocus(i);
                toggle(n);
              }}
            >
              <span className="call-name" style={{ paddingLeft: `${r.depth * 0.9}rem` }}>
                <span className="twisty" aria-hidden>{n.children.length ? (open.has(n) ? "▾" : "▸") : "·"}</span>
                {n.partial && <span title="its call was before the trace began">…</span>}
                {n.name}
                {n.module && <span className="muted" title={`in the ${n.module} module`}> [{n.module}]</span>}
                {r.depth === 0 && <span className="muted"> [{n.task}]</span>}
                {/* the lab's `graph` script writing tracing_on: its own two writes, traced */}
                {r.depth === 0 && /^graph-\d+$/.test(n.task) && <span className="muted"> the recorder switching tracing on or off</span>}
              </span>
              <span className="call-layer">{n.layer}</span>
              <span className="call-time">{us(n.durationUs)}</span>
              <span className="call-bar" aria-hidden>
                <span style={{ width: `${n.durationUs === null ? 100 : Math.max(0.5, width(n.durationUs))}%`, background: LAYER_COLOUR[n.layer] }} />
              </span>
            </div>
          );
        })}
      </div>
      <table className="files" aria-label="time per layer" data-testid="layer-table">
        <thead>
          <tr><th>layer</th><th>calls</th><th>own time</th><th>share</th></tr>
        </thead>
        <tbody>
          {LAYERS.map((l) => (
            <tr key={l} data-layer={l}>
              <td><span className="swatch" style={{ background: LAYER_COLOUR[l] }} /> {l}</td>
              <td>{callsIn.get(l)}</td>
              <td>{us(self.get(l)!)}</td>
              <td>{((100 * self.get(l)!) / total).toFixed(0)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Own time is a call's duration less its traced callees'; a helper with no layer of its own (a lock, an allocation)
        counts for its caller's layer.
      </p>
    </div>
  );
}
