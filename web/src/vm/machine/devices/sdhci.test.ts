// The SD host and card driven the way Linux's sdhci.c drives them (16-bit registers written as
// two bytes, as v86 splits them), without a machine: register behaviour, the card's states, the
// data path and the saved state. The real kernel against the device: e2e/sd.e2e.ts.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SdhciDevice, REG, INT, ERR } from "./sdhci";
import { SdCard, csdV1Geometry, parseSize, cardOptionsError, R1, crc7, type CardType, type CardSnapshot } from "./sd-card";
import { parseCardSpec } from "./slot-channel";
import { SDHC_MIN_BYTES } from "../../../shared/sd-card-spec";
import { joinMachineState, splitMachineState } from "./machine-state";

const MiB = 2 ** 20;

/** A host driver as sdhci.c behaves: write16 as two byte writes, readl for status. */
class Driver {
  constructor(readonly d: SdhciDevice) {
    d.timed = false;
    d.write8(REG.SOFTWARE_RESET, 1);
    d.write8(REG.POWER_CONTROL, 0x0f); // 3.3 V, on
    this.w16(REG.CLOCK_CONTROL, (64 << 8) | 1); // 50 MHz / 128, internal clock
    if (!(d.read32(REG.CLOCK_CONTROL) & 2)) throw new Error("clock not stable");
    this.w16(REG.CLOCK_CONTROL, (64 << 8) | 5);
    d.write32(REG.INT_ENABLE, 0xffff_00ff | INT.CARD_INSERTION | INT.CARD_REMOVAL);
  }
  w16(off: number, v: number) {
    this.d.write8(off, v & 0xff);
    this.d.write8(off + 1, v >> 8);
  }
  status() {
    return this.d.read32(REG.INT_STATUS);
  }
  clear() {
    this.d.write32(REG.INT_STATUS, 0xffffffff);
  }
  /** send a command; returns RESPONSE[0], or null on a command timeout */
  cmd(index: number, arg: number, resp: "none" | "r1" | "r1b" | "r2" | "r3" = "r1", data?: { read: boolean; size: number; blocks?: number }) {
    this.clear();
    this.d.write32(REG.ARGUMENT, arg);
    let flags = { none: 0, r2: 1 | 8, r1: 2 | 8 | 16, r1b: 3 | 8 | 16, r3: 2 }[resp];
    if (data) {
      this.w16(REG.BLOCK_SIZE, data.size);
      this.w16(REG.BLOCK_COUNT, data.blocks ?? 1);
      this.w16(REG.TRANSFER_MODE, (data.read ? 0x10 : 0) | ((data.blocks ?? 1) > 1 ? 0x22 : 0));
      flags |= 0x20;
    } else this.w16(REG.TRANSFER_MODE, 0);
    this.w16(REG.COMMAND, (index << 8) | flags);
    const s = this.status();
    if (s & (ERR.CMD_TIMEOUT << 16)) return null;
    expect(s & INT.CMD_COMPLETE).toBe(INT.CMD_COMPLETE);
    return this.d.read32(REG.RESPONSE);
  }
  r2(): Uint8Array {
    // as sdhci_read_rsp_136: RESPONSE words 3..0, each shifted left 8 with the next's top byte
    const w = [3, 2, 1, 0].map((i) => this.d.read32(REG.RESPONSE + 4 * i));
    const out = new Uint8Array(16);
    for (let i = 0; i < 4; i++) {
      const v = ((w[i] << 8) | (i < 3 ? w[i + 1] >>> 24 : 0)) >>> 0;
      new DataView(out.buffer).setUint32(4 * i, v);
    }
    return out;
  }
  readData(size: number, blocks = 1): Uint8Array {
    const out = new Uint8Array(size * blocks);
    let at = 0;
    for (let b = 0; b < blocks; b++) {
      expect(this.d.read32(REG.PRESENT_STATE) & (1 << 11)).toBeTruthy();
      for (let i = 0; i < size; i += 4) {
        const v = this.d.read32(REG.BUFFER);
        for (let k = 0; k < 4 && i + k < size; k++) out[at++] = (v >>> (8 * k)) & 0xff;
      }
    }
    expect(this.status() & INT.TRANSFER_COMPLETE).toBeTruthy();
    return out;
  }
  writeData(data: Uint8Array, size: number) {
    for (let b = 0; b < data.length / size; b++) {
      expect(this.d.read32(REG.PRESENT_STATE) & (1 << 10)).toBeTruthy();
      for (let i = 0; i < size; i += 4) this.d.write32(REG.BUFFER, new DataView(data.buffer, data.byteOffset + b * size + i, 4).getUint32(0, true));
    }
    expect(this.status() & INT.TRANSFER_COMPLETE).toBeTruthy();
  }
  acmd(index: number, arg: number, rca: number, resp: "r1" | "r3" = "r1", data?: { read: boolean; size: number }) {
    const r55 = this.cmd(55, rca << 16);
    expect(r55! & R1.APP_CMD).toBeTruthy();
    return this.cmd(index, arg, resp, data);
  }
  /** what mmc_rescan and mmc_attach_sd send, in their order; returns the RCA */
  init(): { rca: number; ocr: number; cmds: string[] } {
    const cmds: string[] = [];
    const log = (s: string) => cmds.push(s);
    log(`CMD52 ${this.cmd(52, 0x88000c08, "r1") === null ? "timeout" : "answered"}`);
    log(`CMD52 ${this.cmd(52, 0x80000c08, "r1") === null ? "timeout" : "answered"}`);
    this.cmd(0, 0, "none");
    log("CMD0");
    const r7 = this.cmd(8, 0x1aa, "r1");
    log(`CMD8 ${r7 === null ? "timeout" : r7.toString(16)}`);
    log(`CMD5 ${this.cmd(5, 0, "r3") === null ? "timeout" : "answered"}`);
    this.acmd(41, 0, 0, "r3");
    this.cmd(0, 0, "none");
    const v2 = this.cmd(8, 0x1aa, "r1") !== null;
    let ocr = 0;
    for (let i = 0; i < 10; i++) {
      ocr = this.acmd(41, 0x00300000 | (v2 ? 1 << 30 : 0), 0, "r3")!;
      if (ocr >>> 31) break;
    }
    expect(ocr >>> 31).toBe(1);
    this.cmd(2, 0, "r2");
    const rca = this.cmd(3, 0, "r1")! >>> 16;
    this.cmd(9, rca << 16, "r2");
    this.cmd(7, rca << 16, "r1b");
    expect(this.status() & INT.TRANSFER_COMPLETE).toBeTruthy(); // busy end
    return { rca, ocr, cmds };
  }
}

