// An SD memory card as the SD Physical Layer Simplified Specification (version 3.01) describes
// it to a host: its registers (OCR, CID, CSD, SCR, SD Status), its states and the commands
// Linux's MMC core sends (drivers/mmc/core/sd.c, sd_ops.c, block.c). Behaviour follows QEMU's
// hw/sd/sd.c where the specification leaves a choice. No timing here: the host (sdhci.ts) owns
// the clock, and the latency model (shared/sd-timing.ts) the figures the registers report.
//
//   idle --ACMD41--> ready --CMD2--> ident --CMD3--> stby --CMD7--> tran
//   tran --CMD17/18, ACMD13/51, CMD6--> data --(last block | CMD12)--> tran
//   tran --CMD24/25--> rcv --(last block | CMD12)--> prg --(busy over)--> tran
//   tran --CMD7(other RCA)--> stby;  any --CMD0--> idle;  addressed --CMD15--> ina (silent
//   until its power is cycled)
//
// The data is a sparse image: 4 KiB pages written at least once, the rest reads as zeros
// (SCR's DATA_STAT_AFTER_ERASE is 0, so erased blocks read as zeros too).

import { CARD_TYPES, STATES, cardSizeError, csdV1Geometry, parseSize, type CardType, type StateName } from "../../../shared/sd-card-spec";
import { ERASE_OFFSET_S, ERASE_SIZE_AUS, ERASE_TIMEOUT_S } from "../../../shared/sd-timing";
import { BitField, crc7 } from "./sd-bits";

export { crc7, csdV1Geometry };

export { CARD_TYPES, STATES, parseSize, type CardType };
/** the specification's numbered states, and inactive (ina), which has no number: it never answers */
export type CardState = StateName | "ina";

// R1 card status bits (Physical Layer spec 4.10.1)
export const R1 = {
  OUT_OF_RANGE: 1 << 31,
  ADDRESS_ERROR: 1 << 30,
  BLOCK_LEN_ERROR: 1 << 29,
  ERASE_SEQ_ERROR: 1 << 28,
  ERASE_PARAM: 1 << 27,
  ILLEGAL_COMMAND: 1 << 22,
  READY_FOR_DATA: 1 << 8,
  APP_CMD: 1 << 5,
} as const;
/** bits cleared once a response carried them (type "C" in the specification) */
const CLEAR_ON_READ = R1.OUT_OF_RANGE | R1.ADDRESS_ERROR | R1.BLOCK_LEN_ERROR | R1.ERASE_SEQ_ERROR | R1.ERASE_PARAM | R1.ILLEGAL_COMMAND;

const OCR_VOLTAGES = 0x00ff8000; // 2.7-3.6 V
const OCR_POWERED_UP = 1 << 31; // "card power up status bit (busy)": set once initialised
const OCR_CCS = 1 << 30; // card capacity status: block addressing
const HCS = 1 << 30; // ACMD41's host capacity support
/** ACMD41 calls with a voltage window that answer "still busy" before the card is ready */
export const ACMD41_BUSY_REPLIES = 1;
export const PAGE = 4096;
export const BLOCK = 512;

/** What the card answers to one command. `response` null: it did not answer (the host times out). */
export interface CardReply {
  response: null | { kind: "r1" | "r1b" | "r3" | "r6" | "r7"; value: number } | { kind: "r2"; value: Uint8Array };
  /** the data phase this command starts, if any (`register`: a register's bytes, not the memory's) */
  data?: { dir: "read" | "write"; blockSize: number; register?: boolean };
  /** an erase's bytes: the card is busy erasing them */
  erased?: number;
  /** the card's state after the command */
  state: CardState;
}

export interface CardOptions {
  type: CardType;
  /** bytes: a multiple of 512 KiB (SDHC's C_SIZE unit), at least 1 MiB */
  size: number;
  /** a serial number for the CID (two cards of one make differ in it); drawn at random if not given */
  serial?: number;
}

