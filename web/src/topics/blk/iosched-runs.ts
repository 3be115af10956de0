// The io-schedulers lab's measurements: the guest's iosched-run writes one line per fio run to
// /mnt/host/iosched/runs.txt and keeps fio's JSON output beside it. Both are read strictly
// here: a bad line or file is named, never guessed at.
import { DEVICES, SCHEDULERS, fioJobs, type BlkDevice, type BlkScenario, type Scheduler } from "./blk-core";
import { busTimes, DEFAULT_SPEED_HZ, requestMs } from "../../shared/sd-timing";

export type Pattern = "read" | "write" | "randread" | "randwrite";
export const PATTERNS: readonly Pattern[] = ["read", "write", "randread", "randwrite"];
export type Disk = "sd" | "ssd";

/**
 * The emulated SD card (the SDHCI host beside the machine) as the block model sees it, from the
 * same latency model the device waits on (shared/sd-timing.ts: an A1 card), at the 25 MHz and
 * 4-bit bus Linux sets for it. The host takes at most 512 KiB a command (sdhci.c's
 * max_req_size), so a 1 MiB request is two: each a command, its blocks and a CMD12; a read
 * waits the card's access time for each, a write's blocks are programmed as they come, and a
 * random write pays the card's random-write cost once (its second half continues the first).
 * The host moves one request at a time while the MMC block driver prepares the next
 * (mmc_blk_rw_wait in drivers/mmc/core/block.c): two leave the scheduler, one is served. The
 * model has no CPU, so it leaves out the emulated CPU's programmed I/O (the host has no DMA),
 * which the guest pays 4 bytes at a time.
 */
export function emulatedCard(rw: Pattern): BlkDevice {
  const t = busTimes(DEFAULT_SPEED_HZ, 4);
  const write = rw.endsWith("write");
  const half = MAX_REQ_SECTORS;
  const ms = write ? requestMs(t, true, half, rw === "randwrite") + requestMs(t, true, half, false) : 2 * requestMs(t, false, half);
  const perSector = write ? t.block(512) + t.program : t.block(512);
  return {
    label: `the emulated SD card (${DEFAULT_SPEED_HZ / 1e6} MHz, 4 bits, an A1 card's ${write ? "writes" : "reads"}: ${((2 * half * 512) / ms / 1000).toFixed(1)} MB/s in 1 MiB requests)`,
    queue_depth: 2,
    channels: 1,
    base_ns: Math.round((ms - 2 * half * perSector) * 1e6),
    per_sector_ns: Math.round(perSector * 1e6),
    seek_max_sectors: 0,
    per_seek_sector_ns: 0,
    capacity_sectors: 2 ** 19,
  };
}

/** sdhci.c's max_req_size, 512 KiB, in sectors: what one command of the host moves at most */
export const MAX_REQ_SECTORS = 1024;

/** the guest's disks (step 1 of the lab), and the block model's device for each pattern */
export const DISKS: Record<Disk, { label: string; model: (rw: Pattern) => BlkDevice }> = {
  sd: { label: "the SD card, mmcblk0 (SDSC, 25 MHz, 4-bit bus, timed as A1, no DMA)", model: emulatedCard },
  // the disk the runs were on may have been reshaped since (the lab's last step): the shape named is the model's
  ssd: { label: "nullb2, modelled as the SSD shape (32 tags, 20 µs, 3000 MB/s)", model: () => DEVICES.ssd },
};

export interface RunLine {
  disk: Disk;
  sched: Scheduler;
  rw: Pattern;
  numjobs: number;
  iodepth: number;
  wallMs: number;
  cpuMs: number;
  /** of cpuMs, the time in interrupt handlers and softirqs (the kernel times them: IRQ_TIME_ACCOUNTING) */
  irqMs: number;
  bwKiB: number;
  p99Ns: number;
  file: string;
}

export class RunsError extends Error {}

