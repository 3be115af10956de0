// What both hosts of the guest (the page's vm-host.ts, Node's node-vm.ts) attach to v86 the same
// way: the trace stream (virtio-console port 1, /dev/hvc1), the check agent (port 2), the SD
// slot's requests (port 3) and the SD host itself, the root filesystem's downloads in flight,
// and the machine's saved state (v86's, then the SD host's: devices/machine-state.ts; then what
// the page had of it, its trace and its terminal's screen: page-part.ts).
import { TraceChannel } from "./trace-channel";
import { joinPagePart, pagePartFooter, splitPagePart, type PagePart } from "./page-part";
import { AgentClient } from "./agent";
import { SdhciDevice, type CheckedState } from "./devices/sdhci";
import { SlotChannel } from "./devices/slot-channel";
import { checkDevices, machineState, splitMachineState } from "./devices/machine-state";
import { trackHostFiles, type HostFiles } from "./host-files";
import type { V86Emulator } from "./v86-emulator";

/**
 * An emulator's end, as both hosts end it: its CPU loop stopped first (a run slice after
 * destroy posts to a closed timer worker), then the root's downloads in flight let finish (an
 * answer arriving later would wake it), then v86's own teardown.
 */
export async function endEmulator(emulator: V86Emulator, files: HostFiles | null): Promise<void> {
  await emulator.stop();
  await files?.idle();
  await emulator.destroy();
}

/** What a host's page has of its machine: the trace it received and its terminal's screen. */
export type PageNow = Omit<PagePart, "channel">;

export class MachineParts {
  /** Events from the guest's fslab-trace. */
  readonly trace = new TraceChannel();
  /** The SD host controller beside v86 (devices/sdhci.ts): cards go in and out here. */
  readonly sd = new SdhciDevice();
  /** The guest's check agent: a lab's checks, the CLI's guest commands. */
  readonly agent = new AgentClient((bytes) => this.emulator?.bus.send("virtio-console2-input-bytes", bytes));
  /** the root filesystem's downloads in flight, once v86 has built the machine */
  hostFiles: HostFiles | null = null;
  private emulator: V86Emulator | null = null;

  /** The three ports' listeners on a new emulator; `onTrace` once the trace channel has the bytes. */
  wire(emulator: V86Emulator, onTrace: () => void): void {
    this.emulator = emulator;
    this.hostFiles = null;
    emulator.add_listener("virtio-console1-output-bytes", (bytes: Uint8Array) => {
      this.trace.feed(bytes);
      onTrace();
    });
    emulator.add_listener("virtio-console2-output-bytes", (bytes: Uint8Array) => this.agent.feed(bytes));
    const slot = new SlotChannel(this.sd, (b) => emulator.bus.send("virtio-console3-input-bytes", b));
    emulator.add_listener("virtio-console3-output-bytes", (bytes: Uint8Array) => slot.feed(bytes));
  }

  /** The emulator is gone (its host destroyed it): the agent's requests go nowhere, as before it was wired. */
  detach(): void {
    this.emulator = null;
  }

  /** v86 has built the machine ("emulator-loaded"): its file downloads are followed from now on. */
  loaded(emulator: V86Emulator): void {
    this.hostFiles = trackHostFiles(emulator);
  }

  /**
   * The machine now: between two checks (a check's half-done work, a mount, is not the
   * learner's machine), with no file download half done. `v86Only`: v86's own state (dist/'s
   * instant start holds no card, nor a page part). `pageNow`: what the host's page holds of the
   * trace (handed all the channel has first) and its terminal's screen.
   */
  save(emulator: V86Emulator, v86Only = false, pageNow?: () => PageNow): Promise<ArrayBuffer> {
    return this.agent.between(async () => {
      await this.hostFiles?.readyToSave();
      const v86: ArrayBuffer = await emulator.save_state();
      if (v86Only) return v86;
      // v86 saved at once and runs none of the guest before this goes on: the page's part is the machine's
      const page = pageNow?.() ?? { buffer: null, screen: null };
      return joinPagePart(machineState(v86, this.sd), { ...page, channel: this.trace.kept() });
    });
  }

  /**
   * A learner's saved machine to start a new emulator from: v86's part, the SD host's (checked
   * whole), and what the page had of it (null for a machine kept without). The trace channel
   * goes on from where the machine's stream was. Throws a clear error for a damaged part,
   * before anything changes.
   */
  startFrom(state: ArrayBuffer): { v86: ArrayBuffer; devices: CheckedState | null; page: PageNow | null } {
    const { machineBytes, page } = splitPagePart(state);
    const split = splitMachineState(state, machineBytes);
    const devices = split.devices ? checkDevices(split.devices) : null;
    if (page) this.trace.restoreKept(page.channel);
    return { v86: split.v86, devices, page: page && { buffer: page.buffer, screen: page.screen } };
  }

  /**
   * A saved machine back, all or nothing: checks in flight are given up, the SD part is checked
   * before v86 is replaced. `beforeV86` runs just before v86's restore (the page makes sure a
   * stopped machine is stopped). Its page part is not put back: the channel sees the guest's
   * count go back and takes back what came since (its rewind), so a page's views can say what
   * the reset undid, and the terminal keeps what it showed.
   */
  async restore(emulator: V86Emulator, state: ArrayBuffer, beforeV86?: () => Promise<void>): Promise<void> {
    this.agent.reset();
    await this.hostFiles?.idle(); // after that, restore anyway
    const { v86, devices } = splitMachineState(state, pagePartFooter(state).machineBytes);
    const sd = checkDevices(devices);
    await beforeV86?.();
    await emulator.restore_state(v86);
    this.sd.apply(sd);
  }
}
