// The wasm side of the blk benchmark: the case of wasm/bench/bench_blk.c through the same
// exports the page uses; only the run is timed, not building the jobs or copying results.
import { DEVICES, DD_DEFAULTS, fioJobs } from "../web/src/cores/blk-core";

export const BLK_CASE = "mq-deadline, 1000000 requests";

export function wasmBlkRunMs(m: any): number {
  const d = DEVICES.hdd;
  const jobs = fioJobs({ numjobs: 4, iodepth: 4, bs: 4096, rw: "randread", size: 250_000 * 4096 });
  const u32 = (xs: number[]) => {
    const p = m._fx_malloc(xs.length * 4);
    m.HEAPU32.set(xs, p >>> 2);
    return p;
  };
  const t = DD_DEFAULTS;
  const tun = u32([t.read_expire_ms, t.write_expire_ms, t.prio_aging_expire_ms, t.writes_starved, t.fifo_batch]);
  const dev = u32([d.queue_depth, d.channels, d.base_ns, d.per_sector_ns, d.seek_max_sectors, Math.round(d.per_seek_sector_ns * 1000), 2 ** 31]);
  // the native case's regions: job i at i << 20, span 1 << 20 sectors
  const js = u32(jobs.flatMap((j, i) => [j.iodepth, j.bs_sectors, j.ios, 1, 0, 0, i * 2 ** 20, 2 ** 20, 0]));
  const sim = m._fx_blk_new(1, tun, dev, js, jobs.length, 250, 1);
  [tun, dev, js].forEach((p) => m._fx_free(p));
  try {
    const t0 = performance.now();
    if (m._fx_blk_run(sim) < 0) throw new Error("blk simulation ran out of memory");
    return performance.now() - t0;
  } finally {
    m._fx_blk_free(sim);
  }
}