export interface CardSnapshot {
  type: CardType;
  size: number;
  serial: number;
  state: CardState;
  rca: number;
  status: number;
  app: boolean;
  opCondCalls: number;
  ready: boolean;
  ifCond: boolean;
  blockLen: number;
  busWidth: 1 | 4;
  eraseStart: number;
  eraseEnd: number;
  addr: number;
  multi: boolean;
  pending: number[] | null;
  pendingAt: number;
  pages: number[];
  /** blocks the last write command wrote without error (ACMD22); absent in version 1 of the SD host's state */
  wellWritten?: number;
}

/** Why a card of this type and size cannot be made here, or null. */
export function cardOptionsError(o: CardOptions): string | null {
  // the specification's limits, then ours: the image lives in the page's memory
  return cardSizeError(o.type, o.size) ?? (o.size > 2 ** 32 ? "the emulated card holds at most 4 GiB (it lives in the page's memory)" : null);
}

export class SdCard {
  readonly type: CardType;
  readonly size: number;
  readonly serial: number;
  state: CardState = "idle";
  rca = 0;
  /** card status bits that persist between commands (errors carried to the next response) */
  private status = 0;
  private app = false;
  private opCondCalls = 0;
  private ready = false;
  /** the card answered CMD8 since the last CMD0 (a v2 card that may set CCS) */
  private ifCond = false;
  private blockLen = BLOCK;
  busWidth: 1 | 4 = 1;
  private eraseStart = -1;
  private eraseEnd = -1;
  /** data phase: the next byte address (reads and writes of the memory) */
  private addr = 0;
  private multi = false;
  /** a register read (SCR, SD Status, switch status) waiting to be sent */
  private pending: Uint8Array | null = null;
  private pendingAt = 0;
  private pages = new Map<number, Uint8Array>();
  /** blocks the last CMD24/25 wrote without error: ACMD22's answer */
  private wellWritten = 0;

  constructor(o: CardOptions) {
    const bad = cardOptionsError(o);
    if (bad) throw new Error(bad);
    this.type = o.type;
    this.size = o.size;
    // each card its own PSN, as each real card has (Linux shows it in /sys/block/mmcblk0/device/serial)
    this.serial = (o.serial ?? crypto.getRandomValues(new Uint32Array(1))[0]) >>> 0;
  }

  get blockAddressed(): boolean {
    return this.type === "sdhc";
  }

  /** the byte address the next block of a data phase goes to or comes from */
  get address(): number {
    return this.addr;
  }

  get sectors(): number {
    return this.size / BLOCK;
  }

  /** Power removed (or the card pulled out): everything but the data is lost. */
  powerOff(): void {
    this.goIdle();
  }

  /** CMD0 or power-up: idle, with the RCA, the status and the bus width at their reset values (spec 4.2.1, 4.10.1). */
  private goIdle(): void {
    this.state = "idle";
    this.rca = 0;
    this.status = 0;
    this.busWidth = 1;
    this.app = false;
    this.opCondCalls = 0;
    this.ready = false;
    this.ifCond = false;
    this.blockLen = BLOCK;
    this.pending = null;
    this.eraseStart = this.eraseEnd = -1;
  }

  // ---------------------------------------------------------------------------------------
  // Registers

  /** OCR as ACMD41 returns it (R3). */
  ocr(): number {
    let v = OCR_VOLTAGES;
    if (this.ready) {
      v |= OCR_POWERED_UP;
      if (this.type === "sdhc") v |= OCR_CCS;
    }
    return v >>> 0;
  }

