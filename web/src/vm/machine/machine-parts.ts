// What both hosts of the guest (the page's vm-host.ts, Node's node-vm.ts) attach to v86 the same
// way: the trace stream (virtio-console port 1, /dev/hvc1), the check agent (port 2), the SD
// slot's requests (port 3) and the SD host itself, the root filesystem's downloads in flight,
// and the machine's saved state (v86's, then the SD host's: devices/machine-state.ts).
import { TraceChannel } from "./trace-channel";
import { AgentClient } from "./agent";
import { SdhciDevice } from "./devices/sdhci";
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
   * instant start holds no card).
   */
  save(emulator: V86Emulator, v86Only = false): Promise<ArrayBuffer> {
    return this.agent.between(async () => {
      await this.hostFiles?.readyToSave();
      const v86: ArrayBuffer = await emulator.save_state();
      return v86Only ? v86 : machineState(v86, this.sd);
    });
  }

  /**
   * A saved machine back, all or nothing: checks in flight are given up, the SD part is checked
   * before v86 is replaced. `beforeV86` runs just before v86's restore (the page makes sure a
   * stopped machine is stopped).
   */
  async restore(emulator: V86Emulator, state: ArrayBuffer, beforeV86?: () => Promise<void>): Promise<void> {
    this.agent.reset();
    await this.hostFiles?.idle(); // after that, restore anyway
    const { v86, devices } = splitMachineState(state);
    const sd = checkDevices(devices);
    await beforeV86?.();
    await emulator.restore_state(v86);
    this.sd.apply(sd);
  }
}
