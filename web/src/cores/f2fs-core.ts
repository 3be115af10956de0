// The f2fs core (wasm/src/f2fs): FxMark's unlink workloads on 1..N cores, simulated over
// the locks an F2FS unlink takes, upstream and with each CLUE technique (the same bits as
// the guest's /sys/fs/f2fs/<dev>/clue). The VM has one CPU; the scaling comes from here.

export type Workload = "MWUL" | "MWUM";

export interface F2fsCosts {
  vfs_ns: number;
  unlink_ns: number;
  check_ns: number;
  bitmap_scan_ns: number;
  heuristic_pct: number;
  nat_scan_ns: number;
  remote_ns: number;
  cores_per_socket: number;
  low_pct: number;
}

// Chosen, not measured: costs that give the CLUE paper's shape on its 120-core, 8-socket
// server (seed 004, Figure 4): upstream flat in both workloads; CLUE ~15x upstream in MWUL,
// scaling to one socket (15 cores) and falling back past it; ~3x in MWUM, flat, where the
// shared directory's lock serializes everything. Every unlink is taken to find the free-NID
// list below its threshold (low_pct 100), the regime the paper measured.
export const FXMARK_COSTS: F2fsCosts = {
  vfs_ns: 3000,
  unlink_ns: 4000,
  check_ns: 100,
  bitmap_scan_ns: 8000,
  heuristic_pct: 40,
  nat_scan_ns: 12000,
  remote_ns: 1500,
  cores_per_socket: 15,
  low_pct: 100,
};

export const LOCKS = ["dir", "build", "bitmap", "list"] as const;

export interface FxmarkResult {
  workload: Workload;
  clue: number;
  cores: number;
  seconds: number;
  unlinks_per_sec: number;
  unlinks: number;
  bitmap_scans: number;
  nat_scans: number;
  scans_skipped: number;
  nat_deferred: number;
  wait_ms: Record<(typeof LOCKS)[number], number>; // summed over cores
}

export class F2fsError extends Error {}

export function fxmarkUnlink(m: any, workload: Workload, clue: number, cores: number, unlinksPerCore: number, costs = FXMARK_COSTS, seed = 1): FxmarkResult {
  const c = m._fx_malloc(9 * 4);
  const out = m._fx_malloc(16 * 8);
  try {
    const vals = [costs.vfs_ns, costs.unlink_ns, costs.check_ns, costs.bitmap_scan_ns, costs.heuristic_pct, costs.nat_scan_ns, costs.remote_ns, costs.cores_per_socket, costs.low_pct];
    m.HEAPU32.set(vals.map((v) => v >>> 0), c >>> 2);
    const ret = m._fx_f2fs_fxmark(workload === "MWUM" ? 1 : 0, clue, cores, unlinksPerCore, c, seed, out);
    if (ret < 0) throw new F2fsError(ret === -28 ? "the simulation ran out of memory" : `refused: ${cores} cores x ${unlinksPerCore} unlinks with these costs (1..4096 cores, percentages <= 100)`);
    const r = m.HEAPF64.slice(out >>> 3, (out >>> 3) + 16);
    return {
      workload, clue, cores,
      seconds: r[0], unlinks_per_sec: r[1], unlinks: r[2],
      bitmap_scans: r[3], nat_scans: r[4], scans_skipped: r[5], nat_deferred: r[6],
      wait_ms: Object.fromEntries(LOCKS.map((k, i) => [k, r[7 + i] / 1e6])) as FxmarkResult["wait_ms"],
    };
  } finally {
    m._fx_free(c);
    m._fx_free(out);
  }
}