  /** CID, 16 bytes, most significant first (CRC byte last). */
  cid(): Uint8Array {
    const b = new Uint8Array(16);
    // MID: 0x00, which no maker has (SD-3C assigns IDs from 0x01; 0x1b, used here before, is
    // Samsung's). Linux prints it as manfid.
    b[0] = 0x00;
    b[1] = 0x46; // OID "FL"
    b[2] = 0x4c;
    b.set(new TextEncoder().encode("FSLAB"), 3); // PNM, 5 ASCII characters
    b[8] = 0x10; // PRV 1.0
    new DataView(b.buffer).setUint32(9, this.serial >>> 0); // PSN
    // MDT: year since 2000 (8 bits) and month (4 bits), bits [19:8]: 2026-11
    const year = 26, month = 11;
    b[13] = (year >> 4) & 0x0f;
    b[14] = ((year & 0x0f) << 4) | month;
    b[15] = (crc7(b.subarray(0, 15)) << 1) | 1;
    return b;
  }

  /** CSD, 16 bytes: version 2 for SDHC (C_SIZE in 512 KiB), version 1 for SDSC and SD 1.x. */
  csd(): Uint8Array {
    const f = new BitField(128);
    // command classes 0, 2, 4, 5, 8 and (not on SD 1.0 cards) 10: basic, block read, block
    // write, erase, application specific, switch: what the card implements (no class 6 write
    // protection, no class 7 lock: CMD28-30 and CMD42 are refused)
    const ccc = this.type === "v1" ? 0x135 : 0x535;
    if (this.type === "sdhc") {
      f.set(126, 2, 1); // CSD_STRUCTURE 1
      f.set(112, 8, 0x0e); // TAAC 1 ms
      f.set(104, 8, 0x00); // NSAC
      f.set(96, 8, 0x32); // TRAN_SPEED 25 MHz
      f.set(84, 12, ccc);
      f.set(80, 4, 9); // READ_BL_LEN 512
      f.set(48, 22, this.size / (512 * 1024) - 1); // C_SIZE
      f.set(46, 1, 1); // ERASE_BLK_EN: erase in units of 512 bytes
      f.set(39, 7, 0x7f); // SECTOR_SIZE: 64 KiB
      f.set(26, 3, 2); // R2W_FACTOR
      f.set(22, 4, 9); // WRITE_BL_LEN 512
    } else {
      const { readBlLen, cSize, cSizeMult } = csdV1Geometry(this.size, this.serial);
      f.set(126, 2, 0);
      f.set(112, 8, 0x26); // TAAC 1.5 ms
      f.set(104, 8, 0x00);
      f.set(96, 8, 0x32);
      f.set(84, 12, ccc);
      f.set(80, 4, readBlLen);
      f.set(79, 1, 1); // READ_BL_PARTIAL: always 1 on an SD card (spec 5.3.2)
      f.set(62, 12, cSize);
      // code 6 in each: VDD_R_CURR_MIN and VDD_W_CURR_MIN 60 mA, VDD_R_CURR_MAX and VDD_W_CURR_MAX 80 mA
      f.set(59, 3, 6);
      f.set(56, 3, 6);
      f.set(53, 3, 6);
      f.set(50, 3, 6);
      f.set(47, 3, cSizeMult);
      f.set(46, 1, 1);
      f.set(39, 7, 0x7f);
      f.set(26, 3, 2);
      f.set(22, 4, readBlLen);
    }
    const b = f.bytes();
    b[15] = (crc7(b.subarray(0, 15)) << 1) | 1;
    return b;
  }

  /** SCR, 8 bytes. */
  scr(): Uint8Array {
    const f = new BitField(64);
    f.set(56, 4, this.type === "v1" ? 0 : 2); // SD_SPEC: 1.0 or 2.00
    f.set(55, 1, 0); // DATA_STAT_AFTER_ERASE: zeros
    f.set(52, 3, this.type === "sdhc" ? 3 : 2); // SD_SECURITY: SDHC card or SDSC v2
    f.set(48, 4, 0b0101); // SD_BUS_WIDTHS: 1 and 4 bits
    return f.bytes(); // CMD_SUPPORT 0: no CMD23, so Linux ends multi-block transfers with CMD12
  }

