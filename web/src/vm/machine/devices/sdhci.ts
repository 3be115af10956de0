// An SD Host Controller on v86's PCI bus: the register set of the SD Host Controller Simplified
// Specification, version 2.00, one slot, PIO only (no SDMA or ADMA in its capabilities), as
// Linux's sdhci-pci driver finds it by its class (0x0805). Behaviour follows QEMU's
// hw/sd/sdhci.c where the specification leaves a choice.
//
//   guest writes ARGUMENT, TRANSFER_MODE, COMMAND (the high byte starts it)
//     -> SdCard.command() -> RESPONSE, NORMAL_INT_STATUS.CMD_COMPLETE -> INTx
//   data: BUFFER_READ_READY / BUFFER_WRITE_READY, the guest moves 32 bits at a time through
//     BUFFER_DATA_PORT, then TRANSFER_COMPLETE (after the card's write busy time)
//   card insert/eject -> CARD_INSERTION / CARD_REMOVAL -> the kernel's mmc_rescan
//
// Timing (shared/sd-timing.ts): a command's response and each block's transfer take the time the bus
// needs at the clock and width Linux set; a read waits the card's access time, a written block
// keeps the card busy (prg) programming, an erase for its allocation units. The guest sees each
// result when its own time has passed on the device's clock, which v86's loop runs with its own
// timers (attach(): run_hardware_timers), so a wait under a millisecond is kept as it is and a
// hidden tab's throttled timers do not stretch it.
import { SdCard, type CardReply, type CardSnapshot } from "./sd-card";
import { MMIO_GRANULE, v86Internals, wireOrPciInterrupts, pciIrq, type V86Cpu, type V86Pci } from "./v86-surface";
import { busTimes, eraseMs, type BusTimes } from "../../../shared/sd-timing";
import { BAR_SIZE, BASE_CLOCK_HZ, CAPABILITIES, ERR, INT, PS, REG, SDHCI_BAR, SDHCI_PCI_ID, TM, pciSpace } from "./sdhci-regs";
import { SDHCI_STATE_VERSION, type CheckedState, type DataPhase, type DeviceEvent, type SdhciSnapshot } from "./sdhci-state";
import { LatenessLog } from "./lateness";

export { SDHCI_STATE_VERSION, type CheckedState, type DeviceEvent, type SdhciSnapshot };

export { BASE_CLOCK_HZ, CAPABILITIES, ERR, INT, REG, SDHCI_BAR, SDHCI_PCI_ID };

/** waits shorter than this run at once, their time added to the request's next wait (after()) */
const SHORTEST_WAIT_MS = 0.05;
/** the coarsest grain of the timers v86 sleeps on (a browser's nested timers): tick() wakes this much early */
const TIMER_GRAIN_MS = 4;
/** an idle guest sleeps COARSE_WAIT_MS for a block with COARSE_REPAY_MS of its transfer's waits after it (tick()) */
const [COARSE_WAIT_MS, COARSE_REPAY_MS] = [1, 4];
/** the wait before each next block of a transfer: its bus time, and a written one's programming */
const blockWaitMs = (d: DataPhase, t: BusTimes) => t.block(d.blockSize) + (d.read ? 0 : t.program);
/** One command as the host saw it: what a trace of the device (and the SD playground) shows. */
export interface SdhciCommandRecord {
  index: number;
  arg: number;
  app: boolean;
  response: CardReply["response"];
  /** the card's state after it */
  state: string;
}

export class SdhciDevice {
  private regs = new DataView(new ArrayBuffer(256));
  private normal = 0;
  private error = 0;
  private data: DataPhase | null = null;
  card: SdCard | null = null;
  private cpu: V86Cpu | null = null;
  private pci: V86Pci | null = null;
  private asserted = false;
  /** the last CMD55 made the next command an application command (for the record) */
  private appNext = false;
  /** what waits on the device's clock, soonest first (after(), tick()) */
  private events: Array<{ at: number; event: DeviceEvent }> = [];
  /** v86's loop runs the clock (attach()); without it, a timer does */
  private hooked = false;
  private fallback: ReturnType<typeof setTimeout> | null = null;
  private busyUntilCard = false;
  /** a command sent, its response not yet on the line */
  private commandBusy = false;
  /** where the card's last write ended (bytes), for its random-write cost */
  private lastWriteEnd = -1;
  /** listeners: every command, for traces and tests */
  onCommand: ((r: SdhciCommandRecord) => void) | null = null;
  /** when false the device answers at once (unit tests); the machine keeps the latency model */
  timed = true;
  now: () => number = () => performance.now();

