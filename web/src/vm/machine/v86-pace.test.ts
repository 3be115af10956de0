import { describe, expect, it } from "vitest";
import { pace, ROUND_UP_FROM_MS, SLICE_MS } from "./v86-pace";

/** A machine whose slices each take 1 ms of a clock the test moves. */
function machine(results: number[]) {
  let clock = 0;
  const yields: number[] = [];
  const m = {
    slices: 0,
    cpu: {
      main_loop() {
        m.slices++;
        clock += 1;
        return results.shift() ?? 0;
      },
    },
    yield(t: number, _tick?: number) {
      yields.push(t);
    },
  };
  return { m, yields, now: () => clock };
}

describe("pace", () => {
  it("runs busy slices back to back for SLICE_MS, then yields", () => {
    const { m, now } = machine([]);
    pace(m, { now });
    expect(m.cpu.main_loop()).toBe(0);
    expect(m.slices).toBe(SLICE_MS);
  });

  it("returns at once when the guest halts, with the time to its timer", () => {
    const { m, now } = machine([0, 7.25]);
    pace(m, { now });
    expect(m.cpu.main_loop()).toBe(7.25);
    expect(m.slices).toBe(2);
  });

  it("rounds a far timer up to the whole millisecond, and leaves a near one exact", () => {
    const { m, yields, now } = machine([]);
    pace(m, { now });
    for (const t of [0, 0.02, 0.7, 1.5, ROUND_UP_FROM_MS - 0.1, ROUND_UP_FROM_MS, 9.3, 100]) m.yield(t, 1);
    expect(yields).toEqual([0, 0.02, 0.7, 1.5, ROUND_UP_FROM_MS - 0.1, ROUND_UP_FROM_MS, 10, 100]);
  });

  it("paces a machine once", () => {
    const { m, yields, now } = machine([]);
    pace(m, { now });
    const loop = m.cpu.main_loop;
    pace(m, { now });
    expect(m.cpu.main_loop).toBe(loop);
    m.yield(9.3, 1);
    expect(yields).toEqual([10]);
  });

  it("sleeps a far timer on the page's own timer while the tab is shown, else through v86's", async () => {
    const { m, yields, now } = machine([]);
    const woke: number[] = [];
    let shown = true;
    Object.assign(m, { yield_callback: (tick: number) => woke.push(tick) });
    pace(m, { now, mainTimer: () => shown });
    m.yield(0.5, 1); // near: v86's exact wait, whatever the tab
    m.yield(6.2, 2); // far, shown: the page's timer, woken with its tick
    shown = false;
    m.yield(6.2, 3); // far, hidden: v86's (its worker is not throttled)
    expect(yields).toEqual([0.5, 7]);
    await expect.poll(() => woke, { timeout: 1000, interval: 5 }).toEqual([2]);
  });

  it("names what a v86 build lacks", () => {
    expect(() => pace({ cpu: {} })).toThrow(/no cpu\.main_loop\(\) or yield\(\)/);
    expect(() => pace(undefined)).toThrow(/v86-pace\.ts/);
  });
});