  /** SD Status (ACMD13), 64 bytes. */
  sdStatus(): Uint8Array {
    const f = new BitField(512);
    f.set(510, 2, this.busWidth === 4 ? 2 : 0); // DAT_BUS_WIDTH
    f.set(480, 16, 0); // SD_CARD_TYPE: regular read/write card
    f.set(448, 32, 0); // SIZE_OF_PROTECTED_AREA
    // the card the latency model follows (shared/sd-timing.ts): Speed Class 10, which A1's
    // 10 MB/s of sequential writes also is (APP_PERF_CLASS, [339:336], belongs to SD 5.1's
    // status: this SD 2.00 card does not report it)
    f.set(440, 8, this.type === "v1" ? 0 : 4); // SPEED_CLASS 4: Class 10
    f.set(432, 8, 10); // PERFORMANCE_MOVE 10 MB/s
    f.set(428, 4, this.type === "sdhc" ? 9 : 7); // AU_SIZE: 4 MiB (SDHC), 1 MiB
    f.set(408, 16, ERASE_SIZE_AUS); // ERASE_SIZE: this many units...
    f.set(402, 6, ERASE_TIMEOUT_S); // ERASE_TIMEOUT: ...take this many seconds to erase
    f.set(400, 2, ERASE_OFFSET_S); // ERASE_OFFSET
    return f.bytes();
  }

  /**
   * CMD6's switch status (64 bytes) for its argument: only the default function (0) of each
   * group exists. Per group, a request of 0xF ("no influence") or 0 gives 0, the function the
   * group is in; any other function is not supported and gives 0xF (spec 4.3.10.4). The set
   * mode switches to nothing else, so both modes answer alike.
   */
  switchStatus(arg = 0x00ffffff): Uint8Array {
    const f = new BitField(512);
    f.set(496, 16, 100); // maximum current: 100 mA
    for (let g = 0; g < 6; g++) {
      f.set(400 + 16 * g, 16, 0x8001); // group g+1 supports functions 0 and 15
      const asked = (arg >>> (4 * g)) & 0xf;
      f.set(376 + 4 * g, 4, asked === 0xf || asked === 0 ? 0 : 0xf); // [399:376] the function selected
    }
    f.set(368, 8, 0); // data structure version 0: no busy status
    return f.bytes();
  }

  // ---------------------------------------------------------------------------------------
  // Commands

