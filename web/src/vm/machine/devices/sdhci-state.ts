// What the SD host (sdhci.ts) keeps in a saved machine (devices/machine-state.ts): its format's
// version, the data phase, the events on its clock, and the state as check() passes it to
// apply() once every field was found in its range.
import type { CardSnapshot, SdCard } from "./sd-card";

/**
 * The device's save format: a snapshot of another version is refused, not misread. 2 added the
 * device clock's events and the card's ACMD22 count; 1 (no events: a busy card was ended at
 * the restore) is still read.
 */
export const SDHCI_STATE_VERSION = 2;

/** What waits on the device's clock: named, so that a saved machine keeps it. */
export type DeviceEvent =
  /** a command's response is on the line: CMD_COMPLETE, then its data phase or busy */
  | { kind: "response"; data: { dir: "read" | "write"; blockSize: number } | null; dataPresent: boolean; busy: boolean }
  /** a block is in the buffer (read) or the buffer has room (write) */
  | { kind: "buffer" }
  /** the last block moved (and the auto CMD12 sent): TRANSFER_COMPLETE, or the card's busy */
  | { kind: "transfer-end" }
  /** the card is done programming or erasing: prg -> tran (dis stays dis) */
  | { kind: "programmed" };

export interface SdhciSnapshot {
  version: number;
  regs: number[];
  pciSpace: number[];
  normal: number;
  error: number;
  /** the data phase, its block as numbers (JSON) */
  data: (Omit<DataPhase, "buffer"> & { buffer: number[] }) | null;
  /** the host waits for the card's busy to end (R1b, a write's end) */
  busyUntilCard: boolean;
  card: CardSnapshot | null;
  /** version 2: what was waiting on the device's clock, in ms from the save */
  events?: Array<{ in: number; event: DeviceEvent }>;
  /** version 2: a command's response not yet on the line (CMD_INHIBIT) */
  commandBusy?: boolean;
  /** version 2: where the card's last write ended (bytes; -1 none) */
  lastWriteEnd?: number;
}

export interface DataPhase {
  read: boolean;
  blockSize: number;
  /** blocks still to move, -1: until the guest stops it (no block count) */
  blocksLeft: number;
  autoCmd12: boolean;
  /** the block in the host's buffer: the guest moves it 4 bytes at a time, so a typed array */
  buffer: Uint8Array;
  at: number;
  /** a block is in the buffer (read) or room for one (write) */
  ready: boolean;
  /** a write that does not continue the card's last write (its random-write cost, at the end) */
  random?: boolean;
}

/** A saved SD host's state, checked (SdhciDevice.check), ready to apply. */
export interface CheckedState {
  meta: SdhciSnapshot;
  card: SdCard | null;
  events: NonNullable<SdhciSnapshot["events"]>;
  lastWriteEnd: number;
}
