// The blk core through its TypeScript API and the real wasm build: the same scheduler the
// native tests pin to block/mq-deadline.c, seen the way the CLI and the page see it.
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "./node-load";
import { BlkError, DEVICES, EV_BLK, fioJobs, parseDdState, simulateBlk, stepBlk, ROW, ROW_WIDTH } from "./blk-core";
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

describe("stepBlk", () => {
  const jobs = fioJobs({ numjobs: 2, iodepth: 4, bs: 4096, rw: "randrw", size: 1 << 20 });
  const sc = { sched: "mq-deadline" as const, device: DEVICES.hdd, jobs: jobs.map((j) => ({ ...j, ios: 40 })) };
  const stateAt = (st: ReturnType<typeof stepBlk>, k: number) => parseDdState(st.words.subarray(st.offsets[k], st.offsets[k + 1]));

  it("steps through the same run simulateBlk makes: one step to start, one per completion", () => {
    const st = stepBlk(m, sc, 1000);
    const whole = simulateBlk(m, sc);
    expect(st.finished).toBe(true);
    expect(st.offsets.length - 1).toBe(1 + whole.summary.requests);
    expect(Array.from(st.rows)).toEqual(Array.from(whole.rows));
    // the first step: 8 submitted, one given the disk's only tag, 7 in the scheduler's lists
    const first = stateAt(st, 0);
    const waiting = first.lists.flat().reduce((n, l) => n + l.fifo.length, 0);
    expect(first.dispatched.length).toBe(1);
    expect(waiting).toBe(7);
    expect(first.tagsUsed).toBe(1);
  });

  it("in every state each request waits in one FIFO (by deadline) and its sort list (by sector)", () => {
    const st = stepBlk(m, sc, 1000);
    const sector = (rq: number) => st.rows[rq * ROW_WIDTH + ROW.sector];
    for (let k = 0; k + 1 < st.offsets.length; k++) {
      const s = stateAt(st, k);
      for (const byDir of s.lists)
        for (const l of byDir) {
          expect([...l.sorted].sort((a, b) => a - b)).toEqual(l.fifo.map((f) => f.rq).sort((a, b) => a - b));
          for (let i = 1; i < l.fifo.length; i++) expect(l.fifo[i].deadline).toBeGreaterThanOrEqual(l.fifo[i - 1].deadline);
          for (let i = 1; i < l.sorted.length; i++) expect(sector(l.sorted[i])).toBeGreaterThanOrEqual(sector(l.sorted[i - 1]));
        }
      expect(s.batching).toBeLessThanOrEqual(s.fifoBatch);
      expect(s.starved).toBeLessThanOrEqual(s.writesStarved);
    }
  });

  it("stops at maxSteps and says the run went on", () => {
    const st = stepBlk(m, sc, 5);
    expect(st.offsets.length).toBe(6);
    expect(st.finished).toBe(false);
  });
});
