// The blk core through its TypeScript API and the real wasm build: the same scheduler the
// native tests pin to block/mq-deadline.c, seen the way the CLI and the page see it.
import { beforeAll, describe, expect, it } from "vitest";
import type { BlkModule } from "@wasm/blk.mjs";
import { loadCoreModule } from "../../shared/node-load";
import { BlkError, DEVICES, fioJobs, parseDdState, simulateBlk, stepBlk, ROW, ROW_WIDTH, type BlkJob } from "./blk-core";
import { parseKyberState, KYBER_DEPTH } from "./kyber";

let m: BlkModule;
beforeAll(async () => {
  m = await loadCoreModule("blk");
});

describe("fioJobs", () => {
  it("turns the blog series' fio pattern 4 into four regions of 1 MiB requests", () => {
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

describe("kyber", () => {
  // one job of random 4 KiB reads beside two of random 256 KiB writes that fill the SSD's channels
  const mixed: BlkJob[] = [
    { iodepth: 8, bs_sectors: 8, ios: 20000, random: true, write_pct: 0, ioprio_class: 0, offset: 0, span: 2 ** 22 },
    { iodepth: 16, bs_sectors: 512, ios: 4000, random: true, write_pct: 100, ioprio_class: 0, offset: 2 ** 22, span: 2 ** 22 },
    { iodepth: 16, bs_sectors: 512, ios: 4000, random: true, write_pct: 100, ioprio_class: 0, offset: 2 ** 23, span: 2 ** 22 },
  ];

  it("holds reads to the read domain's 256 tokens on a device with 1024 tags", () => {
    const device = { ...DEVICES.hdd, queue_depth: 1024, base_ns: 1_000_000, per_sector_ns: 0, per_seek_sector_ns: 0 };
    const jobs = [{ iodepth: 300, bs_sectors: 8, ios: 400, random: false, write_pct: 0, ioprio_class: 0, offset: 0, span: 2 ** 20 }];
    const none = parseDdState(stepBlk(m, { sched: "none", device, jobs }, 1).words);
    expect(none.tagsUsed).toBe(300);
    const st = stepBlk(m, { sched: "kyber", device, jobs }, 2);
    const first = parseKyberState(st.kyber!.words.subarray(st.kyber!.offsets[0], st.kyber!.offsets[1]));
    expect(first.tagsUsed).toBe(256);
    expect(first.domains[0]).toMatchObject({ depth: 256, busy: 256, held: 256, batchSize: 16, maxDepth: 256 });
    // no token: the other 44 stay in the software queue; 1 + 43 * 2 misses (see test_blk.c)
    expect(first.domains[0].ctxQueue).toEqual(Array.from({ length: 44 }, (_, i) => 256 + i));
    expect(first.domains[0].rqs).toEqual([]);
    expect(first.domains[0].throttled).toBe(87);
    expect(first.dispatched.map((d) => d.token).sort((a, b) => a - b)).toEqual(Array.from({ length: 256 }, (_, i) => i));
    // a completion frees a token: the 45 waiting are flushed to the hardware queue's list and the oldest goes
    const second = parseKyberState(st.kyber!.words.subarray(st.kyber!.offsets[1], st.kyber!.offsets[2]));
    expect(second.nowUs).toBe(1000);
    expect(second.domains[0].ctxQueue).toEqual([]);
    expect(second.domains[0].rqs[0]).toBe(257);
    expect(second.domains[0].rqs.length).toBe(44);
    expect(second.timerPending).toBe(true);
    expect(second.timerExpires).toBe(25); // jiffy 0 + HZ / 10 at HZ 250
    expect(second.timerTick).toBe(26); // the timer wheel's level-0 bucket: one jiffy on
  });

  it("throttles the writes when the reads' latency is over target, by the p99 the timer found", () => {
    const r = simulateBlk(m, { sched: "kyber", device: DEVICES.ssd, jobs: mixed });
    expect(r.summary.requests).toBe(28000);
    for (let i = 0; i < 28000; i++) expect(r.rows[i * ROW_WIDTH + ROW.complete_us]).toBeGreaterThan(r.rows[i * ROW_WIDTH + ROW.dispatch_us]);
    const runs = r.kyber!;
    expect(runs.length).toBeGreaterThanOrEqual(5);
    expect(runs[0].depth).toEqual([...KYBER_DEPTH]);
    let shrinks = 0;
    for (let k = 1; k < runs.length; k++) {
      expect(runs[k].us - runs[k - 1].us).toBeGreaterThanOrEqual(104_000); // HZ / 10 + a jiffy after the next completion
      const p99 = runs[k].p99[1];
      if (runs[k].bad && p99 >= 0 && p99 < 4) {
        expect(runs[k].depth[1]).toBe(Math.max(1, (runs[k - 1].depth[1] * (p99 + 1)) >> 2));
        shrinks++;
      }
    }
    expect(shrinks).toBeGreaterThanOrEqual(2);
    expect(runs.at(-1)!.depth[1]).toBeLessThan(32); // fewer than the 32 writes the jobs keep in flight
    // each domain leaves in arrival order: one software queue, FIFO lists
    const pos = new Map<number, number>();
    r.order.forEach((rq, i) => pos.set(rq, i));
    for (const op of [0, 1]) {
      let last = -1;
      for (let i = 0; i < 28000; i++) {
        if (r.rows[i * ROW_WIDTH + ROW.op] !== op) continue;
        expect(pos.get(i)!).toBeGreaterThan(last);
        last = pos.get(i)!;
      }
    }
    // deterministic, and the same requests under none; the writes are not throttled there
    const again = simulateBlk(m, { sched: "kyber", device: DEVICES.ssd, jobs: mixed });
    expect(again.kyber).toEqual(runs);
    expect(Array.from(again.rows)).toEqual(Array.from(r.rows));
    expect(simulateBlk(m, { sched: "none", device: DEVICES.ssd, jobs: mixed }).kyber).toBeUndefined();
  });

  it("a lower write_lat_nsec makes the same writes bad: eased, never throttled", () => {
    // 100 us write target: every write's p99 is past 1.75x, so writes are eased, never throttled
    const r = simulateBlk(m, { sched: "kyber", device: DEVICES.ssd, jobs: mixed, kyber: { read_lat_nsec: 2_000_000, write_lat_nsec: 100_000 } });
    expect(r.kyber!.every((run) => run.depth[1] === 128)).toBe(true);
    expect(r.kyber!.some((run) => run.p99[1] === 7)).toBe(true);
  });

  it("in every state the tokens held equal the requests at the device, per domain", () => {
    const jobs = mixed.map((j) => ({ ...j, ios: j.ios / 20 }));
    const sc = { sched: "kyber" as const, device: DEVICES.ssd, jobs };
    const st = stepBlk(m, sc, 5000);
    const whole = simulateBlk(m, sc);
    expect(st.finished).toBe(true);
    expect(Array.from(st.rows)).toEqual(Array.from(whole.rows));
    const ky = st.kyber!;
    expect(ky.offsets.length).toBe(st.offsets.length);
    for (let k = 0; k + 1 < ky.offsets.length; k++) {
      const s = parseKyberState(ky.words.subarray(ky.offsets[k], ky.offsets[k + 1]));
      const byDomain = [0, 0];
      for (const d of s.dispatched) byDomain[st.rows[d.rq * ROW_WIDTH + ROW.op]]++;
      expect([s.domains[0].held, s.domains[1].held]).toEqual(byDomain);
      for (const d of s.domains) expect(d.busy).toBeLessThanOrEqual(d.depth);
      expect(s.tagsUsed).toBeLessThanOrEqual(DEVICES.ssd.queue_depth);
      expect(s.batching).toBeLessThanOrEqual(s.domains[s.curDomain].batchSize);
      expect(s.latency[0].targetUs).toBe(2000);
      expect(s.latency[1].targetUs).toBe(10000);
    }
  });

  it("refuses a latency target that does not fit", () => {
    expect(() => simulateBlk(m, { sched: "kyber", device: DEVICES.ssd, jobs: mixed, kyber: { read_lat_nsec: 2 ** 32, write_lat_nsec: 1 } })).toThrow(BlkError);
  });
});
