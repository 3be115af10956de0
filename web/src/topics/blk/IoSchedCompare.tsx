// The io-schedulers lab's panel: the guest's fio runs (iosched-run) under none, mq-deadline,
// kyber and bfq, per disk and pattern: bandwidth as bars with the block model's prediction
// marked on each, and a table of bandwidth, completion-latency percentiles (fio's JSON) and
// the guest's CPU time, with the part of it spent in interrupts.
import { useEffect, useRef, useState } from "react";
import { axisBottom, axisLeft, max, scaleBand, scaleLinear, select } from "d3";
import type { VmHandle } from "../../shared/machine";
import { useWorker } from "../../shared/useWorker";
import { OKABE_ITO } from "../../shared/view/palette";
import { useWidth } from "../../shared/view/useWidth";
import { SCHEDULERS, type Scheduler } from "./blk-core";
import { blkClient } from "./blk-client";
import { DISKS, modelScenario, parseFioJson, parseRuns, winner, NO_CLEAR_WINNER, type Disk, type FioResult, type Pattern, type RunLine } from "./iosched-runs";

interface Measured extends RunLine {
  fio: FioResult | { error: string };
  /** the block model's bandwidth for the same disk shape, pattern and jobs, in MiB/s as the bars are */
  modelMBs: number | null;
}

const shape = (r: { numjobs: number; iodepth: number }) => `${r.numjobs} job${r.numjobs > 1 ? "s" : ""} × depth ${r.iodepth}`;
const mbs = (kib: number) => kib / 1024;
/** MB/s as a reader compares them: the SD card's few with a decimal, the SSD's hundreds without */
const fmt = (mb: number) => mb.toFixed(mb < 10 ? 1 : 0);
const COLOUR: Record<Scheduler, string> = { none: OKABE_ITO[0], "mq-deadline": OKABE_ITO[1], kyber: OKABE_ITO[2], bfq: OKABE_ITO[5] };

