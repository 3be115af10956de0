// fslab bench sd: a sequential 1 MiB O_DIRECT write to the emulated SD card in the guest
// (web/src/vm/machine/devices/), timed by the guest's clock, in turn with the same write to a
// RAM-backed loop device, beside what the card's latency model (web/src/shared/sd-timing.ts)
// predicts for the clock and bus width Linux set: the card must be measurably slower than RAM,
// and near its model where the emulator's own cost allows.
import { predictWriteMs } from "../../shared/sd-timing";
import { NodeVm } from "../../../../bench/guest";
import { describeSpread, interleave, pairRatios } from "../../../../bench/paired";
import type { BenchPart } from "../../../../bench/report";

interface SdWriteRun {
  card: number[]; // ms per 1 MiB O_DIRECT write to mmcblk0
  ram: number[]; // ms per 1 MiB O_DIRECT write to a loop device on tmpfs
  clockHz: number;
  width: 1 | 4;
  modelMs: number;
}

/** `samples` alternating writes to the card and to RAM, each timed by the guest's clock */
async function sdWriteBench(samples = 5): Promise<SdWriteRun> {
  const vm = new NodeVm();
  try {
    // 64 MiB: an SDSC card (an SDHC card holds 2056.5 MiB at least); the model times both alike
    await vm.boot({ sd: { type: "sdsc", size: 64 * 2 ** 20 } });
    await vm.sdReady();
    const setup = await vm.run("truncate -s 8M /tmp/ram.img && losetup /dev/loop5 /tmp/ram.img && echo ok");
    if (!setup.output.includes("ok")) throw new Error(`no RAM-backed loop device: ${setup.output}`);
    const time = async (dev: string, seek: number) => {
      // dd of one 1 MiB block with O_DIRECT: the write goes to the device, not the page cache
      // bash's $EPOCHREALTIME (busybox's date has no %N): seconds with microseconds
      const r = await vm.run(`t0=$EPOCHREALTIME; dd if=/dev/zero of=${dev} bs=1M count=1 seek=${seek} oflag=direct 2>/dev/null || exit 1; t1=$EPOCHREALTIME; echo "$t0 $t1"`, 120_000);
      const [t0, t1] = (r.output.trim().split("\n").pop() ?? "").split(" ").map(Number);
      if (!(t1 >= t0) || r.status !== 0) throw new Error(`the timed write to ${dev} failed: ${r.output}`);
      return (t1 - t0) * 1000;
    };
    // card, RAM, card, RAM (bench/paired.ts), after a warm-up pair at offset 0 (the first write
    // pays for dd's pages); the card's writes at 1..samples MiB, the loop device's cycling in its 8
    let k = 0;
    let j = 0;
    const [card, ram] = await interleave(
      samples,
      [() => time("/dev/mmcblk0", k++), () => time("/dev/loop5", j++ === 0 ? 0 : ((j - 2) % 6) + 1)],
      1,
    );
    const t = vm.sd.times();
    return { card, ram, clockHz: t.hz, width: t.width, modelMs: predictWriteMs(2 ** 20, t.hz, t.width) };
  } finally {
    await vm.destroy();
  }
}

export const part: BenchPart = {
  order: 5,
  summary: "a 1 MiB O_DIRECT write to the emulated SD card, against the same write to RAM, in the guest in Node",
  async run() {
    const r = await sdWriteBench();
    const ratio = pairRatios(r.card, r.ram);
    console.log(`SD card (emulated, 64 MiB SDSC, ${r.clockHz / 1e6} MHz, ${r.width}-bit bus as Linux set it), a sequential 1 MiB O_DIRECT write, in turn with the same write to a RAM-backed loop device:`);
    console.log(`  to /dev/mmcblk0: ${describeSpread(r.card, null, { what: "writes", digits: 1, unit: " ms" })}`);
    console.log(`  the card's latency model predicts ${r.modelMs.toFixed(1)} ms (2048 blocks: bus time at this clock and width, plus the programming time of the A1 card the model follows; web/src/shared/sd-timing.ts)`);
    console.log(`  to a loop device on tmpfs: ${describeSpread(r.ram, null, { what: "writes", digits: 1, unit: " ms" })}`);
    console.log(`  card/RAM per pair: ${describeSpread(ratio, { atLeast: 2, text: "the card at least twice as slow as RAM" }, { what: "pairs" })}`);
  },
};
