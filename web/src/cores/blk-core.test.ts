// The blk core through its TypeScript API and the real wasm build: the same scheduler the
// native tests pin to block/mq-deadline.c, seen the way the CLI and the page see it.
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "./node-load";
import { BlkError, DEVICES, EV_BLK, fioJobs, simulateBlk, ROW, ROW_WIDTH } from "./blk-core";
import { countOf } from "./events";

let m: any;
beforeAll(async () => {
  m = await loadCoreModule("blk");
});

describe("fioJobs", () => {
  it("turns seed 003's pattern 4 into four regions of 1 MiB requests", () => {
    const jobs = fioJobs({ numjobs: 4, iodepth: 4, bs: 1 << 20, rw: "randread", size: 8 << 20 });
    expect(jobs.map((j) => j.offset)).toEqual([0, 16384, 32768, 49152]);
    expect(jobs.every((j) => j.ios === 8 && j.bs_sectors === 2048 && j.random && j.write_pct === 0 && j.iodepth === 4)).toBe(true);
  });
});

describe("simulateBlk", () => {
  const jobs = fioJobs({ numjobs: 4, iodepth: 4, bs: 64 << 10, rw: "randread", size: 8 << 20 });

  it("none dispatches in arrival order; every request is inserted, issued and completed once", () => {
    const r = simulateBlk(m, { sched: "none", device: DEVICES.hdd, jobs });
    expect(r.summary.requests).toBe(512);
    expect(Array.from(r.order)).toEqual(Array.from({ length: 512 }, (_, i) => i));
    for (const t of EV_BLK) expect(countOf(r.events, t)).toBe(512);
    for (let i = 0; i < 512; i++) {
      const row = r.rows.subarray(i * ROW_WIDTH, (i + 1) * ROW_WIDTH);
      expect(row[ROW.insert_us] <= row[ROW.dispatch_us] && row[ROW.dispatch_us] < row[ROW.complete_us]).toBe(true);
    }
  });

  it("mq-deadline sorts by sector on a seeking disk: less seeking, more throughput, a longer tail", () => {
    const none = simulateBlk(m, { sched: "none", device: DEVICES.hdd, jobs }).summary;
    const dd = simulateBlk(m, { sched: "mq-deadline", device: DEVICES.hdd, jobs }).summary;
    expect(dd.seek_sectors).toBeLessThan(none.seek_sectors);
    expect(dd.mb_per_s).toBeGreaterThan(none.mb_per_s);
    expect(dd.read.p99_us).toBeGreaterThan(none.read.p99_us);
  });

  it("changes nothing on an SSD whose tags outnumber the requests in flight", () => {
    const none = simulateBlk(m, { sched: "none", device: DEVICES.ssd, jobs }).summary;
    const dd = simulateBlk(m, { sched: "mq-deadline", device: DEVICES.ssd, jobs }).summary;
    expect(dd.elapsed_ms).toBe(none.elapsed_ms);
  });

  it("is deterministic for a seed and differs across seeds", () => {
    const a = simulateBlk(m, { sched: "mq-deadline", device: DEVICES.hdd, jobs, seed: 7 });
    const b = simulateBlk(m, { sched: "mq-deadline", device: DEVICES.hdd, jobs, seed: 7 });
    const c = simulateBlk(m, { sched: "mq-deadline", device: DEVICES.hdd, jobs, seed: 8 });
    expect(Array.from(a.rows)).toEqual(Array.from(b.rows));
    expect(Array.from(a.rows)).not.toEqual(Array.from(c.rows));
  });

  it("refuses a device without tags", () => {
    expect(() => simulateBlk(m, { sched: "none", device: { ...DEVICES.hdd, queue_depth: 0 }, jobs })).toThrow(BlkError);
  });
});
