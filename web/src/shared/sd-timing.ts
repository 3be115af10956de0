// How long the SD bus takes, at the clock and bus width Linux set, and how long a card stays
// busy programming a written block. The numbers:
//   - a command is 48 bits, its response 48 (136 for R2), with up to 64 clocks between them
//     (N_CR, SD Physical Layer spec 4.12.4): 160 clocks, 248 for R2;
//   - a block is a start bit, the data on 1 or 4 lines, a 16-bit CRC per line and an end bit:
//     2 + bytes x 8 / width + 16 clocks, plus N_AC (the card's access time) before a read;
//   - programming: a Speed Class 4 card (the SD Status this card reports) keeps 4 MB/s of
//     sequential writes (Physical Layer spec 4.13: class 4 = 4 MB/s), so a 512-byte block may
//     take 128 us from its first bit to the end of busy; what the bus does not use of that is
//     the card's busy time, about 87 us at 25 MHz on 4 lines.
// The host does not see times below a timer's grain; delays are summed until they are worth a
// timer (owed), so a long transfer runs at the model's average rate.
export interface BusTimes {
  hz: number;
  width: 1 | 4;
  /** ms for one command and its response */
  command: number;
  /** ms for one block's data on the bus */
  block(bytes: number): number;
  /** ms the card takes to find a block before it sends it (reads only) */
  access: number;
  /** ms the card stays busy after a 512-byte block is written */
  program: number;
}

/** Class 4: 4 MB/s sequential write (SD Physical Layer Simplified Specification, 4.13) */
export const CLASS_WRITE_BYTES_PER_S = 4_000_000;
/** the card's read access time before a block (TAAC 1 ms in CSD v2 is a maximum; typical is far less) */
export const READ_ACCESS_MS = 0.05;

/** The clock Linux runs a default-speed card at: CSD TRAN_SPEED 0x32 (25 MHz) is the card's
 *  maximum, and no CMD6 switch to high speed is made. */
export const DEFAULT_SPEED_HZ = 25_000_000;

export function busTimes(hz: number, width: 1 | 4): BusTimes {
  const clocks = (n: number) => (hz > 0 ? (n / hz) * 1000 : 0);
  const blockMs = (bytes: number) => clocks(2 + (bytes * 8) / width + 16);
  return {
    hz,
    width,
    command: clocks(160),
    block: blockMs,
    access: hz > 0 ? READ_ACCESS_MS : 0,
    program: Math.max(0, (512 / CLASS_WRITE_BYTES_PER_S) * 1000 - blockMs(512)),
  };
}

/** ms one 512-byte block costs: a read waits the card's access time and the bus, a write the
 *  bus and the card's programming (what the host waits between blocks, sdhci.ts) */
export function blockCostMs(t: BusTimes, write: boolean): number {
  return write ? t.block(512) + t.program : t.access + t.block(512);
}

/** What the model predicts for a sequential write of `bytes` in 512-byte blocks (ms). */
export function predictWriteMs(bytes: number, hz: number, width: 1 | 4): number {
  return Math.ceil(bytes / 512) * blockCostMs(busTimes(hz, width), true);
}
