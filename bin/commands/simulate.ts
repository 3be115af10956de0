// fslab simulate <topic> [options] [--seed N] [--json]: run a model scenario, print its
// summary (or, with --json, the summary and every request). Same wasm build as the page.
import { parseArgs } from "node:util";
import { loadCoreModule } from "../../web/src/cores/node-load";
import { DEVICES, DD_DEFAULTS, fioJobs, simulateBlk, ROW, ROW_WIDTH, type FioPattern, type Scheduler } from "../../web/src/cores/blk-core";

const USAGE = `usage: fslab simulate blk [--sched none|mq-deadline|both] [--device ssd|sdcard|hdd]
                         [--numjobs N] [--iodepth N] [--bs SIZE] [--rw read|write|randread|randwrite|randrw]
                         [--size SIZE] [--fifo-batch N] [--writes-starved N] [--read-expire MS]
                         [--write-expire MS] [--seed N] [--json]
  SIZE takes k, M or G (powers of 1024). Defaults: seed 003's pattern 4 (numjobs 4, iodepth 4,
  bs 1M, read) on 64M per job, both schedulers, the sdcard device.`;

function size(s: string, what: string): number {
  const m = s.match(/^(\d+)([kKmMgG]?)$/);
  if (!m) throw new Error(`${what}: "${s}" is not a size (e.g. 4k, 1M)`);
  return Number(m[1]) * 1024 ** " kmg".indexOf((m[2] || " ").toLowerCase());
}

function int(s: string, what: string, min: number, max: number): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${what}: "${s}" is not a whole number in ${min}..${max}`);
  return n;
}

async function simulateBlkCommand(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      sched: { type: "string", default: "both" },
      device: { type: "string", default: "sdcard" },
      numjobs: { type: "string", default: "4" },
      iodepth: { type: "string", default: "4" },
      bs: { type: "string", default: "1M" },
      rw: { type: "string", default: "read" },
      size: { type: "string", default: "64M" },
      "fifo-batch": { type: "string", default: String(DD_DEFAULTS.fifo_batch) },
      "writes-starved": { type: "string", default: String(DD_DEFAULTS.writes_starved) },
      "read-expire": { type: "string", default: String(DD_DEFAULTS.read_expire_ms) },
      "write-expire": { type: "string", default: String(DD_DEFAULTS.write_expire_ms) },
      seed: { type: "string", default: "1" },
      json: { type: "boolean", default: false },
    },
  });
  const scheds: Scheduler[] = v.sched === "both" ? ["none", "mq-deadline"] : v.sched === "none" || v.sched === "mq-deadline" ? [v.sched] : [];
  if (!scheds.length) throw new Error(`--sched: "${v.sched}" is not none, mq-deadline or both (kyber and bfq are not modelled yet)`);
  if (!(v.device! in DEVICES)) throw new Error(`--device: "${v.device}" is not one of ${Object.keys(DEVICES).join(", ")}`);
  if (!["read", "write", "randread", "randwrite", "randrw"].includes(v.rw!)) throw new Error(`--rw: "${v.rw}" is not read, write, randread, randwrite or randrw`);
  const pattern: FioPattern = {
    numjobs: int(v.numjobs!, "--numjobs", 1, 256),
    iodepth: int(v.iodepth!, "--iodepth", 1, 1024),
    bs: size(v.bs!, "--bs"),
    rw: v.rw as FioPattern["rw"],
    size: size(v.size!, "--size"),
  };
  if (pattern.bs < 512 || pattern.bs % 512) throw new Error(`--bs: ${pattern.bs} bytes is not a whole number of 512-byte sectors`);
  const device = DEVICES[v.device as keyof typeof DEVICES];
  const tunables = {
    ...DD_DEFAULTS,
    fifo_batch: int(v["fifo-batch"]!, "--fifo-batch", 1, 1 << 20),
    writes_starved: int(v["writes-starved"]!, "--writes-starved", 0, 1 << 20),
    read_expire_ms: int(v["read-expire"]!, "--read-expire", 0, 1 << 24),
    write_expire_ms: int(v["write-expire"]!, "--write-expire", 0, 1 << 24),
  };
  const jobs = fioJobs(pattern);
  const requests = jobs.reduce((n, j) => n + j.ios, 0);
  if (requests > 20_000_000) throw new Error(`${requests} requests is more than this command simulates (20,000,000); lower --size or --numjobs`);
  const module = await loadCoreModule("blk");
  const seed = int(v.seed!, "--seed", 0, 2 ** 32 - 1);
  const results = scheds.map((sched) => simulateBlk(module, { sched, device, jobs, tunables, seed }));

  if (v.json) {
    console.log(JSON.stringify({
      pattern, device, tunables, seed,
      results: results.map((r) => ({
        summary: r.summary,
        dispatch_order: Array.from(r.order),
        requests: Array.from({ length: r.rows.length / ROW_WIDTH }, (_, i) => Object.fromEntries(Object.entries(ROW).map(([k, o]) => [k, r.rows[i * ROW_WIDTH + o]]))),
      })),
    }));
    return 0;
  }
  console.log(`${pattern.numjobs} job(s) x iodepth ${pattern.iodepth}, ${pattern.rw}, bs ${pattern.bs} B, ${pattern.size} B each: ${requests} requests`);
  console.log(`device: ${device.label}; seed ${seed}`);
  console.log(`  ${"scheduler".padEnd(12)} ${"MB/s".padStart(9)} ${"time ms".padStart(10)} ${"read mean".padStart(10)} ${"read p99".padStart(10)} ${"write mean".padStart(11)} ${"write p99".padStart(10)} ${"seek (sectors)".padStart(15)}`);
  const ms = (us: number) => `${(us / 1000).toFixed(1)}ms`;
  for (const { summary: s } of results) {
    console.log(`  ${s.sched.padEnd(12)} ${s.mb_per_s.toFixed(1).padStart(9)} ${s.elapsed_ms.toFixed(1).padStart(10)} ${ms(s.read.mean_us).padStart(10)} ${ms(s.read.p99_us).padStart(10)} ${ms(s.write.mean_us).padStart(11)} ${ms(s.write.p99_us).padStart(10)} ${String(s.seek_sectors).padStart(15)}`);
  }
  return 0;
}

export async function simulateCommand(args: string[]): Promise<number> {
  const [topic, ...rest] = args;
  if (topic === "blk") return simulateBlkCommand(rest);
  throw new Error(topic ? `no model for "${topic}" yet (blk)\n${USAGE}` : USAGE);
}