/** 64 MiB, or for SDHC 4 GiB (its smallest card holds more than 2 GiB; the image is sparse) */
const sizeFor = (type: CardType) => (type === "sdhc" ? 4096 * MiB : 64 * MiB);
const card = (type: CardType, size = sizeFor(type)) => new SdCard({ type, size });

describe("SD card registers", () => {
  it("CSD version 2 gives the capacity Linux computes from C_SIZE", () => {
    const c = card("sdhc", 4096 * MiB).csd();
    expect(c[0] >> 6).toBe(1); // CSD_STRUCTURE
    // C_SIZE: bits [69:48] -> bytes 7..9 of the 16
    const cSize = ((c[7] & 0x3f) << 16) | (c[8] << 8) | c[9];
    expect((cSize + 1) * 1024).toBe(8388608); // sectors, as mmc_decode_csd: (1 + C_SIZE) << 10
    // the smallest SDHC card: C_SIZE 0x1010
    const min = card("sdhc", SDHC_MIN_BYTES).csd();
    expect(((min[7] & 0x3f) << 16) | (min[8] << 8) | min[9]).toBe(0x1010);
  });
  it("CSD version 1 for every SDSC size a multiple of 512 KiB up to 2 GiB", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 4096 }), fc.nat(), (halfMiB, serial) => {
        const size = halfMiB * 512 * 1024;
        const g = csdV1Geometry(size, serial);
        expect((g.cSize + 1) * 2 ** (g.cSizeMult + 2 + g.readBlLen)).toBe(size);
        expect(g.cSize).toBeLessThan(4096);
      }),
    );
  });
  it("CSD version 1: the serial picks among the ways to write a size, so the size alone does not tell them", () => {
    // 64 MiB: 18 ways, 512-, 1024- and 2048-byte blocks among them (a learner reads them from the bits)
    const ways = new Set(Array.from({ length: 18 }, (_, serial) => JSON.stringify(csdV1Geometry(64 * MiB, serial))));
    expect(ways.size).toBe(18);
    expect(new Set([...ways].map((w) => JSON.parse(w).readBlLen))).toEqual(new Set([9, 10, 11]));
    // one card keeps its own: the CSD is the same at every read
    const c = new SdCard({ type: "sdsc", size: 64 * MiB, serial: 7 });
    expect([...c.csd()]).toEqual([...c.csd()]);
  });
  it("CID and CSD end with their CRC7", () => {
    const c = card("sdsc");
    for (const r of [c.cid(), c.csd()]) expect(r[15]).toBe((crc7(r.subarray(0, 15)) << 1) | 1);
    // the specification's example: CMD0's bytes 40 00 00 00 00 give CRC 0x4A
    expect(crc7(Uint8Array.of(0x40, 0, 0, 0, 0))).toBe(0x4a);
  });
  it("parses sizes and refuses cards it cannot make", () => {
    expect(parseSize("64M")).toBe(64 * MiB);
    expect(parseSize("1G")).toBe(2 ** 30);
    expect(parseSize("sixty")).toBeNull();
    expect(cardOptionsError({ type: "sdhc", size: 64 * MiB + 1 })).toMatch(/512 KiB/);
    expect(cardOptionsError({ type: "sdsc", size: 4 * 2 ** 30 })).toMatch(/SDSC/);
    expect(cardOptionsError({ type: "mmc" as CardType, size: 64 * MiB })).toMatch(/no card type/);
  });
});

describe("the card's sparse image", () => {
  it("keeps only pages with data: a page of zeros written over data drops it, and reads back as zeros", () => {
    const c = card("sdhc");
    const data = new Uint8Array(3 * 4096).fill(7);
    c.write(8192, data);
    expect(c.storedBytes).toBe(3 * 4096);
    c.write(12288, new Uint8Array(4096)); // the middle page, zeros
    expect(c.storedBytes).toBe(2 * 4096);
    expect(c.read(12288, 4096).every((b) => b === 0)).toBe(true);
    expect(c.read(8192, 4096).every((b) => b === 7) && c.read(16384, 4096).every((b) => b === 7)).toBe(true);
    c.write(1 << 20, new Uint8Array(1 << 20)); // a MiB of zeros where nothing was: nothing kept
    expect(c.storedBytes).toBe(2 * 4096);
    c.write(8192 + 100, new Uint8Array(10)); // part of a page: kept, with its zeros in place
    expect(c.read(8192 + 98, 14)).toEqual(Uint8Array.from([7, 7, ...new Array(10).fill(0), 7, 7]));
  });
  it("does the same for the 512-byte blocks a write command brings", () => {
    const c = card("sdhc");
    const block = (fill: number) => new Uint8Array(512).fill(fill);
    for (let b = 0; b < 16; b++) c.write(b * 512, block(0)); // 8 KiB of zeros, block by block
    expect(c.storedBytes).toBe(0);
    c.write(4096 + 7 * 512, block(5)); // the second page's last block
    expect(c.storedBytes).toBe(4096);
    for (let b = 0; b < 7; b++) c.write(4096 + b * 512, block(0)); // its first 7 blocks: the 5s stay
    expect(c.storedBytes).toBe(4096);
    expect(c.read(4096 + 7 * 512, 512).every((x) => x === 5)).toBe(true);
    c.write(4096 + 7 * 512, block(0)); // now all of it is zeros
    expect(c.storedBytes).toBe(0);
    expect(c.read(0, 8192).every((x) => x === 0)).toBe(true);
  });
});

