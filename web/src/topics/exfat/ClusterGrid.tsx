// The cluster heap as a grid: one cell per cluster, coloured by the file that owns it
// (from the allocation bitmap and the files' chains), the selected file's FAT chain drawn as
// a path through its clusters in order, and the last delete's discard requests outlined.
// Canvas for the cells (painted as one image: 65,536 of them animate at 60 fps), SVG for the
// few marks on top.
import { useEffect, useMemo, useRef } from "react";
import { line, curveMonotoneX, scaleLinear } from "d3";
import { EXFAT_FIRST_CLUSTER, ALLOC_NO_FAT_CHAIN, chainRuns, formatRuns, type ExfatSnapshot } from "./exfat-core";
import type { ExfatDiscard } from "./events";
import { fileColour, FREE } from "../../shared/view/palette";
import { paintCells, rgbaWord } from "../../shared/view/paint";
import { TableAlt } from "../../shared/view/TableAlt";
import { useWidth } from "../../shared/view/useWidth";
import "./exfat.css";

interface Props {
  snapshot: ExfatSnapshot;
  /** the allocation bitmap to show, when not the snapshot's own (a delete half replayed) */
  bitmap?: Uint8Array;
  selected: number | null;
  discards: ExfatDiscard[];
  onSelect(id: number | null): void;
  cols?: number;
}

/** Outlines drawn at most: a per-cluster delete of a big file issues tens of thousands. */
const MAX_OUTLINES = 256;
const FREE_WORD = rgbaWord(FREE);
const UNOWNED_WORD = rgbaWord("#777777");

export function ClusterGrid({ snapshot, bitmap = snapshot.bitmap, selected, discards, onSelect, cols: COLS = 32 }: Props) {
  const [wrap, width] = useWidth<HTMLDivElement>(640, 960);
  const canvas = useRef<HTMLCanvasElement>(null);
  const clusters = snapshot.numClusters - EXFAT_FIRST_CLUSTER;
  const rows = Math.ceil(clusters / COLS);
  const cell = Math.max(COLS > 64 ? 2 : 6, Math.floor(width / COLS));
  const height = rows * cell;

  // owner of each cluster index (clu - 2), -1 when free, and the colour it is drawn in when used
  const { owner, ownerWord } = useMemo(() => {
    const o = new Int32Array(clusters).fill(-1);
    for (const f of snapshot.files) for (const c of f.clusters) o[c - EXFAT_FIRST_CLUSTER] = f.id;
    const words = new Map<number, number>();
    const w = Uint32Array.from(o, (id) => (id < 0 ? UNOWNED_WORD : (words.get(id) ?? words.set(id, rgbaWord(fileColour(id))).get(id)!)));
    return { owner: o, ownerWord: w };
  }, [snapshot, clusters]);

  useEffect(() => {
    const dpr = window.devicePixelRatio || 1;
    const px = Math.max(1, Math.round(cell * dpr));
    const colours = new Uint32Array(clusters);
    for (let i = 0; i < clusters; i++) colours[i] = (bitmap[i >> 3] >> (i & 7)) & 1 ? ownerWord[i] : FREE_WORD;
    paintCells(canvas.current!.getContext("2d")!, colours, COLS, px);
  }, [bitmap, ownerWord, cell, clusters, COLS]);

  // the table alternative: each file's clusters as runs, in chain order
  const fileRuns = useMemo(
    () =>
      snapshot.files.map((f) => {
        const runs = chainRuns(f.clusters);
        return [f.name, f.clusters.length, runs.length > 12 ? `${formatRuns(runs.slice(0, 12))}, … (${runs.length} runs)` : formatRuns(runs), f.flags === ALLOC_NO_FAT_CHAIN ? "NoFatChain (contiguous)" : "FAT chain"];
      }),
    [snapshot],
  );
  const x = scaleLinear().domain([0, COLS]).range([0, COLS * cell]);
  const centre = (clu: number): [number, number] => {
    const i = clu - EXFAT_FIRST_CLUSTER;
    return [x(i % COLS) + cell / 2, Math.floor(i / COLS) * cell + cell / 2];
  };
  const sel = snapshot.files.find((f) => f.id === selected);
  const chainPath = sel ? line().curve(curveMonotoneX)(Array.from(sel.clusters, centre)) : null;

  // a discard request covers a run of clusters, which may wrap across grid rows; keyed by its
  // place in the whole list, not in the last 256, so a replay adding one request per frame
  // adds one outline instead of re-keying all 256 (React rebuilt every one each frame)
  const firstOutlined = Math.max(0, discards.length - MAX_OUTLINES);
  const discardRects = discards.slice(firstOutlined).flatMap((d, k) => {
    const rects = [];
    let i = d.start - EXFAT_FIRST_CLUSTER;
    let left = d.count;
    while (left > 0) {
      const inRow = Math.min(left, COLS - (i % COLS));
      rects.push(
        <rect key={`${firstOutlined + k}-${i}`} className="discard" x={x(i % COLS) + 0.5} y={Math.floor(i / COLS) * cell + 0.5} width={inRow * cell - 1} height={cell - 1} />,
      );
      i += inRow;
      left -= inRow;
    }
    return rects;
  });

  return (
    <div className="cluster-grid" ref={wrap}>
      <div style={{ position: "relative", width: COLS * cell, height }}>
        <canvas
          ref={canvas}
          data-testid="cluster-canvas"
          style={{ width: COLS * cell, height, display: "block" }}
          onClick={(e) => {
            const r = e.currentTarget.getBoundingClientRect();
            const i = Math.floor((e.clientY - r.top) / cell) * COLS + Math.floor((e.clientX - r.left) / cell);
            onSelect(i >= 0 && i < clusters && owner[i] >= 0 ? owner[i] : null);
          }}
          role="img"
          aria-label={`Cluster heap: ${snapshot.usedClusters} of ${clusters} clusters in use`}
        />
        <svg width={COLS * cell} height={height} style={{ position: "absolute", inset: 0, pointerEvents: "none" }}>
          {discardRects}
          {chainPath && (
            <path className={sel!.flags === ALLOC_NO_FAT_CHAIN ? "chain nofatchain" : "chain fatchain"} d={chainPath} />
          )}
        </svg>
      </div>
      <TableAlt summary="The files' clusters as a table" head={["file", "clusters", "runs", "chain"]} count={fileRuns.length} row={(i) => fileRuns[i]} />
      {discards.length > 0 && (
        <TableAlt summary="The discard requests as a table" head={["request", "first cluster", "clusters"]} count={discards.length} row={(i) => [i + 1, discards[i].start, discards[i].count]} />
      )}
    </div>
  );
}
