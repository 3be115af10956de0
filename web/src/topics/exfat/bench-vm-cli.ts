// `fslab bench-vm`'s exFAT scenarios: the guest's fslab-bench runs (guest/usr/local/lib/
// fslab-bench/), printed beside the published numbers. Node only, like cli.ts.
import { fslabBench, ratio, table, type VmBenchScenario } from "../../shared/vm-bench";

export const vmBench: Record<string, VmBenchScenario> = {
  "exfat-discard": async (vm) => {
    const rows = await fslabBench(vm, "exfat-discard 64", 600);
    const on = rows.find((r) => r.batch_discard === 1)!;
    const off = rows.find((r) => r.batch_discard === 0)!;
    table(
      "exFAT rm with -o discard (loop device on RAM, 4 KiB clusters)      6.15 commit: 80 GiB file, 4m46s -> 1.66 s (172x)",
      ["batch_discard", "file", "clusters", "discard requests", "rm ms"],
      rows.map((r) => [r.batch_discard, `${r.file_mb} MiB`, r.clusters, r.discard_calls, r.rm_ms]),
    );
    console.log(`  per-cluster / batched rm time: ${ratio(off.rm_ms, on.rm_ms)}`);
  },
  "exfat-empty-hint": async (vm) => {
    // v86 compiles guest code the first time it runs: without a warm-up, whichever setting
    // goes first pays for it in its first bucket
    await fslabBench(vm, "exfat-empty-hint 1000 1000", 600);
    const rows = await fslabBench(vm, "exfat-empty-hint 5000 1000", 3600);
    const seed = ["14.40%", "33.15%", "40.23%", "49.05%", "57.42%"];
    const with1 = rows.filter((r) => r.empty_hint === 1);
    table(
      "exFAT create 5000 files in one directory, buckets of 1000          6.2 patch: +14% growing to +57% (i.MX6, SD card)",
      ["files", "hint=0 ms", "hint=1 ms", "improvement", "6.2 patch (i.MX6, SD)", "entries examined 0 / 1"],
      with1.map((r, i) => {
        const o = rows.find((x) => x.empty_hint === 0 && x.first === r.first)!;
        return [`${r.first}~${r.last}`, o.ms, r.ms, `${(((o.ms - r.ms) / o.ms) * 100).toFixed(1)}%`, seed[i] ?? "", `${o.entries_examined} / ${r.entries_examined}`];
      }),
    );
  },
};