  constructor(card: SdCard | null = null) {
    this.card = card;
    this.resetAll();
  }

  // ---------------------------------------------------------------------------------------
  // v86

  /** The PCI configuration space (sdhci-regs.ts). */
  static pciSpace(): number[] {
    return pciSpace();
  }

  /**
   * Plug the controller into a built machine. `restored`: the machine was just restored from a
   * state made with the controller in it: the interrupt line the firmware assigned is set again
   * (v86 drops the configuration of a device it did not know while restoring).
   */
  attach(emulator: unknown, restored: boolean): void {
    const cpu = v86Internals(emulator);
    this.cpu = cpu;
    this.pci = cpu.devices.pci;
    wireOrPciInterrupts(cpu);
    const space = this.pci.register_device({ pci_id: SDHCI_PCI_ID, pci_space: SdhciDevice.pciSpace(), pci_bars: [{ size: BAR_SIZE }], name: "sdhci" });
    if (restored) new Uint8Array(space.buffer)[0x3c] = pciIrq(this.pci, SDHCI_PCI_ID);
    // the device's clock runs in v86's loop, beside the PIT's and the RTC's: each pass runs what
    // is due and says how soon the next is, so an idle guest wakes for it
    const timers = cpu.run_hardware_timers;
    cpu.run_hardware_timers = (acpi: boolean, now: number) => Math.min(timers.call(cpu, acpi, now), this.tick());
    this.externalClock();
    const off = (addr: number) => (addr - SDHCI_BAR) >>> 0;
    cpu.io.mmap_register(
      SDHCI_BAR,
      MMIO_GRANULE,
      (a) => this.read8(off(a)),
      (a, v) => this.write8(off(a), v),
      (a) => this.read32(off(a)),
      (a, v) => this.write32(off(a), v),
    );
  }

  // ---------------------------------------------------------------------------------------
  // Registers

  read8(off: number): number {
    if (off >= 0x100) return 0;
    const w = off & ~3;
    if (w === REG.BUFFER) return this.readBuffer(1);
    return (this.read32(w) >>> ((off & 3) * 8)) & 0xff;
  }

  read32(off: number): number {
    if (off >= 0x100) return 0;
    if (off & 3) return this.read8(off) | (this.read8(off + 1) << 8) | (this.read8(off + 2) << 16) | (this.read8(off + 3) << 24);
    switch (off) {
      case REG.BUFFER:
        return this.readBuffer(4);
      case REG.PRESENT_STATE:
        return this.presentState();
      case REG.INT_STATUS:
        return (this.normalStatus() | (this.error << 16)) >>> 0;
      case REG.CLOCK_CONTROL: {
        // internal clock stable as soon as it is enabled; software reset done at once
        let v = this.regs.getUint32(off, true);
        if (v & 1) v |= 2;
        return v & ~(0xff << 24);
      }
      case REG.CAPABILITIES:
        return CAPABILITIES;
      case REG.CAPABILITIES_1:
      case REG.MAX_CURRENT:
        return 0;
      case REG.SLOT_INT_STATUS:
        // slot 0's interrupt in bit 0; spec version 2.00 (1) in HOST_VERSION's low byte
        return ((this.asserted ? 1 : 0) | (0x0001 << 16)) >>> 0;
      default:
        return this.regs.getUint32(off, true);
    }
  }

  write8(off: number, v: number): void {
    if (off >= 0x100) return;
    v &= 0xff;
    if ((off & ~3) === REG.BUFFER) return this.writeBuffer(v, 1);
    if (off >= REG.INT_STATUS && off < REG.INT_STATUS + 4) {
      // write 1 to clear
      if (off < REG.ERR_STATUS) this.normal &= ~(v << ((off - REG.INT_STATUS) * 8));
      else this.error &= ~(v << ((off - REG.ERR_STATUS) * 8));
      return this.updateIrq();
    }
    if (off >= REG.RESPONSE && off < REG.BUFFER) return; // read-only
    if (off >= REG.PRESENT_STATE && off < REG.HOST_CONTROL) return;
    if (off >= REG.CAPABILITIES) return;
    if (off === REG.SOFTWARE_RESET) return this.softwareReset(v);
    if (off === REG.POWER_CONTROL) {
      const was = this.regs.getUint8(off) & 1;
      this.regs.setUint8(off, v & 0x0f);
      if (was && !(v & 1)) this.card?.powerOff(); // a power cycle: the card starts over
      return;
    }
    this.regs.setUint8(off, v);
    if (off === REG.COMMAND + 1) this.sendCommand();
    else if (off >= REG.INT_ENABLE && off < REG.ACMD12_ERR) {
      // a status bit whose enable goes off is cleared (spec 2.2.21)
      this.normal &= this.regs.getUint16(REG.INT_ENABLE, true) | INT.ERROR;
      this.error &= this.regs.getUint16(REG.ERR_ENABLE, true);
      this.updateIrq();
    }
  }