describe("the host and card, driven as sdhci.c does", () => {
  for (const type of ["sdhc", "sdsc", "v1"] as const) {
    it(`initialises a ${type} card in the specification's order`, () => {
      const d = new SdhciDevice(card(type));
      const h = new Driver(d);
      const { rca, ocr, cmds } = h.init();
      expect(cmds).toEqual(["CMD52 timeout", "CMD52 timeout", "CMD0", type === "v1" ? "CMD8 timeout" : "CMD8 1aa", "CMD5 timeout"]);
      expect(rca).toBeGreaterThan(0);
      expect(Boolean(ocr & (1 << 30))).toBe(type === "sdhc"); // CCS: block addressing
      expect(d.card!.state).toBe("tran");
      const scr = h.acmd(51, 0, rca, "r1", { read: true, size: 8 });
      expect(scr).not.toBeNull();
      const bytes = h.readData(8);
      expect(bytes[0] & 0xf).toBe(type === "v1" ? 0 : 2); // SD_SPEC
      expect(d.card!.state).toBe("tran");
    });
  }

  it("writes and reads blocks, single and multiple, in the card's addressing", () => {
    for (const type of ["sdhc", "sdsc"] as const) {
      const d = new SdhciDevice(card(type));
      const h = new Driver(d);
      const { rca } = h.init();
      const unit = type === "sdhc" ? 1 : 512;
      const data = Uint8Array.from({ length: 4 * 512 }, (_, i) => (i * 7 + 3) & 0xff);
      expect(h.cmd(25, 10 * unit, "r1", { read: false, size: 512, blocks: 4 })).not.toBeNull();
      h.writeData(data, 512);
      expect(d.card!.state).toBe("rcv"); // a multi-block write ends with CMD12
      h.cmd(12, 0, "r1b");
      expect(d.card!.state).toBe("tran");
      const st = h.cmd(13, rca << 16)!;
      expect((st >> 9) & 0xf).toBe(4); // tran
      expect(h.cmd(18, 10 * unit, "r1", { read: true, size: 512, blocks: 4 })).not.toBeNull();
      expect(h.readData(512, 4)).toEqual(data);
      h.cmd(12, 0, "r1b");
      expect(h.cmd(17, 13 * unit, "r1", { read: true, size: 512 })).not.toBeNull();
      expect(h.readData(512)).toEqual(data.subarray(3 * 512));
    }
  });

  it("reports OUT_OF_RANGE and sends no data past the end", () => {
    const d = new SdhciDevice(card("sdhc"));
    const h = new Driver(d);
    h.init();
    const r = h.cmd(17, (4096 * MiB) / 512, "r1", { read: true, size: 512 })!; // the block after the last
    expect(r & R1.OUT_OF_RANGE).toBeTruthy();
    expect(h.status() & (ERR.DATA_TIMEOUT << 16)).toBeTruthy();
    expect(d.card!.state).toBe("tran");
  });

  it("an illegal command gets no answer and sets ILLEGAL_COMMAND in the next response", () => {
    const d = new SdhciDevice(card("sdhc"));
    const h = new Driver(d);
    const { rca } = h.init();
    expect(h.cmd(2, 0, "r2")).toBeNull(); // ALL_SEND_CID in tran
    expect(h.cmd(13, rca << 16)! & R1.ILLEGAL_COMMAND).toBeTruthy();
    expect(h.cmd(13, rca << 16)! & R1.ILLEGAL_COMMAND).toBe(0); // cleared once reported
  });

  it("card insertion and removal raise their status bits, and the slot says so", () => {
    const d = new SdhciDevice(null);
    const h = new Driver(d);
    expect(d.read32(REG.PRESENT_STATE) & (1 << 16)).toBe(0);
    d.insert(card("sdhc"));
    expect(h.status() & INT.CARD_INSERTION).toBeTruthy();
    expect(d.read32(REG.PRESENT_STATE) & (1 << 16)).toBeTruthy();
    h.clear();
    d.eject();
    expect(h.status() & INT.CARD_REMOVAL).toBeTruthy();
    expect(h.cmd(13, 0x45670000)).toBeNull();
  });

  it("keeps the data and the card's state through a saved machine", () => {
    const d = new SdhciDevice(card("sdhc"));
    const h = new Driver(d);
    const { rca } = h.init();
    const block = Uint8Array.from({ length: 512 }, (_, i) => i & 0xff);
    h.cmd(24, 77, "r1", { read: false, size: 512 });
    h.writeData(block, 512);
    const { meta, data } = d.snapshot();
    const joined = joinMachineState(new Uint8Array([1, 2, 3]).buffer, { sdhci: meta, image: data });
    const { v86, devices } = splitMachineState(joined);
    expect([...new Uint8Array(v86)]).toEqual([1, 2, 3]);
    const e = new SdhciDevice(null);
    e.restore(devices!.sdhci, devices!.image);
    const h2 = new Driver(e);
    void h2;
    // Driver() reset the controller, which powers the card off; the data stays
    expect(e.card!.read(77 * 512, 512)).toEqual(block);
    expect(e.card!.rca).toBe(0);
    // and without the reset, the state itself
    const f = new SdhciDevice(null);
    f.timed = false;
    f.restore(devices!.sdhci, devices!.image);
    expect(f.card!.state).toBe("tran");
    expect(f.card!.rca).toBe(rca);
    expect(() => f.restore({ ...devices!.sdhci, version: 99 }, devices!.image)).toThrow(/version 99 of the SD host/);
    expect(splitMachineState(new Uint8Array([9, 9]).buffer).devices).toBeNull();
  });

  it("a machine saved in the middle of a block, read or written, carries on with the same bytes", () => {
    const d = new SdhciDevice(card("sdhc"));
    const h = new Driver(d);
    h.init();
    const data = Uint8Array.from({ length: 2 * 512 }, (_, i) => (i * 13 + 5) & 0xff);
    const word = (at: number) => new DataView(data.buffer, at, 4).getUint32(0, true);
    /** the saved state as it travels (JSON), restored into a new controller */
    const moved = (from: SdhciDevice) => {
      const { meta, data: image } = from.snapshot();
      const e = new SdhciDevice(null);
      e.timed = false;
      e.restore(JSON.parse(JSON.stringify(meta)), image);
      return e;
    };
    // a write: 3 words of the first block in the buffer when the machine is saved
    h.cmd(25, 40, "r1", { read: false, size: 512, blocks: 2 });
    for (let i = 0; i < 12; i += 4) d.write32(REG.BUFFER, word(i));
    const w = moved(d);
    for (let i = 12; i < data.length; i += 4) w.write32(REG.BUFFER, word(i));
    expect(w.read32(REG.INT_STATUS) & INT.TRANSFER_COMPLETE).toBeTruthy();
    expect(w.card!.read(40 * 512, data.length)).toEqual(data);
    // a read: 5 words of the second block taken when the machine is saved
    const r = new Driver(w);
    r.init();
    r.cmd(18, 40, "r1", { read: true, size: 512, blocks: 2 });
    const got = new Uint8Array(data.length);
    const take = (dev: SdhciDevice, from: number, to: number) => {
      for (let i = from; i < to; i += 4) new DataView(got.buffer).setUint32(i, dev.read32(REG.BUFFER), true);
    };
    take(w, 0, 512 + 20);
    const x = moved(w);
    take(x, 512 + 20, data.length);
    expect(got).toEqual(data);
    expect(x.read32(REG.INT_STATUS) & INT.TRANSFER_COMPLETE).toBeTruthy();
  });
});

