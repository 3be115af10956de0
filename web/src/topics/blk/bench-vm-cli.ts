// `fslab bench-vm`'s block-layer scenario: the guest's fslab-bench run (guest/usr/local/lib/
// fslab-bench/), printed beside the published numbers. Node only, like cli.ts.
import { fslabBench, table, type VmBenchScenario } from "../../shared/vm-bench";

export const vmBench: Record<string, VmBenchScenario> = {
  "blk-fio": async (vm) => {
    const rows = await fslabBench(vm, "blk-fio 2", 3600);
    const scheds = ["mq-deadline", "kyber", "bfq", "none"];
    const combos = rows.filter((r) => r.scheduler === "mq-deadline" && !r.error);
    table(
      "fio bs=1M reads on null_blk, MiB/s per scheduler                   blog series: fio patterns numjobs 1/4, iodepth 1/4, seq/rand",
      ["rw", "jobs", "depth", ...scheds],
      combos.map((c) => [
        c.rw,
        c.numjobs,
        c.iodepth,
        ...scheds.map((s) => {
          const r = rows.find((x) => x.scheduler === s && x.rw === c.rw && x.numjobs === c.numjobs && x.iodepth === c.iodepth);
          return r ? (r.error ?? Math.round(r.bw_kib_s / 1024)) : "-";
        }),
      ]),
    );
  },
};
