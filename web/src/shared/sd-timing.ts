// How long the SD bus and the card take, at the clock and bus width Linux set. The card the
// model follows: an SDHC card of Application Performance Class 1 (A1) run at default speed (an
// emulated SDSC card, 2 GiB or less, is timed the same: A1 classes no SDSC card),
// at A1's minimum figures (SD Specification 5.1; the SD Association's "Application Performance
// Class", https://www.sdcard.org/developers/sd-standard-overview/application-performance-class/):
// 1500 random 4 KiB reads and 500 random 4 KiB writes a second, and 10 MB/s of sustained
// sequential writes (also Speed Class 10's figure). The bus:
//   - a command is 48 bits and its response 48 (136 for R2), with up to 64 clocks between
//     them (N_CR, 4.12.4): 160 clocks, 248 for R2, charged to every command;
//   - a block is a start bit, the data on 1 or 4 lines, a 16-bit CRC per line and an end bit:
//     2 + bytes x 8 / width + 16 clocks (42 us for 512 bytes at 25 MHz on 4 lines).
// The card:
//   - a read command waits the card's access time once, before its first block; A1's 1500
//     IOPS make a random 4 KiB read (CMD18, 8 blocks, CMD12) take 667 us, so the access time
//     is what the bus does not use of that (about 320 us at 25 MHz on 4 lines);
//   - a written block keeps the card busy programming for what the bus does not use of 10 MB/s
//     (51.2 us a block: about 9.5 us of busy);
//   - a write that does not start where the card's last write ended pays the card's random
//     write cost once, as busy after its last block: what A1's 500 IOPS leave of 2 ms for a
//     4 KiB write after its bus and programming time (about 1.58 ms);
//   - an erase keeps the card busy for ERASE_OFFSET plus its allocation units (4 MiB each) at
//     the SD Status's ERASE_TIMEOUT / ERASE_SIZE, which the card reports (sd-card.ts): 250 ms
//     a unit would be Linux's assumption without them (mmc_sd_erase_timeout); this card
//     reports 1 s for 64 units and no offset, about 16 ms a unit. Not from a datasheet: A1
//     names no erase figure.
// Every request is charged its own time (the host's device clock, sdhci.ts), never summed
// with the next.
export interface BusTimes {
  hz: number;
  width: 1 | 4;
  /** ms for one command and its response (R1, R3, R6, R7) */
  command: number;
  /** ms for one block's data on the bus */
  block(bytes: number): number;
  /** ms the card takes to find the first block of a read command */
  access: number;
  /** ms the card stays busy after each 512-byte block written in sequence */
  program: number;
  /** ms of busy a write command pays once when it does not continue the last write */
  randomWrite: number;
}

/** A1: random 4 KiB reads a second (SD Specification 5.1's Application Performance Class 1) */
export const A1_READ_IOPS = 1500;
/** A1: random 4 KiB writes a second */
export const A1_WRITE_IOPS = 500;
/** A1 and Speed Class 10: sustained sequential writes, bytes a second */
export const SEQUENTIAL_WRITE_BYTES_PER_S = 10_000_000;
/** the allocation unit the SD Status reports (AU_SIZE 9: 4 MiB) */
export const AU_BYTES = 4 * 2 ** 20;
/** the SD Status's erase figures: ERASE_SIZE units take ERASE_TIMEOUT seconds, plus ERASE_OFFSET */
export const ERASE_SIZE_AUS = 64;
export const ERASE_TIMEOUT_S = 1;
export const ERASE_OFFSET_S = 0;

/** The clock Linux runs a default-speed card at: CSD TRAN_SPEED 0x32 (25 MHz) is the card's
 *  maximum, and no CMD6 switch to high speed is made. */
export const DEFAULT_SPEED_HZ = 25_000_000;

/** The times at a clock (Hz; 0: stopped) and bus width. */
export function busTimes(hz: number, width: 1 | 4): BusTimes {
  const clocks = (n: number) => (hz > 0 ? (n / hz) * 1000 : 0);
  const blockMs = (bytes: number) => clocks(2 + (bytes * 8) / width + 16);
  const command = clocks(160);
  const perBlockWrite = (512 / SEQUENTIAL_WRITE_BYTES_PER_S) * 1000;
  // a random 4 KiB read or write: CMD18/25 and CMD12, and eight blocks
  const read4k = 1000 / A1_READ_IOPS - 2 * command - 8 * blockMs(512);
  const write4k = 1000 / A1_WRITE_IOPS - 2 * command - 8 * Math.max(perBlockWrite, blockMs(512));
  return {
    hz,
    width,
    command,
    block: blockMs,
    access: hz > 0 ? Math.max(0, read4k) : 0,
    program: hz > 0 ? Math.max(0, perBlockWrite - blockMs(512)) : 0,
    randomWrite: hz > 0 ? Math.max(0, write4k) : 0,
  };
}

/** ms an erase of `bytes` keeps the card busy: its offset and its allocation units. */
export function eraseMs(bytes: number): number {
  const aus = Math.max(1, Math.ceil(bytes / AU_BYTES));
  return (ERASE_OFFSET_S + (ERASE_TIMEOUT_S * aus) / ERASE_SIZE_AUS) * 1000;
}

/** ms one read or write command of `blocks` 512-byte blocks takes, with its CMD12 (a write: in
 *  sequence with the last, or not). What the device charges, summed for the block model. */
export function requestMs(t: BusTimes, write: boolean, blocks: number, random = true): number {
  const stop = blocks > 1 ? t.command : 0;
  if (!write) return t.command + t.access + blocks * t.block(512) + stop;
  return t.command + blocks * (t.block(512) + t.program) + stop + (random ? t.randomWrite : 0);
}

/** What the model predicts for a sequential write of `bytes` in one command (ms). */
export function predictWriteMs(bytes: number, hz: number, width: 1 | 4): number {
  return requestMs(busTimes(hz, width), true, Math.ceil(bytes / 512), false);
}