describe("card sizes, one rule for the emulated card and the model's CLI", () => {
  it("the specification's limits everywhere, the page's memory limit on the emulated card only", async () => {
    const { cardSizeError } = await import("../../../shared/sd-card-spec");
    expect(cardSizeError("sdhc", 8 * 2 ** 30)).toBeNull(); // the model may simulate a big card
    expect(cardOptionsError({ type: "sdhc", size: 8 * 2 ** 30 })).toMatch(/at most 4 GiB/);
    for (const size of [2 ** 19, 64 * MiB + 4096]) expect(cardSizeError("sdhc", size)).toBe(cardOptionsError({ type: "sdhc", size }));
    expect(cardSizeError("v1", 4 * 2 ** 30)).toMatch(/at most 2 GiB/);
    // SDHC is more than 2 GiB: from C_SIZE 0x1010, 2056.5 MiB
    expect(SDHC_MIN_BYTES).toBe(2056.5 * MiB);
    expect(cardSizeError("sdhc", SDHC_MIN_BYTES)).toBeNull();
    for (const size of [2048 * MiB, 64 * MiB]) expect(cardOptionsError({ type: "sdhc", size })).toMatch(/^an SDHC card holds more than 2 GiB .*use an SDSC card/);
    // between the two, no card: neither error sends the learner to the other type
    expect(cardOptionsError({ type: "sdhc", size: SDHC_MIN_BYTES - 512 * 1024 })).toMatch(/^no SD card holds more than 2 GiB and less than 2056\.5 MiB/);
    expect(cardOptionsError({ type: "sdsc", size: SDHC_MIN_BYTES - 512 * 1024 })).toMatch(/^no SD card holds/);
  });

  it("a size with no type named is SDSC up to 2 GiB and SDHC above it", () => {
    expect(parseCardSpec("")).toEqual({ type: "sdsc", size: 64 * MiB });
    expect(parseCardSpec("2G")).toEqual({ type: "sdsc", size: 2048 * MiB });
    expect(parseCardSpec("4G")).toEqual({ type: "sdhc", size: 4096 * MiB });
    expect(parseCardSpec("2056M")).toEqual({ error: expect.stringMatching(/^no SD card holds more than 2 GiB and less than 2056\.5 MiB/) });
    expect(parseCardSpec("1G,sdhc")).toEqual({ error: expect.stringMatching(/^an SDHC card holds more than 2 GiB/) });
    expect(parseCardSpec("sdhc,3G")).toEqual({ type: "sdhc", size: 3072 * MiB });
  });
});

