// fslab bench sd: a sequential 1 MiB O_DIRECT write to the emulated SD card in the guest, in turn
// with the same write to a RAM-backed loop device (bench/sd-write.ts).
import { sdWriteBench } from "../sd-write";
import { describeSpread, pairRatios } from "../paired";
import type { BenchPart } from "../report";

export const part: BenchPart = {
  order: 5,
  summary: "a 1 MiB O_DIRECT write to the emulated SD card, against the same write to RAM, in the guest in Node",
  async run() {
    const r = await sdWriteBench();
    const ratio = pairRatios(r.card, r.ram);
    console.log(`SD card (emulated SDHC, ${r.clockHz / 1e6} MHz, ${r.width}-bit bus as Linux set it), a sequential 1 MiB O_DIRECT write, in turn with the same write to a RAM-backed loop device:`);
    console.log(`  to /dev/mmcblk0: ${describeSpread(r.card, null, { what: "writes", digits: 1, unit: " ms" })}`);
    console.log(`  the card's latency model predicts ${r.modelMs.toFixed(1)} ms (2048 blocks: bus time at this clock and width, plus a Speed Class 4 card's programming time; web/src/shared/sd-timing.ts)`);
    console.log(`  to a loop device on tmpfs: ${describeSpread(r.ram, null, { what: "writes", digits: 1, unit: " ms" })}`);
    console.log(`  card/RAM per pair: ${describeSpread(ratio, { atLeast: 2, text: "the card at least twice as slow as RAM" }, { what: "pairs" })}`);
  },
};
