// A sequential 1 MiB write to the emulated SD card (web/src/vm/machine/devices/), timed in the guest,
// beside what the card's latency model (web/src/shared/sd-timing.ts) predicts for the clock and bus width
// Linux set, and beside the same write to a RAM-backed loop device: the card must be
// measurably slower than RAM, and near its model where the emulator's own cost allows.
import { NodeVm } from "../web/src/vm/node/node-vm";
import { predictWriteMs } from "../web/src/shared/sd-timing";
import { interleave } from "./paired";

export interface SdWriteRun {
  card: number[]; // ms per 1 MiB O_DIRECT write to mmcblk0
  ram: number[]; // ms per 1 MiB O_DIRECT write to a loop device on tmpfs
  clockHz: number;
  width: 1 | 4;
  modelMs: number;
}

/** `samples` alternating writes to the card and to RAM, each timed by the guest's clock */
export async function sdWriteBench(samples = 5): Promise<SdWriteRun> {
  const vm = new NodeVm();
  try {
    await vm.boot({ sd: { type: "sdhc", size: 64 * 2 ** 20 } });
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