  write32(off: number, v: number): void {
    if (off >= 0x100) return;
    if (off === REG.BUFFER) return this.writeBuffer(v >>> 0, 4);
    if (off === REG.INT_STATUS) {
      this.normal &= ~(v & 0xffff);
      this.error &= ~(v >>> 16);
      return this.updateIrq();
    }
    for (let i = 0; i < 4; i++) this.write8(off + i, (v >>> (i * 8)) & 0xff);
  }

  private presentState(): number {
    let v = PS.CARD_STABLE | PS.WRITE_ENABLED | PS.DAT_LEVEL | PS.CMD_LEVEL;
    if (this.card) v |= PS.CARD_PRESENT | PS.CARD_DETECT_PIN;
    if (this.commandBusy) v |= PS.CMD_INHIBIT;
    const d = this.data;
    if (d || this.busyUntilCard) v |= PS.DAT_INHIBIT | PS.DAT_ACTIVE;
    if (this.busyUntilCard) v &= ~(1 << 20); // DAT0 held low while the card programs
    if (d?.read) v |= PS.READ_ACTIVE | (d.ready ? PS.DATA_AVAILABLE : 0);
    if (d && !d.read) v |= PS.WRITE_ACTIVE | (d.ready ? PS.SPACE_AVAILABLE : 0);
    return v >>> 0;
  }

  private normalStatus(): number {
    return this.normal | (this.error ? INT.ERROR : 0);
  }

  /** Set status bits the guest enabled, and the interrupt line as the signal enables say. */
  private raise(normal: number, error = 0): void {
    this.normal |= normal & this.regs.getUint16(REG.INT_ENABLE, true);
    this.error |= error & this.regs.getUint16(REG.ERR_ENABLE, true);
    this.updateIrq();
  }

  private updateIrq(): void {
    const want =
      (this.normal & this.regs.getUint16(REG.SIGNAL_ENABLE, true) & 0x7fff) !== 0 || (this.error & this.regs.getUint16(REG.ERR_SIGNAL_ENABLE, true)) !== 0;
    if (want === this.asserted || !this.pci) {
      this.asserted = want;
      return;
    }
    this.asserted = want;
    if (want) this.pci.raise_irq(SDHCI_PCI_ID);
    else this.pci.lower_irq(SDHCI_PCI_ID);
  }

  private resetAll(): void {
    const power = this.regs.getUint8(REG.POWER_CONTROL);
    for (let i = 0; i < 256; i += 4) this.regs.setUint32(i, 0);
    if (power & 1) this.card?.powerOff(); // reset all removes the bus power (and the card's programming with it)
    this.normal = this.error = 0;
    this.data = null;
    this.busyUntilCard = this.commandBusy = false;
    this.events = [];
    this.updateIrq();
  }

  private softwareReset(v: number): void {
    if (v & 1) return this.resetAll();
    if (v & 2) {
      // CMD line: a response on its way is dropped
      this.normal &= ~INT.CMD_COMPLETE;
      this.commandBusy = false;
      this.drop("response");
    }
    if (v & 4) {
      // DAT line: the host's data phase and its status go. A card that is programming goes on
      // programming and ends it on its own ("programmed" stays on the clock); the host no
      // longer waits for it.
      this.data = null;
      this.busyUntilCard = false;
      this.drop("buffer", "transfer-end");
      this.normal &= ~(INT.TRANSFER_COMPLETE | INT.BUFFER_READ_READY | INT.BUFFER_WRITE_READY);
    }
    this.updateIrq();
  }

  // ---------------------------------------------------------------------------------------
  // Commands and data

