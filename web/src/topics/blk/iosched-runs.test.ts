// The io-schedulers lab's files, as the guest's iosched-run wrote them (fixtures/: a real run
// of `iosched-run sd randwrite` on the emulated SD card, /dev/mmcblk0, 256 MiB; recorded again
// 2026-11-29 with the A1 card model).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { emulatedCard, modelScenario, NO_CLEAR_WINNER, parseFioJson, parseRuns, RunsError, winner } from "./iosched-runs";
import { busTimes, DEFAULT_SPEED_HZ, requestMs } from "../../shared/sd-timing";

const fixture = (f: string) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), "utf8");

describe("iosched-run's files", () => {
  it("read runs.txt: 16 runs, four schedulers at four shapes", () => {
    const runs = parseRuns(fixture("iosched-runs.txt"));
    expect(runs).toHaveLength(16);
    expect(new Set(runs.map((r) => r.sched))).toEqual(new Set(["none", "mq-deadline", "kyber", "bfq"]));
    // under the model's 9.8 MB/s for 1 MiB random writes (the card alone), the CPU's copying on top
    expect(runs.every((r) => r.disk === "sd" && r.rw === "randwrite" && r.bwKiB > 3_000 && r.bwKiB < (9.8e6 / 1024))).toBe(true);
    // the card's data is copied in the host's interrupt handler, timed as irq (IRQ_TIME_ACCOUNTING)
    expect(runs.every((r) => r.irqMs > 0 && r.irqMs <= r.cpuMs && r.cpuMs <= r.wallMs)).toBe(true);
    expect(winner(runs, "sd", "randwrite", 4, 4)).toMatch(/^(none|mq-deadline|kyber|bfq|no clear winner \(within 5%\))$/);
    // the two best within 5%: no winner, as the lab's awk says; further apart, the best
    const at44 = runs.filter((r) => r.numjobs === 4 && r.iodepth === 4);
    const [first, second] = [...at44].sort((a, b) => b.bwKiB - a.bwKiB);
    const widen = (k: number) => runs.map((r) => (r === first ? { ...r, bwKiB: second.bwKiB * k } : r));
    expect(winner(widen(1.04), "sd", "randwrite", 4, 4)).toBe(NO_CLEAR_WINNER);
    expect(winner(widen(1.06), "sd", "randwrite", 4, 4)).toBe(first.sched);
    expect(winner(runs, "ssd", "randwrite", 4, 4)).toBeNull();
  });

  it("read fio's JSON: the write bandwidth and its completion-latency percentiles", () => {
    const r = parseFioJson(fixture("sd-bfq-randwrite-4x4.json"), "write");
    const line = parseRuns(fixture("iosched-runs.txt")).find((x) => x.file === "sd-bfq-randwrite-4x4.json")!;
    expect(r.bwKiB).toBe(line.bwKiB); // the guest's own extraction agrees with the page's
    expect(r.clat.p50).toBeLessThanOrEqual(r.clat.p90);
    expect(r.clat.p90).toBeLessThanOrEqual(r.clat.p99);
    expect(Math.round(r.clat.p99 * 1000)).toBe(line.p99Ns);
    expect(() => parseFioJson(fixture("sd-bfq-randwrite-4x4.json"), "read")).toThrow(/no read results/); // a write run has no read percentiles
  });

  it.each([
    ["sd none randwrite 1 1 5 5 5 5 5", /10 fields, not 11/],
    ["sd none randwrite 1 1 5 5 5 5 x-y-read-1x1.json", /10 fields, not 11/], // as written before the irq-ms field
    ["hdd none read 1 1 5 5 5 5 5 x-y-read-1x1.json", /disk "hdd"/],
    ["sd cfq read 1 1 5 5 5 5 5 x-y-read-1x1.json", /"cfq" is not a scheduler/],
    ["sd none trim 1 1 5 5 5 5 5 x-y-read-1x1.json", /"trim" is not a pattern/],
    ["sd none read -1 1 5 5 5 5 5 x-y-read-1x1.json", /whole numbers/],
    ["sd none read 1 1 5 5 6 5 5 x-y-read-1x1.json", /interrupts' 6 ms are more than the CPU's 5 ms/],
    ["sd none read 1 1 5 5 5 5 5 ../../etc/passwd", /not a run's file name/],
  ])("refuse %j", (line, msg) => {
    expect(() => parseRuns(line)).toThrow(msg);
  });

  it("refuse what is not fio's JSON, and never throw anything else on any text", () => {
    expect(() => parseFioJson("{", "read")).toThrow(RunsError);
    expect(() => parseFioJson('{"jobs":[{}]}', "read")).toThrow(/no read results/);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (t) => {
        for (const f of [() => parseRuns(t), () => parseFioJson(t, "write")]) {
          try {
            f();
          } catch (e) {
            expect(e).toBeInstanceOf(RunsError);
          }
        }
      }),
    );
  });

  it("give the model the same jobs: one 64 MiB region each, 1 MiB requests", () => {
    const s = modelScenario({ disk: "ssd", rw: "randread", numjobs: 4, iodepth: 4 });
    expect(s.jobs).toHaveLength(4);
    expect(s.jobs.map((j) => j.offset)).toEqual([0, 131072, 262144, 393216]);
    expect(s.jobs.every((j) => j.bs_sectors === 2048 && j.iodepth === 4 && j.random && j.write_pct === 0)).toBe(true);
    expect(s.device.queue_depth).toBe(32);
  });

  it("model the SD card as the emulated one: its latency model's times, one request served, the next prepared", () => {
    const w = modelScenario({ disk: "sd", rw: "write", numjobs: 1, iodepth: 1 }).device;
    const rw = modelScenario({ disk: "sd", rw: "randwrite", numjobs: 1, iodepth: 1 }).device;
    const r = modelScenario({ disk: "sd", rw: "read", numjobs: 1, iodepth: 1 }).device;
    const t = busTimes(DEFAULT_SPEED_HZ, 4);
    // an A1 card writes 10 MB/s in sequence: 512 bytes in 51.2 µs, bus time included
    expect(w.per_sector_ns).toBe(51_200);
    // a read's block is 2 + 1024 + 16 clocks on 4 lines at 25 MHz
    expect(r.per_sector_ns).toBe(Math.round((1042 / 25e6) * 1e9));
    // a 1 MiB request is two commands of 512 KiB, each with its CMD12 (160 clocks each), and a
    // read waits the card's access time twice
    expect(r.base_ns).toBe(Math.round((4 * 160 / 25e6 * 1000 + 2 * t.access) * 1e6));
    expect(w.base_ns).toBe(Math.round(4 * 160 / 25e6 * 1e9));
    // a random 1 MiB write pays the card's random-write cost once
    expect(rw.base_ns - w.base_ns).toBe(Math.round(t.randomWrite * 1e6));
    // A1's figures: a random 4 KiB read in 1/1500 s, a random 4 KiB write in 1/500 s
    expect(requestMs(t, false, 8)).toBeCloseTo(1000 / 1500, 9);
    expect(requestMs(t, true, 8, true)).toBeCloseTo(1000 / 500, 9);
    expect([w.queue_depth, w.channels, w.seek_max_sectors]).toEqual([2, 1, 0]);
    expect(emulatedCard("write").label).toMatch(/A1 card's writes: 10\.0 MB\/s/);
    // the SSD keeps its one shape for every pattern
    expect(modelScenario({ disk: "ssd", rw: "write", numjobs: 1, iodepth: 1 }).device).toEqual(modelScenario({ disk: "ssd", rw: "read", numjobs: 1, iodepth: 1 }).device);
  });
});
