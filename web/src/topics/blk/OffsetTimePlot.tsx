// Offset against time, in the spirit of seekwatcher and iowatcher: one dot per request at
// the time it was dispatched to the device and the sector it starts at, coloured by fio
// job; under it, how many requests wait for dispatch (inserted, not yet dispatched).
// Dots are drawn on a canvas (a run has up to hundreds of thousands), axes with D3 in SVG.
import { useEffect, useMemo, useRef } from "react";
import { axisBottom, axisLeft, line, max, scaleLinear, select, curveStepAfter } from "d3";
import { ROW, ROW_WIDTH } from "./blk-core";
import { OKABE_ITO } from "../../shared/view/palette";
import { TableAlt } from "../../shared/view/TableAlt";

interface Props {
  title: string;
  rows: Float64Array;
  timeMaxMs: number; // shared by the plots being compared
  sectorMax: number;
  width?: number;
}

const M = { top: 8, right: 12, bottom: 34, left: 70 };

/** queue depth over time: +1 at insert, -1 at dispatch, as step points (ms, depth) */
export function queueDepth(rows: Float64Array): Array<[number, number]> {
  const n = rows.length / ROW_WIDTH;
  const ev: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    ev.push([rows[i * ROW_WIDTH + ROW.insert_us] / 1000, 1]);
    ev.push([rows[i * ROW_WIDTH + ROW.dispatch_us] / 1000, -1]);
  }
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  let depth = 0;
  for (const [t, d] of ev) {
    depth += d;
    if (out.length && out[out.length - 1][0] === t) out[out.length - 1][1] = depth;
    else out.push([t, depth]);
  }
  return out;
}

export function OffsetTimePlot({ title, rows, timeMaxMs, sectorMax, width = 460 }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const axes = useRef<SVGSVGElement>(null);
  const depthSvg = useRef<SVGSVGElement>(null);
  const height = 260;
  const n = rows.length / ROW_WIDTH;
  const depth = useMemo(() => queueDepth(rows), [rows]);
  const x = useMemo(() => scaleLinear().domain([0, timeMaxMs || 1]).range([M.left, width - M.right]), [timeMaxMs, width]);
  const y = useMemo(() => scaleLinear().domain([0, sectorMax || 1]).range([height - M.bottom, M.top]), [sectorMax]);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const ratio = window.devicePixelRatio || 1;
    c.width = width * ratio;
    c.height = height * ratio;
    const g = c.getContext("2d")!;
    g.scale(ratio, ratio);
    g.clearRect(0, 0, width, height);
    for (let i = 0; i < n; i++) {
      const r = i * ROW_WIDTH;
      g.fillStyle = OKABE_ITO[rows[r + ROW.job] % OKABE_ITO.length];
      g.fillRect(x(rows[r + ROW.dispatch_us] / 1000) - 1, y(rows[r + ROW.sector]) - 1, 2.5, 2.5);
    }
    const svg = select(axes.current!);
    svg.selectAll("*").remove();
    svg.append("g").attr("transform", `translate(0,${height - M.bottom})`).call(axisBottom(x).ticks(5));
    svg.append("g").attr("transform", `translate(${M.left},0)`).call(axisLeft(y).ticks(5, "~s"));
    svg.append("text").attr("x", (M.left + width - M.right) / 2).attr("y", height - 2).attr("text-anchor", "middle").attr("font-size", 11).text("time dispatched (ms)");
    svg.append("text").attr("transform", `translate(12,${(height - M.bottom) / 2}) rotate(-90)`).attr("text-anchor", "middle").attr("font-size", 11).text("sector");
  }, [rows, n, x, y, width]);

  useEffect(() => {
    const h = 80;
    const yd = scaleLinear().domain([0, max(depth, (d) => d[1]) || 1]).range([h - 20, 6]);
    const svg = select(depthSvg.current!);
    svg.selectAll("*").remove();
    svg.append("path").attr("d", line<[number, number]>().x((d) => x(d[0])).y((d) => yd(d[1])).curve(curveStepAfter)(depth) ?? "").attr("fill", "none").attr("stroke", "#0072B2");
    svg.append("g").attr("transform", `translate(${M.left},0)`).call(axisLeft(yd).ticks(3));
    svg.append("text").attr("x", M.left + 6).attr("y", 12).attr("font-size", 11).text("requests waiting for dispatch");
  }, [depth, x]);

  return (
    <figure className="offset-plot" aria-label={`${title}: ${n} requests, sector against time`} data-points={n}>
      <figcaption><strong>{title}</strong></figcaption>
      <div style={{ position: "relative", width, height }}>
        <canvas ref={canvas} style={{ position: "absolute", left: 0, top: 0, width, height }} />
        <svg ref={axes} width={width} height={height} style={{ position: "absolute", left: 0, top: 0 }} aria-hidden="true" />
      </div>
      <svg ref={depthSvg} width={width} height={80} aria-hidden="true" />
      <TableAlt
        summary="The requests as a table"
        head={["request", "job", "op", "sector", "sectors", "inserted (ms)", "dispatched (ms)", "completed (ms)"]}
        count={n}
        row={(i) => {
          const r = i * ROW_WIDTH;
          const ms = (us: number) => (us / 1000).toFixed(3);
          return [i, rows[r + ROW.job], rows[r + ROW.op] ? "write" : "read", rows[r + ROW.sector], rows[r + ROW.sectors], ms(rows[r + ROW.insert_us]), ms(rows[r + ROW.dispatch_us]), ms(rows[r + ROW.complete_us])];
        }}
      />
    </figure>
  );
}