  /** The bus's times at the clock and width the guest set (shared/sd-timing.ts). */
  times(): BusTimes {
    const clock = this.regs.getUint16(REG.CLOCK_CONTROL, true);
    const n = clock >> 8;
    const hz = clock & 4 ? (n ? BASE_CLOCK_HZ / (2 * n) : BASE_CLOCK_HZ) : 0;
    const width = this.regs.getUint8(REG.HOST_CONTROL) & 2 ? 4 : 1;
    // asked once per block: made again only when the guest changes the clock or the width
    if (this.bus?.hz !== hz || this.bus.width !== width) this.bus = busTimes(hz, width);
    return this.bus;
  }
  private bus: BusTimes | null = null;

  private sendCommand(): void {
    const cmd = this.regs.getUint16(REG.COMMAND, true);
    const index = (cmd >> 8) & 0x3f;
    const respType = cmd & 3;
    const dataPresent = (cmd & 0x20) !== 0;
    const arg = this.regs.getUint32(REG.ARGUMENT, true);
    const powered = (this.regs.getUint8(REG.POWER_CONTROL) & 1) === 1;
    const clocked = (this.regs.getUint16(REG.CLOCK_CONTROL, true) & 4) !== 0;
    const app = this.appNext;
    this.appNext = false;
    const card = this.card && powered && clocked ? this.card : null;
    const reply: CardReply = card ? card.command(index, arg) : { response: null, state: "idle" };
    // a write command's start (the card's address now): does it continue the last write?
    const startsAt = reply.data?.dir === "write" && card ? card.address : -1;
    if (dataPresent && reply.data) this.lateness.request();
    this.onCommand?.({ index, arg, app, response: reply.response, state: reply.state });
    if (index === 55 && reply.response) this.appNext = true;
    for (let i = 0; i < 4; i++) this.regs.setUint32(REG.RESPONSE + 4 * i, 0);
    if (respType !== 0 && !reply.response) return this.raise(0, ERR.CMD_TIMEOUT);
    const r = reply.response;
    if (r && r.kind === "r2") {
      // RESPONSE holds R[127:8] (the CRC byte is not kept), least significant byte first
      for (let k = 0; k < 15; k++) this.regs.setUint8(REG.RESPONSE + k, r.value[14 - k]);
    } else if (r) this.regs.setUint32(REG.RESPONSE, r.value >>> 0, true);
    // a stop ends the host's data phase too: what was still to move is not moved
    if (index === 12 && !app && this.data) {
      this.data = null;
      this.drop("buffer");
    }
    const t = this.times();
    // the card busy after this command (an erase, a stop after written blocks): it programs on
    // its own clock, whatever the host waits for
    if (reply.state === "prg" && !this.events.some((e) => e.event.kind === "programmed")) {
      const ms = reply.erased !== undefined ? eraseMs(reply.erased) : t.program + (this.randomWrite ? t.randomWrite : 0);
      this.randomWrite = false;
      this.after(ms, { kind: "programmed" });
    }
    const data = dataPresent && reply.data ? { ...reply.data, ...(reply.data.dir === "write" ? { random: startsAt !== this.lastWriteEnd } : {}) } : null;
    this.commandBusy = true;
    this.late = this.owed = 0; // a new request: nothing owed either way
    this.after(r?.kind === "r2" ? t.command * (248 / 160) : t.command, { kind: "response", data, dataPresent, busy: respType === 3 });
  }

  /** The response is on the line: CMD_COMPLETE, then the data phase, or the busy of an R1b. */
  private responded(e: Extract<DeviceEvent, { kind: "response" }>): void {
    this.commandBusy = false;
    this.raise(INT.CMD_COMPLETE);
    if (e.dataPresent) {
      if (e.data) return this.startData(e.data);
      return this.raise(0, ERR.DATA_TIMEOUT); // the card refused: no data comes
    }
    if (!e.busy) return;
    if (this.events.some((x) => x.event.kind === "programmed")) this.busyUntilCard = true;
    else this.raise(INT.TRANSFER_COMPLETE);
  }

  /** a write whose start did not continue the card's last write, its cost not yet charged */
  private randomWrite = false;