describe("the card's states and registers, as the specification has them", () => {
  const ready = (type: CardType = "sdhc", size = sizeFor(type)) => {
    const d = new SdhciDevice(card(type, size));
    const h = new Driver(d);
    return { d, h, rca: h.init().rca };
  };
  const state = (h: Driver, rca: number) => ["idle", "ready", "ident", "stby", "tran", "data", "rcv", "prg", "dis"][(h.cmd(13, rca << 16)! >> 9) & 0xf];

  it("CMD0 puts the RCA, the status and the bus width back to their reset values", () => {
    const { d, h, rca } = ready();
    expect(h.acmd(6, 2, rca)).not.toBeNull();
    expect(d.card!.busWidth).toBe(4);
    expect(h.cmd(2, 0, "r2")).toBeNull(); // illegal in tran: ILLEGAL_COMMAND kept for the next response
    h.cmd(0, 0, "none");
    expect([d.card!.state, d.card!.rca, d.card!.busWidth]).toEqual(["idle", 0, 1]);
    // the status went with it: the next response (CMD8's R7 aside, CMD55's R1) carries no ILLEGAL_COMMAND
    expect(h.cmd(55, 0)! & R1.ILLEGAL_COMMAND).toBe(0);
  });

  it("CMD15 makes an addressed card inactive: it answers nothing, CMD0 included, until a power cycle", () => {
    const { d, h, rca } = ready();
    h.cmd(7, 0, "none"); // deselect: stby
    expect(h.cmd(15, (rca + 1) << 16, "none")).not.toBeUndefined(); // another RCA: nothing happens
    expect(d.card!.state).toBe("stby");
    h.cmd(15, rca << 16, "none");
    expect(d.card!.state).toBe("ina");
    expect(h.cmd(13, rca << 16)).toBeNull();
    h.cmd(0, 0, "none");
    expect(h.cmd(8, 0x1aa)).toBeNull();
    d.write8(REG.POWER_CONTROL, 0); // power off, on
    d.write8(REG.POWER_CONTROL, 0x0f);
    expect(d.card!.state).toBe("idle");
    expect(h.cmd(8, 0x1aa)).toBe(0x1aa);
  });

  it("CMD6 answers 0xF for a function the card does not have, and 0 where the host asks for none", () => {
    const { h, rca } = ready();
    void rca;
    // Linux's high-speed switch: group 1, function 1 (mmc_sd_switch, status[16] & 0xF)
    h.cmd(6, 0x80fffff1, "r1", { read: true, size: 64 });
    const set = h.readData(64);
    expect(set[16] & 0xf).toBe(0xf);
    expect(set[12]).toBe(0x80); // group 1 supports functions 15 and 0 only (Linux reads status[13])
    expect(set[13]).toBe(0x01);
    h.cmd(6, 0x00ffffff, "r1", { read: true, size: 64 });
    expect(h.readData(64)[16] & 0xf).toBe(0);
  });

  it("ACMD22 counts the blocks the last write wrote", () => {
    const { h, rca } = ready();
    h.cmd(25, 100, "r1", { read: false, size: 512, blocks: 3 });
    h.writeData(new Uint8Array(3 * 512).fill(7), 512);
    h.cmd(12, 0, "r1b");
    h.acmd(22, 0, rca, "r1", { read: true, size: 4 });
    expect([...h.readData(4)]).toEqual([0, 0, 0, 3]);
  });

  it("erases blocks to zeros, keeps no page left all zeros, and keeps the rest", () => {
    const { d, h } = ready();
    const data = Uint8Array.from({ length: 16 * 512 }, (_, i) => (i % 251) + 1);
    h.cmd(25, 8, "r1", { read: false, size: 512, blocks: 16 }); // blocks 8..23: pages 1, 2
    h.writeData(data, 512);
    h.cmd(12, 0, "r1b");
    expect(d.card!.storedBytes).toBe(2 * 4096);
    h.cmd(32, 8);
    h.cmd(33, 19); // blocks 8..19: page 1 whole, page 2's first half
    h.cmd(38, 0, "r1b");
    expect(h.status() & INT.TRANSFER_COMPLETE).toBeTruthy();
    expect(d.card!.read(8 * 512, 12 * 512).every((b) => b === 0)).toBe(true);
    expect(d.card!.read(20 * 512, 4 * 512)).toEqual(data.subarray(12 * 512));
    expect(d.card!.storedBytes).toBe(4096);
    h.cmd(32, 20);
    h.cmd(33, 23);
    h.cmd(38, 0, "r1b");
    expect(d.card!.storedBytes).toBe(0); // page 2 now all zeros: dropped
    expect(h.cmd(33, 1)! & R1.ERASE_SEQ_ERROR).toBeTruthy(); // END without START
  });

  it("CMD12 ends the host's data phase as well as the card's", () => {
    const { d, h, rca } = ready();
    // an open-ended read (no block count): one block, then the stop
    h.clear();
    d.write32(REG.ARGUMENT, 0);
    h.w16(REG.BLOCK_SIZE, 512);
    h.w16(REG.TRANSFER_MODE, 0x10 | 0x20); // read, multi, no block count
    h.w16(REG.COMMAND, (18 << 8) | 2 | 8 | 16 | 0x20);
    for (let i = 0; i < 128; i++) d.read32(REG.BUFFER);
    expect(d.read32(REG.PRESENT_STATE) & (1 << 9)).toBeTruthy(); // READ_ACTIVE: the next block
    h.cmd(12, 0, "r1");
    expect(d.read32(REG.PRESENT_STATE) & ((1 << 9) | (1 << 1))).toBe(0); // no READ_ACTIVE, no DAT_INHIBIT
    expect(state(h, rca)).toBe("tran");
  });

  it("a block count of 0 moves no block; a BLOCK_SIZE that is not the card's is an error", () => {
    const { d, h, rca } = ready();
    h.clear();
    d.write32(REG.ARGUMENT, 0);
    h.w16(REG.BLOCK_SIZE, 512);
    h.w16(REG.BLOCK_COUNT, 0);
    h.w16(REG.TRANSFER_MODE, 0x10 | 0x20 | 0x02);
    h.w16(REG.COMMAND, (18 << 8) | 2 | 8 | 16 | 0x20);
    expect(h.status() & INT.TRANSFER_COMPLETE).toBeTruthy();
    expect(h.status() & INT.BUFFER_READ_READY).toBe(0);
    expect(d.card!.state).toBe("data"); // until the host's CMD12
    h.cmd(12, 0, "r1");
    expect(h.cmd(17, 0, "r1", { read: true, size: 256 })).not.toBeNull();
    expect(h.status() & (ERR.DATA_END_BIT << 16)).toBeTruthy();
    expect(h.status() & INT.BUFFER_READ_READY).toBe(0);
    void rca;
  });

  it("a card pulled out in the middle of a write: the transfer fails, the slot's power and clock go off, the next card starts afresh", () => {
    const { d, h } = ready();
    h.cmd(25, 0, "r1", { read: false, size: 512, blocks: 4 });
    for (let i = 0; i < 64; i++) d.write32(REG.BUFFER, 0x01020304);
    const out = d.eject()!;
    expect(h.status() & (ERR.DATA_TIMEOUT << 16)).toBeTruthy();
    expect(h.status() & INT.CARD_REMOVAL).toBeTruthy();
    expect(d.read32(REG.POWER_CONTROL) & 1).toBe(0);
    expect(d.read32(REG.CLOCK_CONTROL) & 4).toBe(0);
    expect(d.read32(REG.PRESENT_STATE) & ((1 << 16) | (1 << 1) | (1 << 8))).toBe(0); // no card, no DAT_INHIBIT, no WRITE_ACTIVE
    expect(out.state).toBe("idle");
    d.insert(out);
    const again = new Driver(d); // the driver powers the slot and clocks it again
    expect(again.init().rca).toBeGreaterThan(0);
  });

  it("each card has its own CID serial, under no maker's ID; CSD v1 says READ_BL_PARTIAL; no class 7 advertised", () => {
    const a = card("sdhc").cid(), b = card("sdhc").cid();
    expect(a[0]).toBe(0x00);
    expect(a.subarray(9, 13)).not.toEqual(b.subarray(9, 13));
    const v1 = card("sdsc").csd();
    expect((v1[6] >> 7) & 1).toBe(1); // bit 79
    for (const t of ["sdhc", "sdsc", "v1"] as const) {
      const c = card(t).csd();
      const ccc = (c[4] << 4) | (c[5] >> 4); // bits [95:84]
      expect(ccc & (1 << 7)).toBe(0);
      expect(ccc & 0x35).toBe(0x35); // 0, 2, 4, 5
    }
  });
});

