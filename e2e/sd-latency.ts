// fio's 4 KiB random requests at depth 1 on the SD card, against what the latency model predicts,
// run in the guest with its own tools so that Node (sd.e2e.ts) and the page (sd-page.e2e.ts)
// measure the same way. A request's latency in the guest is three parts:
//   the card's time          the model's (shared/sd-timing.ts: requestMs)
//   the emulated machine's   the driver, the data port: measured with the card's timing off
//                            (`sdcard timing off`: the card answers at once)
//   the host's lateness      how late the host answered past the model's time, per request
//                            (`sdcard late --each`: a busy machine, a background tab, a GC)
// So the prediction for request i is card + machine_i + late_i, and its percentiles are held to
// fio's (nearest rank over the per-request logs, the same for both) within TOLERANCE. A write's
// p99 is printed, not held: while the card programs, the driver polls it between sleeps on the
// guest's own timers, and their lateness on a busy host is not the card's to log (in clean-clone
// runs the writes' p99 came 4-6 ms over the prediction; the reads' within it).

/**
 * The stated tolerance: |measured - predicted| at most `rel` of the prediction plus `abs` ms. The
 * p99's is wide for a busy host: in clean-clone runs (the other lanes on both cores) a pair's
 * two runs met different load, and their p99s differed by up to 45% of the prediction, and once
 * (2026-12-07, four pairs running) by 74%: 19.26 ms measured against 11.09 predicted.
 */
export const TOLERANCE = { p50: { rel: 0.25, abs: 0.25 }, p99: { rel: 0.8, abs: 1 } } as const;
/** pairs of runs before a miss fails the test (the host's load can change between a pair's two runs) */
export const PAIRS = 4;

import { expect } from "vitest";

export interface LatencyRun {
  /** requests fio logged, and data requests the card logged lateness for (the same when paired) */
  requests: number;
  lateLogged: number;
  min: number;
  p50: number;
  p99: number;
  predicted: { p50: number; p99: number };
  /** the host's lateness at the 99th percentile (ms) */
  lateP99: number;
}

/**
 * One pair of fio runs (`rw` randread or randwrite; `io` bytes of 4 KiB requests): the card's
 * timing on, then off; `sh` runs a line in the guest and returns its output.
 */
export async function latencyAgainstModel(sh: (cmd: string) => Promise<string>, rw: "randread" | "randwrite", card: number, io = "2M"): Promise<LatencyRun> {
  const fio = (out: string) =>
    `fio --name=q --filename=/dev/mmcblk0 --rw=${rw} --bs=4k --iodepth=1 --direct=1 --ioengine=psync --size=32M --io_size=${io} --randseed=7 --write_lat_log=/tmp/q --log_avg_msec=0 --output-format=terse > /dev/null && cut -d, -f2 /tmp/q_clat.1.log | tr -d ' ' > ${out}`;
  // nearest rank over a sorted file of numbers
  const rank = (file: string, p: number) => `awk -v p=${p} '{a[NR]=$1} END {i=int(p*NR); if (i<p*NR) i++; if (i<1) i=1; printf "%.6f ", a[i]}' ${file}`;
  const out = await sh(
    [
      "sdcard late > /dev/null", // the lateness log from now on
      fio("/tmp/on"),
      "sdcard late --each > /tmp/late",
      "sdcard timing off",
      `{ ${fio("/tmp/off")}; } ; sdcard timing on > /dev/null`,
      "awk '{print $1/1e6}' /tmp/on | sort -n > /tmp/on.s",
      `paste -d' ' /tmp/off /tmp/late | awk '{print ${card} + $1/1e6 + $2}' | sort -n > /tmp/pred.s`,
      "sort -n /tmp/late > /tmp/late.s",
      `{ wc -l < /tmp/on | tr -d '\\n'; echo -n ' '; wc -l < /tmp/late | tr -d '\\n'; echo -n ' '; ${rank("/tmp/on.s", 0)}; ${rank("/tmp/on.s", 0.5)}; ${rank("/tmp/on.s", 0.99)}; ${rank("/tmp/pred.s", 0.5)}; ${rank("/tmp/pred.s", 0.99)}; ${rank("/tmp/late.s", 0.99)}; echo; }`,
    ].join(" && "),
  );
  const [requests, lateLogged, min, p50, p99, pp50, pp99, lateP99] = out.trim().split("\n").pop()!.trim().split(/\s+/).map(Number);
  return { requests, lateLogged, min, p50, p99, predicted: { p50: pp50, p99: pp99 }, lateP99 };
}

/** whether a run's p50 (and a read's p99) are the prediction's within TOLERANCE, and a line saying it all */
export function againstModel(r: LatencyRun, rw: "randread" | "randwrite", card: number): { ok: boolean; line: string } {
  const within = (m: number, p: number, t: { rel: number; abs: number }) => Math.abs(m - p) <= t.rel * p + t.abs;
  const tail = rw === "randwrite" || within(r.p99, r.predicted.p99, TOLERANCE.p99);
  const ok = r.requests === r.lateLogged && r.min >= card && within(r.p50, r.predicted.p50, TOLERANCE.p50) && tail;
  const f = (x: number) => x.toFixed(3);
  const line =
    `${rw}, ${r.requests} requests (${r.lateLogged} in the card's lateness log): card ${f(card)} ms (model); ` +
    `measured min ${f(r.min)}, p50 ${f(r.p50)}, p99 ${f(r.p99)}; predicted (card + the machine's own with timing off + the host's lateness) ` +
    `p50 ${f(r.predicted.p50)}, p99 ${f(r.predicted.p99)} ms; the host's lateness p99 ${f(r.lateP99)} ms${rw === "randwrite" ? " (a write's p99 printed, not held)" : ""}`;
  return { ok, line };
}

/**
 * Pairs of runs until one is within TOLERANCE, at most PAIRS (the host's load can change between
 * a pair's two runs): each run is held to the card's time as its floor and to one lateness entry
 * per request (a delay batched into a later request, as the device once did, breaks both); the
 * last pair is held to the tolerance. `say` gets each pair's line.
 */
export async function heldToModel(sh: (cmd: string) => Promise<string>, rw: "randread" | "randwrite", card: number, say: (line: string) => void): Promise<void> {
  for (let pair = 1; pair <= PAIRS; pair++) {
    const r = await latencyAgainstModel(sh, rw, card);
    const { ok, line } = againstModel(r, rw, card);
    say(`${line} (pair ${pair})`);
    expect(r.min, line).toBeGreaterThanOrEqual(card);
    expect(r.lateLogged, line).toBe(r.requests);
    if (ok) return;
    if (pair === PAIRS) expect(ok, `${line}: outside the stated tolerance ${JSON.stringify(TOLERANCE)}`).toBe(true);
  }
}
