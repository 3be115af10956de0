import { describe, expect, it } from "vitest";
import { IDLE_MAX_MS, pace, ROUND_UP_FROM_MS, SLICE_MS } from "./v86-pace";

/**
 * v86's timers as v86 0.5 answers them (src/pit.js, rtc.js, acpi.js, rust/cpu/apic.rs):
 * each its time when something is due, else 100; and run_hardware_timers' min of them.
 */
function timers() {
  const due = { pit: NaN, rtc: NaN, apic: NaN };
  const answer = (t: number) => (Number.isNaN(t) ? 100 : Math.min(t, 100));
  const devices = {
    pit: { counter_enabled: [0, 0, 0], timer: () => (Number.isNaN(due.pit) ? 100 : due.pit) },
    rtc: { periodic_interrupt: false, next_interrupt_alarm: 0, update_interrupt: false, timer: () => answer(due.rtc) },
    acpi: { pm1_enable: 0, timer: () => 100 },
  };
  const cpu = {
    devices,
    apic_timer: () => (Number.isNaN(due.apic) ? 100 : due.apic),
    // as v86 calls them: through the properties of the cpu it runs on
    run_hardware_timers(this: { devices: typeof devices; apic_timer(): number }): number {
      const d = this.devices;
      return Math.min(d.pit.timer(), d.rtc.timer(), d.acpi.timer(), this.apic_timer());
    },
  };
  return { cpu, due };
}

/** A machine whose slices each take 1 ms of a clock the test moves. */
function machine(results: number[]) {
  let clock = 0;
  const yields: number[] = [];
  const m = {
    slices: 0,
    cpu: {
      ...timers().cpu,
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
    m.yield(1.5, 1); // near: v86's exact wait, whatever the tab
    m.yield(6.2, 2); // far, shown: the page's timer, woken with its tick
    shown = false;
    m.yield(6.2, 3); // far, hidden: v86's (its worker is not throttled)
    expect(yields).toEqual([1.5, 7]);
    await expect.poll(() => woke, { timeout: 1000, interval: 5 }).toEqual([2]);
  });

  it("on the page, runs a slice asked for at once in the page's next task, not through v86's worker", async () => {
    const { m, yields, now } = machine([]);
    const woke: number[] = [];
    Object.assign(m, { yield_callback: (tick: number) => woke.push(tick) });
    pace(m, { now, mainTimer: () => false }); // even in a hidden tab: messages are not throttled
    m.yield(0, 1);
    m.yield(0.7, 2);
    expect(woke).toEqual([]); // not within v86's call: in a task of its own
    await expect.poll(() => woke, { timeout: 1000, interval: 5 }).toEqual([1, 2]);
    expect(yields).toEqual([]);
  });

  it("a timer with nothing due answers Infinity, not v86's 100 ms; an armed one its own time", () => {
    const { cpu, due } = timers();
    const m = { cpu: { ...cpu, main_loop: () => cpu.run_hardware_timers() }, yield() {} };
    pace(m, { now: () => 0 });
    const t = () => m.cpu.run_hardware_timers();
    expect(t()).toBe(Infinity); // the PIT stopped, no RTC interrupt, the PM timer's off, the APIC not armed
    due.apic = 480; // the guest's next hrtimer, on the APIC's one-shot
    expect(t()).toBe(480);
    due.rtc = 2000; // an RTC alarm: the RTC answers at most 100, and is looked at again then
    m.cpu.devices.rtc.next_interrupt_alarm = 1;
    expect(t()).toBe(100);
    m.cpu.devices.rtc.next_interrupt_alarm = 0;
    m.cpu.devices.acpi.pm1_enable = 1; // the PM timer's interrupt on: its overflow is looked for
    expect(t()).toBe(100);
    m.cpu.devices.acpi.pm1_enable = 0;
    m.cpu.devices.pit.counter_enabled[0] = 1;
    due.pit = 9.5;
    expect(t()).toBe(9.5);
  });

  it("sleeps a halted guest with nothing armed IDLE_MAX_MS, then looks again", () => {
    const { m, yields, now } = machine([]);
    pace(m, { now });
    m.yield(Infinity, 1);
    m.yield(480, 2);
    expect(yields).toEqual([IDLE_MAX_MS, 480]);
  });

  it("names what a v86 build lacks", () => {
    expect(() => pace({ cpu: {} })).toThrow(/no cpu\.main_loop\(\), yield\(\) or the timers/);
    expect(() => pace({ cpu: { main_loop() {}, apic_timer() {}, devices: { pit: {}, rtc: {}, acpi: {} } }, yield() {} })).toThrow(/cpu\.devices\.pit\/rtc\/acpi/);
    expect(() => pace(undefined)).toThrow(/v86-pace\.ts/);
  });
});
