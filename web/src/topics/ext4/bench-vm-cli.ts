// `fslab bench-vm`'s ext4 scenario: the guest's fslab-bench run (guest/usr/local/lib/
// fslab-bench/), printed beside the published numbers. Node only, like cli.ts.
import { fslabBench, table, type VmBenchScenario } from "../../shared/vm-bench";

export const vmBench: Record<string, VmBenchScenario> = {
  "ext4-dd": async (vm) => {
    const rows = await fslabBench(vm, "ext4-dd 32", 3600);
    const layouts = ["4k", "bigalloc-64k", "64k"];
    for (const mode of ["buffered", "direct"]) {
      table(
        `ext4 dd ${mode} writes, MB/s (32 MiB, conv=fsync)                 LBS series: 64k buffered 3.8 -> 6.0 GB/s (LBS vs bigalloc), direct up to 30% slower`,
        ["bs", ...layouts],
        [4, 8, 16, 32, 64].map((bs) => [
          `${bs}k`,
          ...layouts.map((l) => rows.find((r) => r.layout === l && r.mode === mode && r.bs_k === bs)?.mb_s ?? rows.find((r) => r.layout === l)?.error ?? "-"),
        ]),
      );
    }
  },
};