describe("the card's times, each request its own (shared/sd-timing.ts)", () => {
  /** a device on a clock the test moves */
  const timed = () => {
    const d = new SdhciDevice(card("sdhc"));
    const h = new Driver(d);
    const { rca } = h.init();
    h.w16(REG.CLOCK_CONTROL, (1 << 8) | 5); // 25 MHz
    d.write8(REG.HOST_CONTROL, 2); // 4 bits
    h.acmd(6, 2, rca);
    let now = 1000;
    d.now = () => now;
    d.timed = true;
    d.externalClock();
    const step = (ms: number) => {
      now += ms;
      d.tick();
    };
    const send = (index: number, arg: number, flags: number, tm = 0, blocks = 1) => {
      h.clear();
      d.write32(REG.ARGUMENT, arg);
      h.w16(REG.BLOCK_SIZE, 512);
      h.w16(REG.BLOCK_COUNT, blocks);
      h.w16(REG.TRANSFER_MODE, tm);
      h.w16(REG.COMMAND, (index << 8) | flags);
    };
    /** step the clock by `grain` ms until TRANSFER_COMPLETE: the ms it took */
    const untilComplete = (grain: number) => {
      let waited = 0;
      while (!(h.status() & INT.TRANSFER_COMPLETE)) {
        step(grain);
        waited += grain;
      }
      return waited;
    };
    return { d, h, rca, step, send, untilComplete, t: d.times(), at: () => now };
  };
  const R1F = 2 | 8 | 16, DATA = 0x20;

  it("a command's 160 clocks are charged: too short to wait, they are added to the request's next wait", () => {
    const { d, h, rca, step, send, t } = timed();
    expect(t.command).toBeCloseTo(160 / 25e6 * 1000, 12);
    send(17, 0, R1F | DATA, 0x10);
    expect(h.status() & INT.CMD_COMPLETE).toBeTruthy(); // the response at once
    step(t.access + t.block(512) - 1e-6);
    expect(h.status() & INT.BUFFER_READ_READY).toBe(0); // its 6.4 us still to come
    step(t.command + 2e-6);
    expect(h.status() & INT.BUFFER_READ_READY).toBeTruthy();
    for (let i = 0; i < 128; i++) d.read32(REG.BUFFER);
    // a request of its own (CMD13) owes nothing from the read before it
    send(13, rca << 16, R1F);
    expect(h.status() & INT.CMD_COMPLETE).toBeTruthy();
  });

  it("an event that runs late (the loop's pass) has its lateness taken off the request's next waits, never another's", () => {
    const { d, h, step, send, t } = timed();
    send(18, 0, R1F | DATA, 0x10 | 0x20 | 0x02, 2);
    step(t.access + t.block(512) + t.command + 0.2); // the first block's event runs 0.2 ms late
    expect(h.status() & INT.BUFFER_READ_READY).toBeTruthy();
    h.clear();
    for (let i = 0; i < 128; i++) d.read32(REG.BUFFER);
    // the second block's 42 us wait is owed to the lateness: ready at once
    expect(h.status() & INT.BUFFER_READ_READY).toBeTruthy();
    for (let i = 0; i < 128; i++) d.read32(REG.BUFFER);
    expect(h.status() & INT.TRANSFER_COMPLETE).toBeTruthy();
    send(12, 0, R1F); // the stop: the card back in tran
    // the next read pays its own access time in full
    send(17, 5, R1F | DATA, 0x10);
    step(t.access);
    expect(h.status() & INT.BUFFER_READ_READY).toBe(0);
    step(t.block(512) + t.command + 1e-6);
    expect(h.status() & INT.BUFFER_READ_READY).toBeTruthy();
  });

  it("each data request's lateness is logged: what its events ran late, less what its later waits paid back", () => {
    const { d, h, step, send, t } = timed();
    d.lateness.take();
    send(18, 0, R1F | DATA, 0x10 | 0x20 | 0x02, 2);
    step(t.access + t.block(512) + t.command + 0.2); // the first block's event runs 0.2 ms late
    h.clear();
    for (let i = 0; i < 128; i++) d.read32(REG.BUFFER); // the second block's wait paid back from it
    for (let i = 0; i < 128; i++) d.read32(REG.BUFFER);
    send(12, 0, R1F); // no data: its own request logs nothing
    send(17, 5, R1F | DATA, 0x10); // on time
    step(t.command + t.access + t.block(512));
    expect(h.status() & INT.BUFFER_READ_READY).toBeTruthy();
    const late = d.lateness.take();
    expect(late).toHaveLength(2);
    expect(late[0]).toBeCloseTo(0.2 - t.block(512), 9);
    expect(late[1]).toBeCloseTo(0, 9);
    expect(d.lateness.take()).toEqual([]); // taken: the log starts again
  });

  it("an idle guest sleeps through a long read's blocks, and the read still takes the model's time", () => {
    for (const blocks of [2, 64, 1024]) {
      const { d, h, step, send, t, at } = timed();
      d.lateness.take();
      const start = at();
      send(18, 0, R1F | DATA, 0x10 | 0x20 | 0x02, blocks);
      let sleeps = 0;
      // a guest that copies each block as soon as it is there, and otherwise sleeps as long as
      // tick() says (0: it looks again at once, here 0.01 ms later)
      while (!(h.status() & INT.TRANSFER_COMPLETE)) {
        if (h.status() & INT.BUFFER_READ_READY) {
          h.clear();
          for (let i = 0; i < 128; i++) d.read32(REG.BUFFER);
          continue;
        }
        const wait = d.tick();
        if (h.status() & (INT.BUFFER_READ_READY | INT.TRANSFER_COMPLETE)) continue;
        if (wait >= 1) sleeps++;
        step(wait > 0 ? Math.min(wait, 1) : 0.01);
      }
      const model = t.command + t.access + blocks * t.block(512);
      // (a last wait under 0.05 ms is not waited, as before: after())
      expect(at() - start).toBeGreaterThan(model - 0.05);
      expect(at() - start).toBeLessThan(model + 0.011);
      // 1 ms a sleep, until 4 ms of the read's waits are left: 2 blocks never sleep
      if (blocks === 2) expect(sleeps).toBe(0);
      else expect(sleeps).toBeGreaterThanOrEqual(Math.floor((model - 4) / 1.05));
      expect(d.lateness.take()[0]).toBeLessThan(0.011);
    }
  });

  it("every read pays the card's access time once, and its blocks the bus: two reads in a row, each its own", () => {
    const { d, h, step, send, t } = timed();
    for (let k = 0; k < 2; k++) {
      send(17, k, R1F | DATA, 0x10);
      expect(h.status() & INT.CMD_COMPLETE).toBeTruthy();
      step(t.command + t.access + t.block(512) - 1e-6);
      expect(h.status() & INT.BUFFER_READ_READY).toBe(0);
      step(2e-6);
      expect(h.status() & INT.BUFFER_READ_READY).toBeTruthy();
      for (let i = 0; i < 128; i++) d.read32(REG.BUFFER);
      expect(h.status() & INT.TRANSFER_COMPLETE).toBeTruthy();
    }
    // A1's 1500 random reads a second: a 4 KiB read, its command, blocks and stop in 1/1500 s
    expect(t.command + t.access + 8 * t.block(512) + t.command).toBeCloseTo(1000 / 1500, 9);
  });

  it("a write that does not continue the last one pays the card's random-write cost; one that does, only its programming", () => {
    const { d, h, step, send, untilComplete, t } = timed();
    const write = (block: number) => {
      send(24, block, 3 | 8 | 16 | DATA, 0);
      step(t.command);
      expect(h.status() & INT.BUFFER_WRITE_READY).toBeTruthy();
      for (let i = 0; i < 128; i++) d.write32(REG.BUFFER, i);
      expect(d.card!.state).toBe("prg");
      const waited = untilComplete(0.001);
      expect(d.card!.state).toBe("tran");
      return waited;
    };
    const random = write(500);
    const next = write(501);
    // (the command's 6.4 us, too short to wait, comes with the block's wait)
    expect(random).toBeCloseTo(t.command + t.block(512) + t.program + t.randomWrite, 2);
    expect(next).toBeCloseTo(t.command + t.block(512) + t.program, 2);
    expect(t.block(512) + t.program).toBeCloseTo(512 / 10e6 * 1000, 9); // 10 MB/s in sequence
  });

  it("an erase keeps the card busy for its allocation units", () => {
    const { d, step, send, untilComplete } = timed();
    const erase = (blocks: number) => {
      send(32, 0, R1F);
      step(1);
      send(33, blocks - 1, R1F);
      step(1);
      send(38, 0, 3 | 8 | 16);
      const waited = untilComplete(0.5);
      expect(d.card!.state).toBe("tran");
      return waited;
    };
    const one = erase(8192); // one 4 MiB unit
    const four = erase(4 * 8192);
    expect(four / one).toBeGreaterThan(3.5);
    expect(four / one).toBeLessThan(4.5);
  });

  it("a DAT line reset while the card is busy: the host stops waiting, the card finishes programming on its own", () => {
    const { d, h, rca, step, send, t } = timed();
    send(24, 7, 3 | 8 | 16 | DATA, 0);
    step(t.command);
    for (let i = 0; i < 128; i++) d.write32(REG.BUFFER, i);
    expect(d.read32(REG.PRESENT_STATE) & 2).toBe(2); // DAT_INHIBIT: busy
    d.write8(REG.SOFTWARE_RESET, 4);
    expect(d.read32(REG.PRESENT_STATE) & 2).toBe(0);
    expect(d.card!.state).toBe("prg");
    step(t.block(512) + t.program + t.randomWrite + 0.01);
    expect(d.card!.state).toBe("tran");
    expect(h.status() & INT.TRANSFER_COMPLETE).toBe(0); // nobody waited
    void rca;
  });

  it("CMD12 answered as R1 after a write: the card programs and comes back to tran", () => {
    const { d, step, send, t } = timed();
    send(25, 40, R1F | DATA, 0x20 | 0x02, 2);
    step(t.command);
    for (let b = 0; b < 2; b++) {
      for (let i = 0; i < 128; i++) d.write32(REG.BUFFER, i + b);
      step(t.block(512) + t.program + 0.001);
    }
    expect(d.card!.state).toBe("rcv");
    send(12, 0, R1F); // R1, not R1b: the host does not wait
    step(t.command);
    expect(d.card!.state).toBe("prg");
    step(t.program + t.randomWrite + 0.01);
    expect(d.card!.state).toBe("tran");
  });

  it("a machine saved with the card busy keeps the rest of its busy time", () => {
    const { d, h, step, send, t } = timed();
    send(24, 900, 3 | 8 | 16 | DATA, 0);
    step(t.command);
    for (let i = 0; i < 128; i++) d.write32(REG.BUFFER, i);
    step(0.5);
    const { meta, data } = d.snapshot();
    const e = new SdhciDevice(null);
    let now = 0;
    e.now = () => now;
    e.externalClock();
    e.restore(JSON.parse(JSON.stringify(meta)), data);
    expect(e.card!.state).toBe("prg");
    now = t.block(512) + t.program + t.randomWrite - 0.5 - 0.01;
    e.tick();
    expect(e.card!.state).toBe("prg");
    now += 0.02;
    e.tick();
    expect(e.card!.state).toBe("tran");
    expect(e.read32(REG.INT_STATUS) & INT.TRANSFER_COMPLETE).toBeTruthy();
    void h;
  });
});