/** runs.txt: "disk scheduler pattern numjobs iodepth wall-ms cpu-ms irq-ms bw-KiB/s p99-ns file" per line */
export function parseRuns(text: string): RunLine[] {
  const out: RunLine[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const f = line.trim().split(/\s+/);
    const where = `runs.txt line ${i + 1}`;
    if (f.length !== 11) throw new RunsError(`${where}: ${f.length} fields, not 11`);
    const [disk, sched, rw] = f;
    if (disk !== "sd" && disk !== "ssd") throw new RunsError(`${where}: disk "${disk}" is not sd or ssd`);
    if (!(SCHEDULERS as readonly string[]).includes(sched)) throw new RunsError(`${where}: "${sched}" is not a scheduler`);
    if (!(PATTERNS as readonly string[]).includes(rw)) throw new RunsError(`${where}: "${rw}" is not a pattern`);
    const nums = f.slice(3, 10).map(Number);
    if (nums.some((n) => !Number.isSafeInteger(n) || n < 0)) throw new RunsError(`${where}: the counts are not whole numbers`);
    const [numjobs, iodepth, wallMs, cpuMs, irqMs, bwKiB, p99Ns] = nums;
    if (irqMs > cpuMs) throw new RunsError(`${where}: the interrupts' ${irqMs} ms are more than the CPU's ${cpuMs} ms`);
    const file = f[10];
    if (!/^[a-z-]+-[a-z-]+-[a-z]+-\d+x\d+\.json$/.test(file)) throw new RunsError(`${where}: "${file}" is not a run's file name`);
    out.push({ disk, sched: sched as Scheduler, rw: rw as Pattern, numjobs, iodepth, wallMs, cpuMs, irqMs, bwKiB, p99Ns, file });
  });
  return out;
}

export interface FioResult {
  bwKiB: number;
  iops: number;
  /** completion latency percentiles, µs */
  clat: { p50: number; p90: number; p99: number; max: number };
  usrCpu: number; // percent
  sysCpu: number;
  runtimeMs: number;
}

/** fio's --output-format=json (one group_reporting job): the direction that moved data. */
/** the parts of fio's JSON read here; anything may be missing from a file a learner hands in */
interface FioJson {
  jobs?: Array<{ usr_cpu?: number; sys_cpu?: number } & Partial<Record<"read" | "write", FioDirection>>>;
}
interface FioDirection {
  bw?: unknown;
  iops: number;
  runtime?: number;
  clat_ns: { percentile?: Record<string, unknown>; max?: number };
}

export function parseFioJson(text: string, dir: "read" | "write"): FioResult {
  let v: FioJson | null;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new RunsError(`not fio's JSON output (${e instanceof Error ? e.message : e})`);
  }
  const job = v?.jobs?.[0];
  const d = job?.[dir];
  const pct = d?.clat_ns?.percentile;
  if (!d || typeof d.bw !== "number" || !pct || typeof pct !== "object") throw new RunsError(`fio's JSON has no ${dir} results with completion-latency percentiles`);
  const p = (k: string) => {
    const x = pct[k];
    return typeof x === "number" ? x / 1000 : NaN;
  };
  return {
    bwKiB: d.bw,
    iops: d.iops,
    clat: { p50: p("50.000000"), p90: p("90.000000"), p99: p("99.000000"), max: (d.clat_ns.max ?? NaN) / 1000 },
    usrCpu: job!.usr_cpu ?? NaN,
    sysCpu: job!.sys_cpu ?? NaN,
    runtimeMs: d.runtime ?? NaN,
  };
}

/** The block model's scenario for the same run: the device shape, fio's jobs on 64 MiB each, 1 MiB requests. */
export function modelScenario(r: Pick<RunLine, "disk" | "rw" | "numjobs" | "iodepth">): Omit<BlkScenario, "sched"> {
  return { device: DISKS[r.disk].model(r.rw), jobs: fioJobs({ numjobs: r.numjobs, iodepth: r.iodepth, bs: 1 << 20, rw: r.rw, size: 64 << 20 }) };
}

/** The io-schedulers lab's answer when the two best runs are within 5%: runs move by more than that. */
export const NO_CLEAR_WINNER = "no clear winner (within 5%)";

/**
 * The scheduler with the most bandwidth for one disk, pattern and shape, or NO_CLEAR_WINNER when
 * the runner-up is within 5% of it (the lab's predictions ask the guest the same, with awk);
 * null if none ran.
 */
export function winner(runs: readonly RunLine[], disk: Disk, rw: Pattern, numjobs: number, iodepth: number): Scheduler | typeof NO_CLEAR_WINNER | null {
  const same = runs.filter((r) => r.disk === disk && r.rw === rw && r.numjobs === numjobs && r.iodepth === iodepth).sort((a, b) => b.bwKiB - a.bwKiB);
  if (!same.length) return null;
  return same.length > 1 && same[1].bwKiB * 1.05 >= same[0].bwKiB ? NO_CLEAR_WINNER : same[0].sched;
}