  /** One command from the host; `app` is decided by the card (a CMD55 before it). */
  command(index: number, arg: number): CardReply {
    arg >>>= 0;
    const app = this.app;
    this.app = false;
    const before = this.state;
    // inactive: the card answers nothing until its power is cycled (spec 4.2.1)
    if (before === "ina") return { response: null, state: before };
    const stateBits = STATES.indexOf(before) << 9;
    const r1 = (extra = 0): { kind: "r1"; value: number } => {
      const v = (this.status | extra | stateBits | (this.readyForData() ? R1.READY_FOR_DATA : 0) | (app || index === 55 ? R1.APP_CMD : 0)) >>> 0;
      this.status &= ~CLEAR_ON_READ;
      return { kind: "r1", value: v };
    };
    const reply = (response: CardReply["response"], data?: CardReply["data"]): CardReply => ({ response, data, state: this.state });
    const illegal = (): CardReply => {
      this.status |= R1.ILLEGAL_COMMAND;
      return reply(null);
    };
    const addressed = () => arg >>> 16 === this.rca && this.rca !== 0;
    if (this.state === "dis" && index !== 0 && index !== 7 && index !== 13 && index !== 55) return illegal();

    if (app) {
      switch (index) {
        case 6: // SET_BUS_WIDTH
          if (before !== "tran") return illegal();
          if ((arg & 3) !== 0 && (arg & 3) !== 2) return reply(r1(R1.ERASE_PARAM));
          this.busWidth = (arg & 3) === 2 ? 4 : 1;
          return reply(r1());
        case 13: // SD_STATUS
          if (before !== "tran") return illegal();
          return this.startRegisterRead(this.sdStatus(), r1());
        case 41: // SD_SEND_OP_COND
          if (before !== "idle") return illegal();
          if ((arg & OCR_VOLTAGES) !== 0) {
            // an SDHC card stays busy for a host that does not support it (HCS 0); a card that
            // was not asked CMD8 (SD 1.x) ignores HCS
            const canFinish = this.type !== "sdhc" || (this.ifCond && (arg & HCS) !== 0);
            if (canFinish && this.opCondCalls++ >= ACMD41_BUSY_REPLIES) this.ready = true;
          }
          {
            const value = this.ocr();
            if (this.ready) this.state = "ready";
            return reply({ kind: "r3", value });
          }
        case 51: // SEND_SCR
          if (before !== "tran") return illegal();
          return this.startRegisterRead(this.scr(), r1());
        case 22: // SEND_NUM_WR_BLOCKS
        case 23: // SET_WR_BLK_ERASE_COUNT
        case 42: // SET_CLR_CARD_DETECT
          if (before !== "tran") return illegal();
          if (index === 22) {
            // the blocks the last write command wrote without error, most significant byte first
            const n = new Uint8Array(4);
            new DataView(n.buffer).setUint32(0, this.wellWritten >>> 0);
            return this.startRegisterRead(n, r1());
          }
          return reply(r1());
        default:
          // an ACMD the card does not know is taken as the plain command (spec 4.3.9.1)
          break;
      }
    }

    switch (index) {
      case 0: // GO_IDLE_STATE
        this.goIdle();
        return reply(null);
      case 2: // ALL_SEND_CID
        if (before !== "ready") return illegal();
        this.state = "ident";
        return reply({ kind: "r2", value: this.cid() });
      case 3: // SEND_RELATIVE_ADDR
        if (before !== "ident" && before !== "stby") return illegal();
        this.rca = (this.rca + 0x4567) & 0xffff || 0x4567; // a new RCA each time it is asked (QEMU's)
        this.state = "stby";
        {
          const s = this.status | stateBits | (this.readyForData() ? R1.READY_FOR_DATA : 0);
          // R6: [31:16] RCA, [15:0] status bits 23, 22, 19, 12:0
          const v = ((this.rca << 16) | (((s >>> 23) & 1) << 15) | (((s >>> 22) & 1) << 14) | (((s >>> 19) & 1) << 13) | (s & 0x1fff)) >>> 0;
          this.status &= ~CLEAR_ON_READ;
          return reply({ kind: "r6", value: v });
        }
      case 6: // SWITCH_FUNC
        // check or set mode alike: only the default functions exist, and the status says so
        if (this.type === "v1" || before !== "tran") return illegal();
        return this.startRegisterRead(this.switchStatus(arg), r1());
      case 7: // SELECT/DESELECT_CARD
        if (addressed()) {
          if (before === "stby") this.state = "tran";
          else if (before === "dis") this.state = "prg";
          else return illegal();
          return reply({ kind: "r1b", value: r1().value });
        }
        // any other RCA (0 included) deselects this card, which does not answer
        if (before === "tran" || before === "data") this.state = "stby";
        else if (before === "prg") this.state = "dis";
        return reply(null);
      case 8: // SEND_IF_COND
        if (this.type === "v1" || before !== "idle") return illegal();
        if (((arg >> 8) & 0xf) !== 1) return reply(null); // a voltage it cannot take: no answer
        this.ifCond = true;
        return reply({ kind: "r7", value: arg & 0xfff });
      case 9: // SEND_CSD
      case 10: // SEND_CID
        if (before !== "stby") return illegal();
        if (!addressed()) return reply(null);
        return reply({ kind: "r2", value: index === 9 ? this.csd() : this.cid() });
      case 12: // STOP_TRANSMISSION
        if (before === "data") this.state = "tran";
        else if (before === "rcv") this.state = "prg";
        else return illegal();
        this.pending = null;
        return reply({ kind: "r1b", value: r1().value });
      case 13: // SEND_STATUS
        if (before === "idle" || before === "ready" || before === "ident") return illegal();
        if (!addressed()) return reply(null);
        return reply(r1());
      case 15: // GO_INACTIVE_STATE: no response; valid from stby on
        if (before === "idle" || before === "ready" || before === "ident") return illegal();
        if (addressed()) this.state = "ina";
        return reply(null);
      case 16: // SET_BLOCKLEN
        if (before !== "tran") return illegal();
        if (this.blockAddressed) return reply(r1()); // SDHC: always 512
        if (arg === 0 || arg > BLOCK) return reply(r1(R1.BLOCK_LEN_ERROR));
        this.blockLen = arg;
        return reply(r1());
      case 17: // READ_SINGLE_BLOCK
      case 18: // READ_MULTIPLE_BLOCK
      case 24: // WRITE_BLOCK
      case 25: {
        // WRITE_MULTIPLE_BLOCK
        if (before !== "tran") return illegal();
        const bytes = this.blockAddressed ? arg * BLOCK : arg;
        const len = this.blockAddressed ? BLOCK : this.blockLen;
        if (bytes + len > this.size) return reply(r1(R1.OUT_OF_RANGE));
        if (!this.blockAddressed && bytes % len) return reply(r1(R1.ADDRESS_ERROR));
        const response = r1();
        this.addr = bytes;
        this.multi = index === 18 || index === 25;
        if (index >= 24) this.wellWritten = 0;
        this.state = index <= 18 ? "data" : "rcv";
        return reply(response, { dir: index <= 18 ? "read" : "write", blockSize: len });
      }
      case 32: // ERASE_WR_BLK_START
      case 33: // ERASE_WR_BLK_END
        if (before !== "tran") return illegal();
        if (index === 32) this.eraseStart = arg;
        else if (this.eraseStart < 0) return reply(r1(R1.ERASE_SEQ_ERROR));
        else this.eraseEnd = arg;
        return reply(r1());
      case 38: {
        // ERASE
        if (before !== "tran") return illegal();
        if (this.eraseStart < 0 || this.eraseEnd < 0) return reply(r1(R1.ERASE_SEQ_ERROR));
        const unit = this.blockAddressed ? BLOCK : 1;
        const from = this.eraseStart * unit, to = this.eraseEnd * unit + BLOCK;
        if (to > this.size || from >= to) {
          this.eraseStart = this.eraseEnd = -1;
          return reply(r1(R1.OUT_OF_RANGE));
        }
        const response = r1();
        this.erase(from, to);
        this.eraseStart = this.eraseEnd = -1;
        this.state = "prg";
        return { response: { kind: "r1b", value: response.value }, state: this.state, erased: to - from };
      }
      case 55: // APP_CMD
        if (before !== "idle" && !addressed()) return reply(null);
        this.app = true;
        return reply(r1());
      default:
        // CMD1 (MMC's), CMD5 and CMD52/53 (SDIO's), CMD23 (not in CMD_SUPPORT) and the rest:
        // a memory card without them does not answer
        return illegal();
    }
  }

