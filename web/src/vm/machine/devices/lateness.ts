// How late the host ran a device's events past the latency model's time, per data request: what
// a busy machine, a throttled tab or a garbage collection added to a request's latency beyond the
// card's own time (the device's clock is the host's: a late event is a late answer). The part a
// later wait of the same request paid back is taken off (SdhciDevice.after). fio's percentiles
// are then the model's time, the emulated CPU's and this (e2e/sd.e2e.ts holds them to it).
export class LatenessLog {
  private readonly ms: number[] = [];
  constructor(private readonly limit = 8192) {}

  /** a data request starts */
  request(): void {
    this.ms.push(0);
    if (this.ms.length > this.limit) this.ms.splice(0, this.ms.length - this.limit);
  }

  /** an event of the current request ran `ms` late (negative: lateness paid back by a shorter wait) */
  add(ms: number): void {
    if (this.ms.length) this.ms[this.ms.length - 1] += ms;
  }

  /** data requests logged since the last take */
  get count(): number {
    return this.ms.length;
  }

  /** each data request's lateness (ms) since the last take, oldest first; the log starts empty again */
  take(): number[] {
    return this.ms.splice(0);
  }
}
