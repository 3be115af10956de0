// The SD model's answers, held to what a learner can work out: io-schedulers asks for one random
// write's time on the card, from the rounded figures its first step gives; every size the lab
// draws must be answerable from them within the question's tolerance.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { topicAnswers } from "./answers";
import { loadCoreModule } from "../../shared/node-load";
import { DEFAULT_SPEED_HZ, busTimes, requestMs } from "../../shared/sd-timing";

const lab = readFileSync(new URL("../../../../labs/io-schedulers/lab.md", import.meta.url), "utf8").replace(/\s+/g, " ");
const requestUs = (kib: number, write: number, random: number) => Number(topicAnswers.answers["request-us"](null as never, { kib, write, random }));

describe("sd.request-us", () => {
  it("is what the emulated card charges (sd-timing.ts) at the clock and width Linux sets", () => {
    const t = busTimes(DEFAULT_SPEED_HZ, 4);
    expect(requestUs(16, 1, 1)).toBe(Math.round(1000 * requestMs(t, true, 32, true)));
    expect(requestUs(16, 0, 1)).toBe(Math.round(1000 * requestMs(t, false, 32)));
    // A1's own figure: a random 4 KiB write in 2 ms, a read in 667 µs
    expect(requestUs(4, 1, 1)).toBe(2000);
    expect(requestUs(4, 0, 1)).toBe(667);
    expect(requestUs(16, 1, 0)).toBeLessThan(requestUs(16, 1, 1));
  });

  it("can be worked out from io-schedulers' step 1 within the question's 3%, for every size the lab draws", () => {
    // the figures as the lab gives them
    for (const said of ["a command takes 6.4 µs", "a 512-byte block 42 µs on the bus", "busy about 9.5 µs more", "about 1.6 ms more, once"]) expect(lab).toContain(said);
    expect(lab).toMatch(/write_kib: 8\.\.128 by 8/);
    for (let kib = 8; kib <= 128; kib += 8) {
      const learner = 2 * 6.4 + kib * 2 * (42 + 9.5) + 1600;
      expect(Math.abs(learner - requestUs(kib, 1, 1)) / requestUs(kib, 1, 1), `${kib} KiB`).toBeLessThan(0.03);
    }
  });

  it("refuses a size or a flag out of range", () => {
    expect(() => requestUs(0, 1, 1)).toThrow(/kib/);
    expect(() => requestUs(8, 2, 1)).toThrow(/write/);
  });
});

describe("sd.read-arg", () => {
  it("names bytes on a version 1 card and 512-byte blocks on a version 2 card, as mmc_blk_data_prep does", async () => {
    const m = await loadCoreModule("sd");
    const arg = (p: Record<string, number | string>) => Number(topicAnswers.answers["read-arg"](m, p));
    const sectors = (p: Record<string, number | string>) => Number(topicAnswers.answers["card-sectors"](m, p));
    const sdsc = { card_kib: 115712, type: "sdsc" };
    expect(sectors(sdsc)).toBe(231424);
    expect(arg({ ...sdsc, end_kib: 4 })).toBe((231424 - 8) * 512);
    const sdhc = { card_kib: 2 ** 22, type: "sdhc" };
    expect(arg({ ...sdhc, end_kib: 4 })).toBe(sectors(sdhc) - 8);
    expect(() => arg({ ...sdsc, end_kib: 0 })).toThrow(/end_kib/);
  });
});
