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
// that; a frame at 60 Hz is 16 ms), on the page through a message to its own thread (nextTask),
// not the worker, and a timer ROUND_UP_FROM_MS or more away is slept to the
// whole millisecond after it (fired up to 1 ms late, as a host's timer slack would). Nearer
// timers keep v86's exact wait: null_blk's 20 µs completions (the io-schedulers lab) stay 20 µs.
// Measured on a 2-core machine with the tests' Chromium flags (e2e/browser.ts): a shell loop
// in the page ran in 5.0-5.4 s against 5.8 s, an idle guest took 11.5% of a core against 15%;
// `fslab bench idle` measures both as a learner's Chromium runs them.

// An idle guest's timers: v86 asks each of its timers how soon it is due (run_hardware_timers)
// and each answers 100 ms when it has nothing due: the PIT stopped, the RTC with no interrupt
// on, the ACPI PM timer whose interrupt is off, the local APIC's one-shot not armed. So a
// halted guest woke at least 10 times a second for nothing, which was most of its wakes once
// its own tick stopped (NO_HZ_IDLE; Node, a shell in `sleep`: ~12 wakes a second, 10 of them
// these). A timer with nothing due now answers Infinity, the armed APIC its own time, and a
// halted guest with nothing armed at all sleeps IDLE_MAX_MS. A device the host drives (a key,
// a 9p reply, the SD card) still wakes it at once (v86's stop_idling).

/** The longest run of busy slices between two yields, in ms. */
export const SLICE_MS = 4;
/** A halted guest's wait this long or longer is rounded up to a whole millisecond. */
export const ROUND_UP_FROM_MS = 5;
/** The longest a halted guest sleeps when none of its timers is armed. */
export const IDLE_MAX_MS = 1000;
/** What each of v86's timers answers when it has nothing due (src/pit.js, rtc.js, acpi.js, rust/cpu/apic.rs). */
const V86_NOTHING_DUE_MS = 100;

/** v86's timers, as `cpu` holds them (v86 0.5). */
export interface Timers {
  devices: {
    pit: { timer(now: number, noIrq: boolean): number; counter_enabled: ArrayLike<number | boolean> };
    rtc: { timer(now: number, legacy: boolean): number; periodic_interrupt: boolean; next_interrupt_alarm: number; update_interrupt: boolean };
    acpi: { timer(now: number): number; pm1_enable: number };
  };
  /** the local APIC's timer: its own time when armed, 100 when not */
  apic_timer(now: number): number;
}

/** What of v86's machine (`emulator.v86`, once "emulator-loaded" fired) pacing changes. */
export interface Pace {
  cpu: { main_loop(): number } & Timers;
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
  const d = m?.cpu?.devices;
  if (typeof m?.cpu?.main_loop !== "function" || typeof m.yield !== "function" || typeof m.cpu.apic_timer !== "function" || !d || [d.pit, d.rtc, d.acpi].some((t) => typeof t?.timer !== "function"))
    throw new Error("this v86 build has no cpu.main_loop(), yield() or the timers (cpu.devices.pit/rtc/acpi, cpu.apic_timer) where fslab paces it (see web/src/vm/machine/v86-pace.ts)");
  if (m[PACED]) return;
  m[PACED] = true;
  const cpu = m.cpu;
  nothingDueIsInfinity(cpu);
  const slice = cpu.main_loop;
  cpu.main_loop = () => {
    const start = now();
    let t = slice.call(cpu);
    while (t === 0 && now() - start < SLICE_MS) t = slice.call(cpu);
    return t;
  };
  const yieldTo = m.yield.bind(m);
  const wake = m.yield_callback?.bind(m);
  const now0 = mainTimer && wake ? nextTask(wake) : null;
  m.yield = (t: number, tick: number) => {
    t = Math.min(t, IDLE_MAX_MS);
    if (t < 1 && now0) return now0(tick);
    if (t < ROUND_UP_FROM_MS) return yieldTo(t, tick);
    if (wake && mainTimer?.()) setTimeout(() => wake(tick), Math.ceil(t));
    else yieldTo(Math.ceil(t), tick);
  };
}

/**
 * The page's next task, through a MessageChannel of its own thread: where v86 asks for no wait
 * at all (a busy guest's next slice; a halted one a key, a 9p reply or the SD card woke), which
 * its timer worker answers at once. A round trip to that worker woke a second thread each time,
 * and the worker starts some 70-85 ms after the machine is made (Chromium, 2 cores): a restored
 * machine's first slices, and the keys typed at its first prompt, waited for it. (Messages are
 * not throttled in a hidden tab, as timers are.)
 */
function nextTask(wake: (tick: number) => void): (tick: number) => void {
  const channel = new MessageChannel();
  channel.port1.onmessage = (e: MessageEvent<number>) => wake(e.data);
  return (tick) => channel.port2.postMessage(tick);
}

/** Each of v86's timers answers Infinity instead of 100 when nothing of it can come due. */
function nothingDueIsInfinity(cpu: Timers): void {
  const { pit, rtc, acpi } = cpu.devices;
  const pitTimer = pit.timer;
  pit.timer = (now, noIrq) => {
    const t = pitTimer.call(pit, now, noIrq);
    return t === V86_NOTHING_DUE_MS && !pit.counter_enabled[0] ? Infinity : t;
  };
  const rtcTimer = rtc.timer;
  rtc.timer = (now, legacy) => {
    const t = rtcTimer.call(rtc, now, legacy);
    return t === V86_NOTHING_DUE_MS && !rtc.periodic_interrupt && !rtc.next_interrupt_alarm && !rtc.update_interrupt ? Infinity : t;
  };
  // its overflow interrupt (bit 23 of the PM timer, every 2.3 s) is looked for at each pass
  const acpiTimer = acpi.timer;
  acpi.timer = (now) => {
    const t = acpiTimer.call(acpi, now);
    return acpi.pm1_enable & 1 ? t : Infinity;
  };
  // an armed timer answers its own time, a float from the host's clock: exactly 100 would be
  // read as not armed (and slept up to IDLE_MAX_MS): practically never
  const apicTimer = cpu.apic_timer;
  cpu.apic_timer = (now) => {
    const t = apicTimer.call(cpu, now);
    return t === V86_NOTHING_DUE_MS ? Infinity : t;
  };
}
