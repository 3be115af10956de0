import { describe, expect, it } from "vitest";
import { describeRatio, describeSpread, interleave, laterMinusEarlier, pairRatios, spread, verdict, type Sampler } from "./paired";

/**
 * A made-up machine: every sample costs `work` ms times the machine's slowness at that moment,
 * and the machine slows down `slowdown` times from its `drift`-th sample on (another engineer's
 * build starting halfway through the benchmark).
 */
function machine(drift: number, slowdown: number) {
  let taken = 0;
  const log: string[] = [];
  const side =
    (name: string, work: number): Sampler =>
    () => {
      log.push(name);
      return work * (taken++ < drift ? 1 : slowdown);
    };
  return { side, log };
}

/** the old design: every native sample, then every wasm sample; the ratio of the medians */
function blockRatio(n: number, native: Sampler, wasm: Sampler): number {
  const a = Array.from({ length: n }, () => native() as number);
  const b = Array.from({ length: n }, () => wasm() as number);
  return spread(b).median / spread(a).median;
}

describe("interleave", () => {
  it("takes the sides' samples in turn, A B A B, after the warm-up rounds, which it drops", async () => {
    const m = machine(Infinity, 1);
    let k = 0;
    const a: Sampler = () => (m.log.push("A"), ++k);
    const b: Sampler = async () => (m.log.push("B"), 100 + ++k);
    const [xs, ys] = await interleave(3, [a, b], 1);
    expect(m.log).toEqual(["A", "B", "A", "B", "A", "B", "A", "B"]);
    expect(xs).toEqual([3, 5, 7]);
    expect(ys).toEqual([104, 106, 108]);
  });

  it("takes three sides in turn too, A B C A B C", async () => {
    const m = machine(Infinity, 1);
    const got = await interleave(2, [m.side("A", 1), m.side("B", 2), m.side("C", 3)]);
    expect(m.log.join("")).toBe("ABCABC");
    expect(got).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it("refuses no rounds and a sample that is not a time", async () => {
    await expect(interleave(0, [() => 1])).rejects.toThrow(RangeError);
    await expect(interleave(2, [() => 1, () => NaN])).rejects.toThrow(/side 1 sampled NaN/);
    await expect(interleave(2, [() => -1])).rejects.toThrow(/side 0 sampled -1/);
  });
});

describe("pairRatios", () => {
  it("divides within each round", () => {
    expect(pairRatios([2, 9, 30], [1, 3, 10])).toEqual([2, 3, 3]);
  });
  it("refuses samples that do not pair up", () => {
    expect(() => pairRatios([1, 2], [1])).toThrow(RangeError);
    expect(() => pairRatios([], [])).toThrow(RangeError);
  });
});

describe("spread", () => {
  it("gives the median, the quartiles (interpolated) and the extremes, whatever the order", () => {
    expect(spread([5, 1, 4, 2, 3])).toEqual({ n: 5, median: 3, q1: 2, q3: 4, min: 1, max: 5 });
    // 8 values: quartiles at positions 1.75 and 5.25
    expect(spread([80, 10, 20, 30, 40, 50, 60, 70])).toEqual({ n: 8, median: 45, q1: 27.5, q3: 62.5, min: 10, max: 80 });
    expect(spread([7])).toEqual({ n: 1, median: 7, q1: 7, q3: 7, min: 7, max: 7 });
  });
  it("refuses nothing and NaN", () => {
    expect(() => spread([])).toThrow(RangeError);
    expect(() => spread([1, NaN])).toThrow(RangeError);
  });
});

describe("verdict", () => {
  const at = (q1: number, q3: number) => ({ n: 9, median: (q1 + q3) / 2, q1, q3, min: q1 - 1, max: q3 + 1 });
  it("an upper goal: met only when the whole IQR is at or under it, NOT met only when all of it is over", () => {
    expect(verdict(at(1.05, 1.2), { atMost: 1.2 })).toBe("met");
    expect(verdict(at(1.21, 1.5), { atMost: 1.2 })).toBe("NOT met");
    expect(verdict(at(1.1, 1.3), { atMost: 1.2 })).toBe("within noise");
    expect(verdict(at(1.2, 1.3), { atMost: 1.2 })).toBe("within noise");
  });
  it("a lower goal: met only when the whole IQR is at or over it, NOT met only when all of it is under", () => {
    expect(verdict(at(20, 30), { atLeast: 20 })).toBe("met");
    expect(verdict(at(10, 19.9), { atLeast: 20 })).toBe("NOT met");
    expect(verdict(at(15, 25), { atLeast: 20 })).toBe("within noise");
  });
  it("ignores the extremes: one wild pair does not take the verdict away", () => {
    expect(verdict(spread([1.0, 1.02, 1.05, 1.08, 1.1, 1.12, 9]), { atMost: 1.2 })).toBe("met");
  });
});

describe("a drift halfway through", () => {
  // wasm truly 1.1x native (the goal is at most 1.2x: met); the machine 1.8x slower from
  // the 16th sample of 30 on
  const N = 15;

  it("turns the block design's ratio into a false NOT met", () => {
    const m = machine(N, 1.8);
    const r = blockRatio(N, m.side("native", 10), m.side("wasm", 11));
    expect(r).toBeCloseTo(1.98, 5);
    expect(r > 1.2).toBe(true);
  });

  it("leaves the interleaved pairs' ratios where they are: met", async () => {
    // the slowdown from the 17th sample on: between round 8 and round 9
    const m = machine(N + 1, 1.8);
    const [n, w] = await interleave(N, [m.side("native", 10), m.side("wasm", 11)]);
    expect(n.slice(7, 9)).toEqual([10, 18]);
    const s = spread(pairRatios(w, n));
    expect(s.min).toBeCloseTo(1.1, 9);
    expect(s.max).toBeCloseTo(1.1, 9);
    expect(verdict(s, { atMost: 1.2 })).toBe("met");
  });

  it("a slowdown between a pair's two samples skews that pair only, outside the IQR", async () => {
    // the 16th sample is round 8's wasm: that round's ratio is 1.98, the others 1.1
    const m = machine(N, 1.8);
    const [n, w] = await interleave(N, [m.side("native", 10), m.side("wasm", 11)]);
    const s = spread(pairRatios(w, n));
    expect(s.max).toBeCloseTo(1.98, 5);
    expect(s.q3).toBeCloseTo(1.1, 9);
    expect(verdict(s, { atMost: 1.2 })).toBe("met");
  });

  it("says within noise, with the range, when the pairs themselves straddle the goal", async () => {
    // a wasm side whose cost swings between 1.0x and 1.4x native from one run to the next
    let k = 0;
    const swing = [1.0, 1.4, 1.1, 1.3, 1.05, 1.35, 1.15, 1.25, 1.2];
    const [n, w] = await interleave(swing.length, [() => 10, () => 10 * swing[k++]]);
    const line = describeRatio(pairRatios(w, n), { atMost: 1.2 });
    expect(line).toBe("1.20x (IQR 1.10-1.30x, min-max 1.00-1.40x, 9 pairs) (goal: at most 1.2x, within noise: the IQR 1.10-1.30x spans it)");
  });
});

describe("describeRatio", () => {
  it("prints the median, IQR, extremes and count, and a verdict only against a goal", () => {
    expect(describeRatio([0.9, 1.0, 1.1], { atMost: 1.2 })).toBe("1.00x (IQR 0.95-1.05x, min-max 0.90-1.10x, 3 pairs) (goal: at most 1.2x, met)");
    expect(describeRatio([25, 30, 35], { atLeast: 20 }, "visits", 1)).toBe("30.0x (IQR 27.5-32.5x, min-max 25.0-35.0x, 3 visits) (goal: at least 20x, met)");
    expect(describeRatio([2, 2.5, 3], { atMost: 1.2 })).toMatch(/\(goal: at most 1\.2x, NOT met\)$/);
    expect(describeRatio([1, 2], null, "rounds")).toBe("1.50x (IQR 1.25-1.75x, min-max 1.00-2.00x, 2 rounds)");
    expect(describeRatio([0.2, 0.25, 0.3], { atMost: 1 / 3, text: "under a third" })).toBe("0.25x (IQR 0.23-0.28x, min-max 0.20-0.30x, 3 pairs) (goal: under a third, met)");
  });
});

describe("describeSpread", () => {
  it("prints times in their unit, against a goal in the same unit", () => {
    expect(describeSpread([380, 420, 450, 470, 610], { atMost: 500 }, { what: "visits", digits: 0, unit: " ms" })).toBe(
      "450 ms (IQR 420-470 ms, min-max 380-610 ms, 5 visits) (goal: at most 500 ms, met)",
    );
    expect(describeSpread([380, 420, 450, 520, 610], { atMost: 500 }, { what: "visits", digits: 0, unit: " ms" })).toMatch(/within noise: the IQR 420-520 ms spans it\)$/);
  });
});

describe("laterMinusEarlier: growth in a series that swings", () => {
  const goal = { atMost: 0, text: "no growth" };
  it("pairs every later-half sample with every earlier-half one", () => {
    expect(laterMinusEarlier([1, 2, 9, 4, 6])).toEqual([4 - 1, 4 - 2, 6 - 1, 6 - 2]); // the middle one is in neither half
  });
  it("a heap swinging in one band is within noise, not a verdict either way", () => {
    // three whole bench runs' heaps after the event cap (MB a minute): the end less the first
    // drop said -2.2, +5.6 and +8.8 MB; the differences' IQR spans 0 in all three
    const runs = [
      [51.6, 58.4, 63.4, 53.1, 58.7, 49.5],
      [49.1, 55.1, 62.0, 51.3, 56.1, 63.3, 54.7],
      [50.1, 57.3, 62.7, 54.4, 61.4, 52.7, 58.9],
    ];
    for (const r of runs) expect(verdict(spread(laterMinusEarlier(r)), goal)).toBe("within noise");
  });
  it("a heap that climbs through its swings is NOT met; one that shrinks is met", () => {
    const leak = [50, 56, 52, 58, 54, 60, 56, 62].map((x, i) => x + i * 2);
    expect(verdict(spread(laterMinusEarlier(leak)), goal)).toBe("NOT met");
    expect(verdict(spread(laterMinusEarlier([...leak].reverse())), goal)).toBe("met");
    expect(describeSpread(laterMinusEarlier(leak), goal, { what: "differences", digits: 1, unit: " MB" })).toMatch(/^\d+\.\d MB \(IQR .* \(goal: no growth, NOT met\)$/);
  });
  it("needs two samples", () => expect(() => laterMinusEarlier([1])).toThrow(RangeError));
});