export function IoSchedCompare({ vm }: { vm: VmHandle | null }) {
  const { run, busy, error } = useWorker(blkClient);
  const [runs, setRuns] = useState<Measured[] | null>(null);
  // how far a load has got: 64 fio files and a model run per shape, seconds on a busy machine
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const load = () =>
    run(async (c) => {
      if (!vm) return;
      setProgress(null);
      const lines = parseRuns(new TextDecoder().decode(await vm.readSharedFile("iosched/runs.txt")));
      const out: Measured[] = [];
      const models = new Map<string, Map<Scheduler, number>>();
      for (const r of lines) {
        setProgress({ done: out.length, total: lines.length });
        let fio: Measured["fio"];
        try {
          fio = parseFioJson(new TextDecoder().decode(await vm.readSharedFile(`iosched/${r.file}`)), r.rw.endsWith("write") ? "write" : "read");
        } catch (e) {
          fio = { error: e instanceof Error ? e.message : String(e) };
        }
        const key = `${r.disk} ${r.rw} ${r.numjobs} ${r.iodepth}`;
        if (!models.has(key)) {
          const res = await c.run(modelScenario(r), [...SCHEDULERS]);
          // the model's mb_per_s is bytes per µs (decimal MB/s); the bars are MiB/s, as the script prints
          models.set(key, new Map(res.map((x) => [x.summary.sched, (x.summary.mb_per_s * 1e6) / 2 ** 20])));
        }
        out.push({ ...r, fio, modelMBs: models.get(key)!.get(r.sched) ?? null });
      }
      setRuns(out);
      setProgress(null);
    });
  const groups = runs ? [...new Set(runs.map((r) => `${r.disk} ${r.rw}`))].map((k) => runs.filter((r) => `${r.disk} ${r.rw}` === k)) : [];
  return (
    <section className="panel" aria-label="I/O schedulers compared" data-testid="iosched-compare" data-runs={runs?.length ?? 0} data-busy={busy}>
      <h2>The schedulers, measured and modelled</h2>
      <p className="muted">
        <code>iosched-run</code> keeps each fio run in <code>/mnt/host/iosched/</code>; load them to draw bandwidth per scheduler,
        with the block model's prediction for the same device shape and jobs marked on each bar (a black tick).
      </p>
      <button onClick={() => void load()} disabled={!vm || busy}>
        {busy ? "Reading…" : "Load the guest's runs"}
      </button>
      {busy && progress && (
        <p role="status" className="muted">
          Read {progress.done} of {progress.total} runs
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {runs && !runs.length && <p role="status">No runs yet: run iosched-run in the guest.</p>}
      {groups.map((g) => (
        <Group key={`${g[0].disk} ${g[0].rw}`} runs={g} />
      ))}
    </section>
  );
}

function Group({ runs }: { runs: Measured[] }) {
  const { disk, rw } = runs[0] as { disk: Disk; rw: Pattern };
  const shapes = [...new Set(runs.map(shape))];
  const best = runs.reduce((a, b) => (b.bwKiB > a.bwKiB ? b : a));
  const asked = winner(runs, disk, rw, 4, 4); // the shape the lab's predictions ask about
  // the model draws the disk's named shape; runs on a disk reshaped far slower (the lab's last
  // challenge) would be flat bars under its ticks, so the axis follows the runs and says so
  const measuredTop = max(runs, (r) => mbs(r.bwKiB)) || 1;
  const modelTop = max(runs, (r) => r.modelMBs ?? 0) ?? 0;
  const modelAbove = modelTop > 5 * measuredTop;
  const svgRef = useRef<SVGSVGElement>(null);
  // drawn at the width it has (up to 560 px), so the axes' labels keep their size on a phone
  const [box, width] = useWidth<HTMLElement>(560, 560);
  const W = Math.max(280, width);
  const H = 240;
  useEffect(() => {
    const M = { top: 10, right: 10, bottom: 40, left: 60 };
    const x0 = scaleBand().domain(shapes).range([M.left, W - M.right]).padding(0.2);
    const x1 = scaleBand<Scheduler>().domain(SCHEDULERS).range([0, x0.bandwidth()]).padding(0.1);
    const top = modelAbove ? measuredTop : Math.max(measuredTop, modelTop);
    const y = scaleLinear().domain([0, top * 1.05]).range([H - M.bottom, M.top]);
    const svg = select(svgRef.current!);
    svg.selectAll("*").remove();
    // on a phone the four shapes' names would run into each other: "4 × 4" there (jobs × depth, as the table says)
    const tick = (s: string) => (W < 480 ? s.replace(/ jobs? × depth /, " × ") : s);
    svg.append("g").attr("transform", `translate(0,${H - M.bottom})`).call(axisBottom(x0).tickFormat(tick));
    svg.append("g").attr("transform", `translate(${M.left},0)`).call(axisLeft(y).ticks(5));
    svg.append("text").attr("transform", `translate(14,${(H - M.bottom) / 2}) rotate(-90)`).attr("text-anchor", "middle").attr("font-size", 12).text("MB/s (MiB)");
    for (const r of runs) {
      const x = x0(shape(r))! + x1(r.sched)!;
      svg.append("rect").attr("x", x).attr("width", x1.bandwidth()).attr("y", y(mbs(r.bwKiB))).attr("height", y(0) - y(mbs(r.bwKiB))).attr("fill", COLOUR[r.sched]).append("title").text(`${r.sched}, ${shape(r)}: ${fmt(mbs(r.bwKiB))} MB/s measured, ${r.modelMBs !== null ? fmt(r.modelMBs) : "?"} modelled`);
      if (r.modelMBs !== null && !modelAbove) svg.append("line").attr("x1", x).attr("x2", x + x1.bandwidth()).attr("y1", y(r.modelMBs)).attr("y2", y(r.modelMBs)).attr("stroke", "black").attr("stroke-width", 2);
    }
  }, [runs, W, modelAbove, measuredTop, modelTop]);
  const spread = (s: string) => {
    const bw = runs.filter((r) => shape(r) === s).map((r) => r.bwKiB);
    return bw.length > 1 ? ((Math.max(...bw) - Math.min(...bw)) / Math.max(...bw)) * 100 : 0;
  };
  return (
    <figure className="iosched-group" data-disk={disk} data-rw={rw} data-winner={best.sched} ref={box}>
      <figcaption>
        <strong>
          {DISKS[disk].label}, {rw}
        </strong>
        : the most bandwidth was {best.sched}'s, {fmt(mbs(best.bwKiB))} MB/s at {shape(best)}; between the fastest and the slowest
        scheduler {shapes.map((s) => `${spread(s).toFixed(0)}% at ${s}`).join(", ")}.
        {asked && ` At 4 jobs × depth 4, the shape the lab's questions ask about, ${asked === NO_CLEAR_WINNER ? `the best moved within 5% of the next: ${NO_CLEAR_WINNER}` : `${asked} moved the most`}.`}
        {modelAbove &&
          ` The model's ticks are left out: it predicts up to ${fmt(modelTop)} MB/s for the shape named here, ${(modelTop / measuredTop).toFixed(0)} times what these runs moved, so they ran on a disk shaped otherwise (the table keeps the model's figures).`}
      </figcaption>
      <svg ref={svgRef} viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={`bandwidth per scheduler, ${disk} ${rw}: bars measured${modelAbove ? "" : ", ticks modelled"}`} />
      <p className="legend">
        {SCHEDULERS.map((s) => (
          <span key={s} className="legend-item">
            <span aria-hidden="true" style={{ display: "inline-block", width: 12, height: 12, background: COLOUR[s], marginRight: 4 }} />
            {s}{" "}
          </span>
        ))}
      </p>
      <table className="files iosched-runs" aria-label={`${disk} ${rw}: every run`}>
        <thead>
          <tr>
            <th>scheduler</th>
            <th>jobs × depth</th>
            <th>MB/s</th>
            <th>model MB/s</th>
            <th>clat p50 ms</th>
            <th>p90 ms</th>
            <th>p99 ms</th>
            <th>wall ms</th>
            <th>guest CPU ms (busy)</th>
            <th>of it, irq ms</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.file} data-sched={r.sched}>
              <td>{r.sched}</td>
              <td aria-label={shape(r)}>
                {r.numjobs} × {r.iodepth}
              </td>
              <td>{fmt(mbs(r.bwKiB))}</td>
              <td>{r.modelMBs !== null ? fmt(r.modelMBs) : "–"}</td>
              {"error" in r.fio ? (
                <td colSpan={3} className="error">
                  {r.fio.error}
                </td>
              ) : (
                <>
                  <td>{(r.fio.clat.p50 / 1000).toFixed(1)}</td>
                  <td>{(r.fio.clat.p90 / 1000).toFixed(1)}</td>
                  <td>{(r.fio.clat.p99 / 1000).toFixed(1)}</td>
                </>
              )}
              <td>{r.wallMs}</td>
              <td>
                {r.cpuMs} ({r.wallMs > 0 ? Math.round((100 * r.cpuMs) / r.wallMs) : "–"}%)
              </td>
              <td>{r.irqMs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