describe("a saved SD host is checked whole before anything is restored", () => {
  const saved = () => {
    const d = new SdhciDevice(card("sdhc"));
    const h = new Driver(d);
    h.init();
    h.cmd(24, 3, "r1", { read: false, size: 512 });
    h.writeData(new Uint8Array(512).fill(9), 512);
    return d.snapshot();
  };

  it("refuses another version, and a field out of its range, naming it; the device keeps what it had", () => {
    const { meta, data } = saved();
    const d = new SdhciDevice(card("sdsc", 2 * MiB));
    const before = JSON.stringify(d.snapshot().meta);
    expect(() => d.restore({ ...meta, version: 99 }, data)).toThrow(/version 99 of the SD host/);
    expect(() => d.restore({ ...meta, card: { ...meta.card!, rca: 0x10000 } }, data)).toThrow(/rca/);
    expect(() => d.restore({ ...meta, card: { ...meta.card!, state: "lost" as never } }, data)).toThrow(/state/);
    expect(() => d.restore({ ...meta, card: { ...meta.card!, addr: meta.card!.size + 1 } }, data)).toThrow(/addr/);
    expect(() => d.restore({ ...meta, regs: meta.regs.slice(1) }, data)).toThrow(/registers/);
    expect(() => d.restore(meta, data.subarray(1))).toThrow(/image/);
    expect(JSON.stringify(d.snapshot().meta)).toBe(before);
  });

  it("reads the state version 1 wrote (a u32 footer, no clock), and a v86 state without ours", () => {
    const { meta, data } = saved();
    const v1 = { ...meta, version: 1 } as typeof meta;
    delete v1.events;
    delete v1.commandBusy;
    delete v1.lastWriteEnd;
    // the old footer: [json][image][u32 json | u32 image | "FSLABSD1"]
    const json = new TextEncoder().encode(JSON.stringify(v1));
    const old = new Uint8Array(3 + json.length + data.length + 16);
    old.set([1, 2, 3]);
    old.set(json, 3);
    old.set(data, 3 + json.length);
    const f = new DataView(old.buffer, old.length - 16);
    f.setUint32(0, json.length, true);
    f.setUint32(4, data.length, true);
    [..."FSLABSD1"].forEach((c, i) => f.setUint8(8 + i, c.charCodeAt(0)));
    const { v86, devices } = splitMachineState(old.buffer);
    expect([...new Uint8Array(v86)]).toEqual([1, 2, 3]);
    const d = new SdhciDevice(null);
    d.timed = false;
    d.restore(devices!.sdhci, devices!.image);
    expect(d.card!.read(3 * 512, 512).every((b) => b === 9)).toBe(true);
  });

  it("fuzzed: a damaged field is refused or restored, never half of it", () => {
    const { meta, data } = saved();
    const fields = Object.keys(meta.card!) as (keyof CardSnapshot)[];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.oneof(fc.integer({ min: -5, max: 2 ** 33 }), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.integer())), (field, value) => {
        const d = new SdhciDevice(null);
        d.timed = false;
        const bad = { ...meta, card: { ...meta.card!, [field]: value } } as typeof meta;
        try {
          d.restore(bad, data);
        } catch (e) {
          expect((e as Error).message).toMatch(/saved (card|SD host)|image|no card type|card holds|multiple of|at most/);
          expect(d.card).toBeNull();
          return;
        }
        expect(d.card).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