  private readyForData(): boolean {
    return this.state !== "prg" && this.state !== "rcv";
  }

  private startRegisterRead(bytes: Uint8Array, response: CardReply["response"]): CardReply {
    this.pending = bytes;
    this.pendingAt = 0;
    this.multi = false;
    this.state = "data";
    return { response, data: { dir: "read", blockSize: bytes.length, register: true }, state: this.state };
  }

  /** The next block of a read (the host asks for blockSize bytes); null: out of range, nothing sent. */
  readBlock(blockSize: number): Uint8Array | null {
    if (this.state !== "data") return null;
    if (this.pending) {
      const b = this.pending.subarray(this.pendingAt, this.pendingAt + blockSize);
      this.pendingAt += blockSize;
      if (this.pendingAt >= this.pending.length) {
        this.pending = null;
        this.state = "tran";
      }
      const out = new Uint8Array(blockSize);
      out.set(b);
      return out;
    }
    if (this.addr + blockSize > this.size) {
      this.status |= R1.OUT_OF_RANGE; // reported in the response to the CMD12 that follows
      return null;
    }
    const out = this.read(this.addr, blockSize);
    this.addr += blockSize;
    if (!this.multi) this.state = "tran";
    return out;
  }

  /** One block of a write; false if it falls outside the card (OUT_OF_RANGE, block dropped). */
  writeBlock(data: Uint8Array): boolean {
    if (this.state !== "rcv") return false;
    if (this.addr + data.length > this.size) {
      this.status |= R1.OUT_OF_RANGE;
      return false;
    }
    this.write(this.addr, data);
    this.addr += data.length;
    this.wellWritten++;
    if (!this.multi) this.state = "prg";
    return true;
  }

