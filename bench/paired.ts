// Paired measurements for `fslab bench` (issue 36): on a shared, noisy machine the speed of
// the CPU changes while a benchmark runs. Timing one side as a block (every native run, then
// every wasm run) puts that change into the ratio; here the sides alternate, A B A B, and
// each round's ratio is taken within the round, so a change between rounds cancels out. The
// ratios' median is reported with their spread, and a goal is called met or not only when the
// whole interquartile range is on one side of it; otherwise the figure is "within noise".

/** one sample of one side, in ms (or any unit shared by the sides being compared) */
export type Sampler = () => number | Promise<number>;

/**
 * `rounds` rounds, each one sample of every side in the order given (A B A B ..., or
 * A B C A B C ...), after `warmup` rounds whose samples are dropped. Returns, per side, its
 * samples in round order: `samples[side][round]`, so that round i's samples were taken
 * one right after the other.
 */
export async function interleave(rounds: number, sides: Sampler[], warmup = 0): Promise<number[][]> {
  if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError(`interleave: ${rounds} rounds`);
  const out = sides.map(() => [] as number[]);
  for (let r = 0; r < warmup + rounds; r++)
    for (const [s, sample] of sides.entries()) {
      const x = await sample();
      if (!Number.isFinite(x) || x < 0) throw new RangeError(`interleave: side ${s} sampled ${x}`);
      if (r >= warmup) out[s].push(x);
    }
  return out;
}

/** each round's ratio num[i] / den[i] (the rounds' samples from interleave) */
export function pairRatios(num: number[], den: number[]): number[] {
  if (num.length !== den.length || num.length === 0) throw new RangeError(`pairRatios: ${num.length} against ${den.length} samples`);
  return num.map((x, i) => x / den[i]);
}

export interface Spread {
  n: number;
  median: number;
  /** the interquartile range: the 25th and 75th percentiles */
  q1: number;
  q3: number;
  min: number;
  max: number;
}

/** the p-quantile of sorted xs, interpolated between neighbours (R's and numpy's default) */
function quantile(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return lo + 1 < sorted.length ? sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
}

export function spread(xs: number[]): Spread {
  if (xs.length === 0 || xs.some((x) => Number.isNaN(x))) throw new RangeError(`spread of [${xs.join(", ")}]`);
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, median: quantile(s, 0.5), q1: quantile(s, 0.25), q3: quantile(s, 0.75), min: s[0], max: s[s.length - 1] };
}

/**
 * a goal on a ratio: at most (wasm within 1.2x of native) or at least (cold boot 20x a
 * restore); text, how it is said where the number alone would not read well ("under a third")
 */
export type Goal = ({ atMost: number } | { atLeast: number }) & { text?: string };
export type Verdict = "met" | "NOT met" | "within noise";

/** "met" or "NOT met" only when the whole interquartile range is on one side of the goal */
export function verdict(s: Spread, goal: Goal): Verdict {
  if ("atMost" in goal) return s.q3 <= goal.atMost ? "met" : s.q1 > goal.atMost ? "NOT met" : "within noise";
  return s.q1 >= goal.atLeast ? "met" : s.q3 < goal.atLeast ? "NOT met" : "within noise";
}

/** how a spread is printed: what its samples are, the figures' decimals, and their unit */
export interface Shown {
  what?: string;
  digits?: number;
  unit?: string;
}

export const goalText = (goal: Goal, unit = "x") =>
  goal.text ?? ("atMost" in goal ? `at most ${goal.atMost}${unit}` : `at least ${goal.atLeast}${unit}`);

/**
 * Samples' line: "1.16x (IQR 1.10-1.25x, min-max 1.02-1.40x, 15 pairs) (goal: at most 1.2x,
 * within noise: the IQR 1.10-1.25x spans it)"; the verdict only against a goal.
 */
export function describeSpread(xs: number[], goal: Goal | null, { what = "pairs", digits = 2, unit = "x" }: Shown = {}): string {
  const s = spread(xs);
  const f = (v: number) => v.toFixed(digits);
  const iqr = `${f(s.q1)}-${f(s.q3)}${unit}`;
  const head = `${f(s.median)}${unit} (IQR ${iqr}, min-max ${f(s.min)}-${f(s.max)}${unit}, ${s.n} ${what})`;
  if (!goal) return head;
  const v = verdict(s, goal);
  return `${head} (goal: ${goalText(goal, unit)}, ${v === "within noise" ? `within noise: the IQR ${iqr} spans it` : v})`;
}

/** a ratio's line: the pairs' ratios (pairRatios) with their spread, against a goal */
export const describeRatio = (ratios: number[], goal: Goal | null, what = "pairs", digits = 2) => describeSpread(ratios, goal, { what, digits });

/**
 * Growth in a series that swings (a heap that fills and is trimmed): every later-half sample
 * minus every earlier-half sample, so one high or low minute is one difference among many and
 * the spread of the differences says whether the later half sits above the earlier one.
 */
export function laterMinusEarlier(xs: number[]): number[] {
  if (xs.length < 2) throw new RangeError(`laterMinusEarlier: ${xs.length} samples`);
  const early = xs.slice(0, Math.floor(xs.length / 2));
  const late = xs.slice(Math.ceil(xs.length / 2));
  return late.flatMap((b) => early.map((a) => b - a));
}