  private startData(reply: NonNullable<CardReply["data"]> & { random?: boolean }): void {
    const tm = this.regs.getUint16(REG.TRANSFER_MODE, true);
    const size = this.regs.getUint16(REG.BLOCK_SIZE, true) & 0xfff;
    const multi = (tm & TM.MULTI) !== 0;
    const count = multi ? (tm & TM.BLOCK_COUNT_ENABLE ? this.regs.getUint16(REG.BLOCK_COUNT, true) : -1) : 1;
    const read = (tm & TM.READ) !== 0;
    // the card sends or takes its own block length: a host that expects another finds the
    // block's end bit where it did not look
    if (size !== reply.blockSize || read !== (reply.dir === "read")) return this.raise(0, ERR.DATA_END_BIT);
    // a block count of 0 moves no block (QEMU's sdhci_data_transfer): done at once, the card
    // still in its data state until the host's CMD12
    if (count === 0) return this.raise(INT.TRANSFER_COMPLETE);
    this.randomWrite = !read && reply.random === true;
    // a read's buffer is the card's block (fillReadBuffer); a write's is filled from the data port
    this.data = { read, blockSize: size, blocksLeft: count, autoCmd12: (tm & TM.AUTO_CMD12) !== 0 && multi, buffer: new Uint8Array(read ? 0 : size), at: 0, ready: false, random: this.randomWrite };
    if (read) this.fillReadBuffer(!reply.register);
    else this.bufferReady(); // room for the first block at once
  }

  /** The card's next block into the buffer, after the bus time (and, first, the card's access time). */
  private fillReadBuffer(first: boolean): void {
    const d = this.data!;
    const block = this.card?.readBlock(d.blockSize) ?? null;
    if (!block) {
      this.data = null;
      return this.raise(0, ERR.DATA_TIMEOUT);
    }
    d.buffer = block; // the card's own copy: readBlock() returns a new array
    d.at = 0;
    const t = this.times();
    this.after((first ? t.access : 0) + blockWaitMs(d, t), { kind: "buffer" });
  }

  private bufferReady(): void {
    const d = this.data;
    if (!d) return;
    d.ready = true;
    this.raise(d.read ? INT.BUFFER_READ_READY : INT.BUFFER_WRITE_READY);
  }

  private readBuffer(bytes: number): number {
    const d = this.data;
    if (!d || !d.read || !d.ready) return 0;
    const b = d.buffer;
    let v: number;
    if (bytes === 4 && d.at + 4 <= b.length) {
      // the data port's usual read, once per 4 bytes of every block the guest reads
      v = b[d.at] | (b[d.at + 1] << 8) | (b[d.at + 2] << 16) | (b[d.at + 3] << 24);
      d.at += 4;
    } else {
      v = 0;
      for (let i = 0; i < bytes; i++) v |= (b[d.at++] ?? 0) << (8 * i);
    }
    if (d.at >= d.blockSize) {
      d.ready = false;
      if (d.blocksLeft > 0) d.blocksLeft--;
      if (d.blocksLeft === 0) this.endTransfer();
      else this.fillReadBuffer(false);
    }
    return v >>> 0;
  }

  private writeBuffer(v: number, bytes: number): void {
    const d = this.data;
    if (!d || d.read || !d.ready) return;
    const b = d.buffer;
    if (bytes === 4 && d.at + 4 <= b.length) {
      // the data port's usual write, once per 4 bytes of every block the guest writes
      b[d.at] = v;
      b[d.at + 1] = v >>> 8;
      b[d.at + 2] = v >>> 16;
      b[d.at + 3] = v >>> 24;
      d.at += 4;
    } else for (let i = 0; i < bytes; i++) b[d.at++] = v >>> (8 * i); // a Uint8Array keeps the low byte
    if (d.at < d.blockSize) return;
    d.ready = false;
    // the card copies the block into its image (SdCard.write), so the buffer is used again
    const ok = this.card?.writeBlock(d.buffer.subarray(0, d.blockSize)) ?? false;
    d.at = 0;
    if (!ok) {
      this.data = null;
      return this.raise(0, ERR.DATA_TIMEOUT);
    }
    this.lastWriteEnd = this.card!.address;
    if (d.blocksLeft > 0) d.blocksLeft--;
    if (d.blocksLeft === 0) return this.endTransfer();
    // room for the next block once this one crossed the bus and was programmed
    const t = this.times();
    this.after(blockWaitMs(d, t), { kind: "buffer" });
  }