  /** Programming done: prg -> tran; a card deselected while it programmed (dis) -> stby (spec 4.3.5). */
  programmed(): void {
    if (this.state === "prg") this.state = "tran";
    else if (this.state === "dis") this.state = "stby";
  }

  // ---------------------------------------------------------------------------------------
  // The sparse image

  read(offset: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let done = 0; done < length; ) {
      const at = offset + done;
      const page = this.pages.get(Math.floor(at / PAGE));
      const inPage = at % PAGE;
      const n = Math.min(length - done, PAGE - inPage);
      if (page) out.set(page.subarray(inPage, inPage + n), done);
      done += n;
    }
    return out;
  }

  write(offset: number, data: Uint8Array): void {
    for (let done = 0; done < data.length; ) {
      const at = offset + done;
      const key = Math.floor(at / PAGE);
      const inPage = at % PAGE;
      const n = Math.min(data.length - done, PAGE - inPage);
      const zeros = isZero(data, done, n);
      let page = this.pages.get(key);
      if (!page) {
        // zeros where the image holds nothing read back the same: nothing to keep
        if (zeros) {
          done += n;
          continue;
        }
        this.pages.set(key, (page = new Uint8Array(PAGE)));
      }
      page.set(data.subarray(done, done + n), inPage);
      // a page written back to all zeros is dropped (a card writes 512-byte blocks, not pages)
      if (zeros && isZero(page, 0, PAGE)) this.pages.delete(key);
      done += n;
    }
  }

  private erase(from: number, to: number): void {
    for (let at = from; at < to; ) {
      const key = Math.floor(at / PAGE);
      const inPage = at % PAGE;
      const n = Math.min(to - at, PAGE - inPage);
      const page = this.pages.get(key);
      if (page && !(inPage === 0 && n === PAGE)) page.fill(0, inPage, inPage + n);
      // a page erased whole, or left all zeros, holds nothing the image needs to keep
      if (page && (n === PAGE || isZero(page, 0, PAGE))) this.pages.delete(key);
      at += n;
    }
  }

  /** Bytes the image holds (pages written at least once). */
  get storedBytes(): number {
    return this.pages.size * PAGE;
  }

  snapshot(): { meta: CardSnapshot; data: Uint8Array } {
    const keys: number[] = [];
    for (const [k, p] of [...this.pages].sort((a, b) => a[0] - b[0])) if (p.some((x) => x !== 0)) keys.push(k);
    const data = new Uint8Array(keys.length * PAGE);
    keys.forEach((k, i) => data.set(this.pages.get(k)!, i * PAGE));
    const meta: CardSnapshot = {
      type: this.type,
      size: this.size,
      serial: this.serial,
      state: this.state,
      rca: this.rca,
      status: this.status,
      app: this.app,
      opCondCalls: this.opCondCalls,
      ready: this.ready,
      ifCond: this.ifCond,
      blockLen: this.blockLen,
      busWidth: this.busWidth,
      eraseStart: this.eraseStart,
      eraseEnd: this.eraseEnd,
      addr: this.addr,
      multi: this.multi,
      pending: this.pending ? [...this.pending] : null,
      pendingAt: this.pendingAt,
      pages: keys,
      wellWritten: this.wellWritten,
    };
    return { meta, data };
  }

  /** A card as a saved machine had it; every field is checked first (a damaged or foreign state is refused whole). */
  static restore(meta: CardSnapshot, data: Uint8Array): SdCard {
    checkCardSnapshot(meta);
    if (data.length !== meta.pages.length * PAGE) throw new Error(`the card's image holds ${data.length} bytes, its index ${meta.pages.length} pages`);
    const c = new SdCard({ type: meta.type, size: meta.size, serial: meta.serial });
    Object.assign(c, {
      state: meta.state,
      rca: meta.rca,
      status: meta.status,
      app: meta.app,
      opCondCalls: meta.opCondCalls,
      ready: meta.ready,
      ifCond: meta.ifCond,
      blockLen: meta.blockLen,
      busWidth: meta.busWidth,
      eraseStart: meta.eraseStart,
      eraseEnd: meta.eraseEnd,
      addr: meta.addr,
      multi: meta.multi,
      pending: meta.pending ? Uint8Array.from(meta.pending) : null,
      pendingAt: meta.pendingAt,
      wellWritten: meta.wellWritten ?? 0,
    });
    meta.pages.forEach((k, i) => c.pages.set(k, data.slice(i * PAGE, (i + 1) * PAGE)));
    return c;
  }
}

