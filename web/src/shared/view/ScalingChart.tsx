// One line per series against a doubling x (core counts as FxMark plots them, write sizes),
// on a log scale. SVG: the points number in the tens.
import { useEffect, useRef } from "react";
import { axisBottom, axisLeft, line, max, min, scaleLinear, scaleLog, select } from "d3";
import { OKABE_ITO } from "./palette";

// Okabe–Ito without its yellow, which is too light for lines and text on white
const COLOURS = OKABE_ITO.filter((c) => c !== "#F0E442");

export interface Series {
  name: string;
  points: Array<{ cores: number; value: number }>;
}

export function ScalingChart({ series, yLabel, xLabel = "cores", width = 640, height = 320 }: { series: Series[]; yLabel: string; xLabel?: string; width?: number; height?: number }) {
  const svgRef = useRef<SVGSVGElement>(null);
  useEffect(() => {
    const M = { top: 10, right: 150, bottom: 40, left: 70 };
    const all = series.flatMap((s) => s.points);
    const x = scaleLog().domain([min(all, (p) => p.cores) || 1, max(all, (p) => p.cores) || 2]).range([M.left, width - M.right]);
    const y = scaleLinear().domain([0, (max(all, (p) => p.value) || 1) * 1.05]).range([height - M.bottom, M.top]);
    const svg = select(svgRef.current!);
    svg.selectAll("*").remove();
    const cores = [...new Set(all.map((p) => p.cores))];
    svg.append("g").attr("transform", `translate(0,${height - M.bottom})`).call(axisBottom(x).tickValues(cores).tickFormat((d) => String(d)));
    svg.append("g").attr("transform", `translate(${M.left},0)`).call(axisLeft(y).ticks(6, "~s"));
    svg.append("text").attr("x", (M.left + width - M.right) / 2).attr("y", height - 6).attr("text-anchor", "middle").attr("font-size", 12).text(xLabel);
    svg.append("text").attr("transform", `translate(14,${(height - M.bottom) / 2}) rotate(-90)`).attr("text-anchor", "middle").attr("font-size", 12).text(yLabel);
    const labels: Array<{ name: string; colour: string; x: number; y: number }> = [];
    series.forEach((s, i) => {
      const colour = COLOURS[i % COLOURS.length];
      const g = svg.append("g").attr("class", "series").attr("data-series", s.name);
      g.append("path").attr("d", line<{ cores: number; value: number }>().x((p) => x(p.cores)).y((p) => y(p.value))(s.points) ?? "").attr("fill", "none").attr("stroke", colour).attr("stroke-width", 2).attr("stroke-dasharray", i % 2 ? "6 3" : null);
      g.selectAll("circle").data(s.points).join("circle").attr("cx", (p) => x(p.cores)).attr("cy", (p) => y(p.value)).attr("r", 3).attr("fill", colour);
      const last = s.points[s.points.length - 1];
      if (last) labels.push({ name: s.name, colour, x: x(last.cores) + 8, y: y(last.value) + 4 });
    });
    // direct labels at the line ends (no legend to look up), pushed apart where lines meet
    labels.sort((a, b) => a.y - b.y);
    for (let i = 1; i < labels.length; i++) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + 14);
    for (const l of labels) svg.append("text").attr("x", l.x).attr("y", l.y).attr("font-size", 12).attr("fill", l.colour).text(l.name);
  }, [series, yLabel, xLabel, width, height]);
  return <svg ref={svgRef} width={width} height={height} role="img" aria-label={`${yLabel} against ${xLabel} for ${series.map((s) => s.name).join(", ")}`} style={{ maxWidth: "100%" }} />;
}