  /**
   * The last block moved: the auto CMD12 if asked, then TRANSFER_COMPLETE. A write's last
   * block crosses the bus and is programmed first (with a random write's cost); a card still
   * receiving (no auto CMD12) programs after the host's own CMD12.
   */
  private endTransfer(): void {
    const d = this.data!;
    const t = this.times();
    if (d.autoCmd12 && this.card) {
      const r = this.card.command(12, 0);
      this.onCommand?.({ index: 12, arg: 0, app: false, response: r.response, state: r.state });
      if (r.response && r.response.kind !== "r2") this.regs.setUint32(REG.RESPONSE + 12, r.response.value >>> 0, true);
    }
    this.data = null;
    const stop = d.autoCmd12 ? t.command : 0;
    if (d.read) return this.after(stop, { kind: "transfer-end" });
    const bus = t.block(d.blockSize);
    if (this.card?.state !== "prg") return this.after(bus + stop, { kind: "transfer-end" });
    this.busyUntilCard = true;
    this.after(bus + t.program + stop + (this.randomWrite ? t.randomWrite : 0), { kind: "programmed" });
    this.randomWrite = false;
  }

  /** The card is done programming (or erasing); a host waiting on its busy gets TRANSFER_COMPLETE. */
  private programmed(): void {
    this.card?.programmed();
    if (!this.busyUntilCard) return;
    this.busyUntilCard = false;
    this.raise(INT.TRANSFER_COMPLETE);
  }

  // ---------------------------------------------------------------------------------------
  // The device's clock

  private run(e: DeviceEvent): void {
    if (e.kind === "response") this.responded(e);
    else if (e.kind === "buffer") this.bufferReady();
    else if (e.kind === "transfer-end") this.raise(INT.TRANSFER_COMPLETE);
    else this.programmed();
  }

  /**
   * `event` once `ms` have passed on the device's clock (at once untimed: unit tests). The clock
   * is looked at once per pass of v86's loop: about every 0.05 ms while the guest waits idle
   * (1 ms within a long transfer: tick()), every 1-4 ms while it runs. So, within one request
   * (a command and its data):
   *   - a wait shorter than a pass (a command's 6.4 us) is not waited: its event runs at once and
   *     the time is added to the request's next wait (`owed`);
   *   - an event that ran late has its lateness taken off the request's next waits (`late`).
   * A transfer of many blocks then takes the model's time, not that plus a pass per block. A new
   * command starts with nothing owed either way (sendCommand), so no request pays another's
   * time, and none is cheaper than the model; what is left at a request's end (its last event's
   * lateness, a last wait under a pass) stays with it.
   */
  private after(ms: number, event: DeviceEvent): void {
    if (!this.timed || ms <= 0) return this.run(event);
    ms += this.owed;
    this.owed = 0;
    const repay = Math.min(this.late, ms);
    this.late -= repay;
    this.lateness.add(-repay);
    ms -= repay;
    if (ms < SHORTEST_WAIT_MS) {
      this.owed = ms;
      return this.run(event);
    }
    this.schedule(this.now() + ms, event);
  }
  /** how late the host answered each data request, beyond the model's time (lateness.ts) */
  readonly lateness = new LatenessLog();
  /** ms the events of the current request ran late, still to be taken off its next waits */
  private late = 0;
  /** ms of the current request's waits too short to wait, still to be added to its next */
  private owed = 0;

  private schedule(at: number, event: DeviceEvent): void {
    let i = this.events.length;
    while (i > 0 && this.events[i - 1].at > at) i--;
    this.events.splice(i, 0, { at, event });
    if (!this.hooked) this.armFallback();
  }

  private drop(...kinds: DeviceEvent["kind"][]): void {
    this.events = this.events.filter((e) => !kinds.includes(e.event.kind));
  }

  /**
   * Run what is due; returns the ms until the next event (Infinity: none). v86's loop calls it
   * with its own timers (attach()); its clock and ours are both performance.now().
   */
  tick(): number {
    const now = this.now();
    while (this.events.length && this.events[0].at <= now) {
      const e = this.events.shift()!;
      // (a pass of more than a few ms is the page busy or asleep, not the loop's grain: not repaid)
      this.late = Math.min(now - e.at, 2);
      this.lateness.add(now - e.at);
      this.run(e.event);
    }
    if (!this.events.length) return Infinity;
    // an idle guest sleeps this long: a timer's grain (1 ms in Node, 4 in a browser's nested
    // timers) early, then v86 yields at once until the event is due, so it is not a grain late.
    // But a block with 4 ms of its transfer's waits after it is slept for 1 ms, and those waits
    // pay its lateness back (after()): waiting out each 42 us block kept a host core spinning
    // (`iosched-run sd read` in Node: 37.6 s of CPU in 38.3 s; 24.6 s so, in the same time)
    const ms = this.events[0].at - now;
    if (ms > TIMER_GRAIN_MS) return ms - TIMER_GRAIN_MS;
    return this.waitsAfterNextBlock() >= COARSE_REPAY_MS ? Math.max(ms, COARSE_WAIT_MS) : 0;
  }