const isInt = (v: unknown, min: number, max: number): boolean => typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;

/** Throws, naming the field, unless a saved card's every field is in its range. */
export function checkCardSnapshot(m: CardSnapshot): void {
  const bad = (field: string, v: unknown) => {
    throw new Error(`the saved card's ${field} is ${JSON.stringify(v)?.slice(0, 40)}: not a value a card can have`);
  };
  if (!m || typeof m !== "object") bad("record", m);
  if (!CARD_TYPES.includes(m.type)) bad("type", m.type);
  if (typeof m.size !== "number" || cardOptionsError({ type: m.type, size: m.size })) bad("size", m.size);
  if (!isInt(m.serial, 0, 0xffffffff)) bad("serial", m.serial);
  if (!(STATES as readonly string[]).includes(m.state) && m.state !== "ina") bad("state", m.state);
  if (!isInt(m.rca, 0, 0xffff)) bad("rca", m.rca);
  if (!isInt(m.status, 0, 0xffffffff)) bad("status", m.status);
  for (const k of ["app", "ready", "ifCond", "multi"] as const) if (typeof m[k] !== "boolean") bad(k, m[k]);
  if (!isInt(m.opCondCalls, 0, 2 ** 31)) bad("opCondCalls", m.opCondCalls);
  if (!isInt(m.blockLen, 1, BLOCK)) bad("blockLen", m.blockLen);
  if (m.busWidth !== 1 && m.busWidth !== 4) bad("busWidth", m.busWidth);
  if (!isInt(m.eraseStart, -1, 0xffffffff)) bad("eraseStart", m.eraseStart);
  if (!isInt(m.eraseEnd, -1, 0xffffffff)) bad("eraseEnd", m.eraseEnd);
  if (!isInt(m.addr, 0, m.size)) bad("addr", m.addr);
  if (m.pending !== null && (!Array.isArray(m.pending) || m.pending.length > 64 || !m.pending.every((b) => isInt(b, 0, 255)))) bad("pending", m.pending);
  if (!isInt(m.pendingAt, 0, m.pending?.length ?? 64)) bad("pendingAt", m.pendingAt); // (kept after a register was sent)
  if (m.wellWritten !== undefined && !isInt(m.wellWritten, 0, 0xffffffff)) bad("wellWritten", m.wellWritten);
  const last = m.size / PAGE - 1;
  if (!Array.isArray(m.pages) || !m.pages.every((k, i) => isInt(k, 0, last) && (i === 0 || k > m.pages[i - 1]))) bad("page index", "not ascending pages within the card");
}

function isZero(data: Uint8Array, from: number, n: number): boolean {
  for (let i = from; i < from + n; i++) if (data[i] !== 0) return false;
  return true;
}
