// fslab bench vm: the guest's cold boot and its saved-state restore to a shell prompt, in Node.
import { NodeVm } from "../../web/src/vm/node/node-vm";
import { describeRatio, interleave, pairRatios } from "../paired";
import type { BenchPart } from "../report";

/** cold boot and restore pairs (a cold boot is ~5 s here): a restore is a few hundred ms, so
 *  one slow restore moves a pair's ratio by half; seven pairs keep one from moving the IQR */
const VM_PAIRS = 7;

export const part: BenchPart = {
  order: 6,
  summary: "the guest's cold boot and saved-state restore to a shell prompt in Node",
  async run() {
    const bootMs = (cold: boolean) => async () => {
      const vm = new NodeVm();
      try {
        await vm.boot({ cold });
        return vm.bootMs;
      } finally {
        await vm.destroy();
      }
    };
    // cold, restore, cold, restore: each pair's ratio from two boots taken one after the other
    const [cold, restore] = await interleave(VM_PAIRS, [bootMs(true), bootMs(false)]);
    const s = (ms: number[]) => ms.map((t) => (t / 1000).toFixed(2) + " s").join(", ");
    console.log(`guest cold boot to a shell prompt in Node (v86): ${s(cold)}`);
    console.log(`guest restore of the saved state to a prompt in Node (v86), each right after the cold boot above it: ${s(restore)}`);
    console.log(`  cold boot / restore in Node, per pair: ${describeRatio(pairRatios(cold, restore), { atLeast: 20 }, "pairs", 1)}`);
  },
};