  /** ms of the model's waits the transfer still has after its next block (0: the next event is not a block), which can pay back that block's lateness */
  private waitsAfterNextBlock(): number {
    const d = this.data;
    if (!d || this.events[0]?.event.kind !== "buffer" || d.blocksLeft < 2) return 0;
    return (d.blocksLeft - 1) * blockWaitMs(d, this.times());
  }

  /** Someone else calls tick() from now on (v86's loop; a test's own clock): no timer of ours. */
  externalClock(): void {
    this.hooked = true;
    if (this.fallback) clearTimeout(this.fallback);
    this.fallback = null;
  }

  /** without v86 (a device alone): a timer for the soonest event */
  private armFallback(): void {
    if (this.fallback) clearTimeout(this.fallback);
    this.fallback = null;
    if (!this.events.length) return;
    this.fallback = setTimeout(() => {
      this.fallback = null;
      this.tick();
      this.armFallback();
    }, Math.max(0, this.events[0].at - this.now()));
  }

  // ---------------------------------------------------------------------------------------
  // The slot

  /** Put a card in the slot: CARD_INSERTION, and the kernel rescans. */
  insert(card: SdCard): void {
    if (this.card) this.eject();
    this.card = card;
    this.normal &= ~INT.CARD_REMOVAL;
    this.raise(INT.CARD_INSERTION);
  }

  /**
   * Pull the card out, even in the middle of a transfer (which then times out). The slot's
   * power and SD clock go off with it, as a controller does on No Card (QEMU's
   * sdhci_set_inserted); the driver turns them on again for the next card.
   */
  eject(): SdCard | null {
    const card = this.card;
    this.card = null;
    card?.powerOff();
    this.regs.setUint8(REG.POWER_CONTROL, this.regs.getUint8(REG.POWER_CONTROL) & ~1);
    this.regs.setUint16(REG.CLOCK_CONTROL, this.regs.getUint16(REG.CLOCK_CONTROL, true) & ~4, true);
    const moving = this.data !== null || this.busyUntilCard;
    const answering = this.commandBusy;
    this.data = null;
    this.busyUntilCard = this.commandBusy = false;
    this.events = [];
    this.randomWrite = false;
    this.lastWriteEnd = -1;
    if (answering) this.raise(0, ERR.CMD_TIMEOUT);
    if (moving) this.raise(0, ERR.DATA_TIMEOUT);
    this.normal &= ~INT.CARD_INSERTION;
    this.raise(INT.CARD_REMOVAL);
    return card;
  }

  // ---------------------------------------------------------------------------------------
  // Saved with the machine

  snapshot(): { meta: SdhciSnapshot; data: Uint8Array } {
    const card = this.card?.snapshot() ?? null;
    const space = this.pci?.device_spaces[SDHCI_PCI_ID];
    const now = this.now();
    const meta: SdhciSnapshot = {
      version: SDHCI_STATE_VERSION,
      regs: [...new Uint8Array(this.regs.buffer)],
      pciSpace: space ? [...new Uint8Array(space.buffer, space.byteOffset, 256)] : [],
      normal: this.normal,
      error: this.error,
      data: this.data ? { ...this.data, buffer: [...this.data.buffer.subarray(0, this.data.read ? this.data.blockSize : this.data.at)] } : null,
      busyUntilCard: this.busyUntilCard,
      card: card?.meta ?? null,
      events: this.events.map((e) => ({ in: Math.max(0, e.at - now), event: e.event })),
      commandBusy: this.commandBusy,
      lastWriteEnd: this.lastWriteEnd,
    };
    return { meta, data: card?.data ?? new Uint8Array(0) };
  }

