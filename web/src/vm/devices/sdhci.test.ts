// The SD host and card driven the way Linux's sdhci.c drives them (16-bit registers written as
// two bytes, as v86 splits them), without a machine: register behaviour, the card's states, the
// data path and the saved state. The real kernel against the device: e2e/sd.e2e.ts.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SdhciDevice, REG, INT, ERR } from "./sdhci";
import { SdCard, csdV1Geometry, parseSize, cardOptionsError, R1, crc7, type CardType } from "./sd-card";
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

const card = (type: CardType, size = 64 * MiB) => new SdCard({ type, size });

describe("SD card registers", () => {
  it("CSD version 2 gives the capacity Linux computes from C_SIZE", () => {
    const c = card("sdhc", 64 * MiB).csd();
    expect(c[0] >> 6).toBe(1); // CSD_STRUCTURE
    // C_SIZE: bits [69:48] -> bytes 7..9 of the 16
    const cSize = ((c[7] & 0x3f) << 16) | (c[8] << 8) | c[9];
    expect((cSize + 1) * 1024).toBe(131072); // sectors, as mmc_decode_csd: (1 + C_SIZE) << 10
  });
  it("CSD version 1 for every SDSC size a multiple of 512 KiB up to 2 GiB", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 4096 }), (halfMiB) => {
        const size = halfMiB * 512 * 1024;
        const g = csdV1Geometry(size);
        expect((g.cSize + 1) * 2 ** (g.cSizeMult + 2 + g.readBlLen)).toBe(size);
        expect(g.cSize).toBeLessThan(4096);
      }),
    );
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
    const d = new SdhciDevice(card("sdhc", 2 * MiB));
    const h = new Driver(d);
    h.init();
    const r = h.cmd(17, 4096, "r1", { read: true, size: 512 })!;
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
    const { cardSizeError } = await import("../../shared/sd-card-spec");
    expect(cardSizeError("sdhc", 8 * 2 ** 30)).toBeNull(); // the model may simulate a big card
    expect(cardOptionsError({ type: "sdhc", size: 8 * 2 ** 30 })).toMatch(/at most 4 GiB/);
    for (const size of [2 ** 19, 64 * MiB + 4096]) expect(cardSizeError("sdhc", size)).toBe(cardOptionsError({ type: "sdhc", size }));
    expect(cardSizeError("v1", 4 * 2 ** 30)).toMatch(/at most 2 GiB/);
  });
});
