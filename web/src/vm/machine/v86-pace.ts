// How often the emulator hands its thread back, in the page and in Node.
//
// v86 runs the guest in slices: `cpu.main_loop()` runs about 1 ms of guest code and returns 0
// (more to do), or, when the guest halted (HLT: idle), the milliseconds until its next timer
// (the local APIC's one-shot timer, which Linux sets for its next hrtimer; the tick stops
// while the guest idles, NO_HZ_IDLE). Between
// slices v86 yields: in the page through a timer worker (a message there and back, kept off
// the page's timers so a background tab is not throttled), in Node through setImmediate or
// setTimeout. Two costs came of that on the page:
//   - a busy guest yielded ~720 times a second, a worker round trip each;
//   - an idle guest woke early at each tick: setTimeout takes whole milliseconds (9.7 becomes
//     9), and the rest, under 1 ms, v86 waits with round trips to the worker, one after another.
// Paced, a busy guest runs slices of up to SLICE_MS before it yields (a keystroke waits at most
// that; a frame at 60 Hz is 16 ms), and a timer ROUND_UP_FROM_MS or more away is slept to the
// whole millisecond after it (fired up to 1 ms late, as a host's timer slack would). Nearer
// timers keep v86's exact wait: null_blk's 20 µs completions (the io-schedulers lab) stay 20 µs.
// Measured on a 2-core machine with the tests' Chromium flags (e2e/browser.ts): a shell loop
// in the page ran in 5.0-5.4 s against 5.8 s, an idle guest took 11.5% of a core against 15%;
// `fslab bench idle` measures both as a learner's Chromium runs them.

/** The longest run of busy slices between two yields, in ms. */
export const SLICE_MS = 4;
/** A halted guest's wait this long or longer is rounded up to a whole millisecond. */
export const ROUND_UP_FROM_MS = 5;

/** What of v86's machine (`emulator.v86`, once "emulator-loaded" fired) pacing changes. */
export interface Pace {
  cpu: { main_loop(): number };
  yield(t: number, tick: number): void;
  /** v86's own: runs the next slice if `tick` is still the one it waits for */
  yield_callback?(tick: number): void;
}

/**
 * In the page, a wait of ROUND_UP_FROM_MS or more is slept on the page's own timer while the
 * tab is shown (`mainTimer()` true), not through v86's timer worker: a round trip to the worker
 * and back woke a thread more for each of the guest's 100 ticks a second (the worker thread
 * took 2.3% of a core at rest, Chromium, 2 cores, 2026-11-30). A hidden tab's timers are
 * throttled to once a second, so there the worker waits, as v86 does.
 */
export interface PaceOptions {
  now?: () => number;
  mainTimer?: () => boolean;
}

const PACED = Symbol("fslab paced");

/**
 * Pace a loaded machine (once; a second call leaves it as it is). Throws, naming what is
 * missing, when this v86 build has no main_loop or yield where v86 0.5 has them.
 */
export function pace(machine: unknown, { now = () => performance.now(), mainTimer }: PaceOptions = {}): void {
  const m = machine as Partial<Pace> & { [PACED]?: true };
  if (typeof m?.cpu?.main_loop !== "function" || typeof m.yield !== "function")
    throw new Error("this v86 build has no cpu.main_loop() or yield() where fslab paces it (see web/src/vm/machine/v86-pace.ts)");
  if (m[PACED]) return;
  m[PACED] = true;
  const cpu = m.cpu;
  const slice = cpu.main_loop;
  cpu.main_loop = () => {
    const start = now();
    let t = slice.call(cpu);
    while (t === 0 && now() - start < SLICE_MS) t = slice.call(cpu);
    return t;
  };
  const yieldTo = m.yield.bind(m);
  const wake = m.yield_callback?.bind(m);
  m.yield = (t: number, tick: number) => {
    if (t < ROUND_UP_FROM_MS) return yieldTo(t, tick);
    if (wake && mainTimer?.()) setTimeout(() => wake(tick), Math.ceil(t));
    else yieldTo(Math.ceil(t), tick);
  };
}