  /**
   * A saved state checked whole before anything is replaced: every field in its range, the
   * card rebuilt. Throws with the field named; restore() applies what it returns.
   */
  static check(meta: SdhciSnapshot, data: Uint8Array): CheckedState {
    const bad = (what: string) => {
      throw new Error(`the saved SD host's ${what}: not a state this page can restore`);
    };
    if (!meta || typeof meta !== "object") bad("record is not an object");
    if (meta.version !== 1 && meta.version !== SDHCI_STATE_VERSION)
      throw new Error(`the machine was saved with version ${meta.version} of the SD host, and this page reads versions 1 and ${SDHCI_STATE_VERSION}`);
    const bytes = (v: unknown, n: number) => Array.isArray(v) && v.length === n && v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255);
    if (!bytes(meta.regs, 256)) bad("registers");
    if (!bytes(meta.pciSpace, 256) && !(Array.isArray(meta.pciSpace) && meta.pciSpace.length === 0)) bad("PCI configuration");
    for (const k of ["normal", "error"] as const) if (!Number.isInteger(meta[k]) || meta[k] < 0 || meta[k] > 0xffff) bad(`${k} interrupt status`);
    if (typeof meta.busyUntilCard !== "boolean") bad("busy flag");
    const d = meta.data;
    if (d !== null) {
      if (!d || typeof d !== "object") bad("data phase");
      const int = (v: unknown, lo: number, hi: number) => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
      if (typeof d.read !== "boolean" || typeof d.autoCmd12 !== "boolean" || typeof d.ready !== "boolean") bad("data phase's flags");
      if (!int(d.blockSize, 1, 512) || !int(d.blocksLeft, -1, 0xffff) || !int(d.at, 0, d.blockSize)) bad("data phase's counts");
      if (!Array.isArray(d.buffer) || d.buffer.length > d.blockSize || !d.buffer.every((b) => int(b, 0, 255))) bad("data phase's block");
    }
    const card = meta.card === null ? null : SdCard.restore(meta.card, data);
    if (!card && data.length) bad("card image without a card");
    const events = meta.events ?? [];
    if (!Array.isArray(events) || events.length > 8) bad("clock's events");
    const kinds = ["response", "buffer", "transfer-end", "programmed"];
    for (const e of events) if (!e || typeof e.in !== "number" || !(e.in >= 0 && e.in <= 60_000) || !kinds.includes(e.event?.kind)) bad("clock's events");
    if (meta.commandBusy !== undefined && typeof meta.commandBusy !== "boolean") bad("command flag");
    const lastWriteEnd = meta.lastWriteEnd ?? -1;
    if (!Number.isInteger(lastWriteEnd) || lastWriteEnd < -1 || lastWriteEnd > 2 ** 32) bad("last write's end");
    return { meta, card, events, lastWriteEnd };
  }

  /** Put back a saved state: checked whole first (check()), so a bad one changes nothing. */
  restore(meta: SdhciSnapshot, data: Uint8Array): void {
    this.apply(SdhciDevice.check(meta, data));
  }

  /** A checked state in place; nothing here throws. */
  apply({ meta, card, events, lastWriteEnd }: CheckedState): void {
    this.events = [];
    new Uint8Array(this.regs.buffer).set(meta.regs);
    const space = this.pci?.device_spaces[SDHCI_PCI_ID];
    if (space && meta.pciSpace.length === 256) new Uint8Array(space.buffer, space.byteOffset, 256).set(meta.pciSpace);
    this.normal = meta.normal;
    this.error = meta.error;
    this.data = meta.data ? { ...meta.data, buffer: blockOf(meta.data.buffer, meta.data.blockSize) } : null;
    this.card = card;
    this.busyUntilCard = meta.busyUntilCard;
    this.commandBusy = meta.commandBusy ?? false;
    this.lastWriteEnd = lastWriteEnd;
    this.randomWrite = this.data?.random ?? false;
    if (meta.version === 1) {
      // no clock saved: a busy time that was running ends now, a block waiting is ready
      if (this.busyUntilCard) this.programmed();
      if (this.data && !this.data.ready) this.bufferReady();
    } else {
      const now = this.now();
      for (const e of events) this.schedule(now + e.in, e.event);
    }
    // drive the line as the status says (a raise v86 already restored is repeated: harmless)
    this.asserted = false;
    this.updateIrq();
  }

  /** The card's state name, for the page's status line */
  get cardState(): string {
    return this.card ? this.card.state : "empty";
  }
}

/** A saved block (numbers, up to `size` of them) back in a buffer of the block's size. */
function blockOf(saved: number[], size: number): Uint8Array {
  const b = new Uint8Array(Math.max(size, saved.length));
  b.set(saved);
  return b;
}
