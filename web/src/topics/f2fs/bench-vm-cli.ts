// `fslab bench-vm`'s F2FS scenario: the guest's fslab-bench run (guest/usr/local/lib/
// fslab-bench/), printed beside the published numbers. Node only, like cli.ts.
import { fslabBench, table, type VmBenchScenario } from "../../shared/vm-bench";

export const vmBench: Record<string, VmBenchScenario> = {
  "f2fs-clue": async (vm) => {
    const rows = await fslabBench(vm, "f2fs-clue 8000", 3600);
    table(
      "F2FS 8000 files: fill, free all, trim, refill x4 writers (one CPU) CLUE paper: 15x MWUL, 3x MWUM on 120 cores (from the wasm model)",
      ["clue", "ms", "bitmap scans", "NAT scans", "skipped", "NAT deferred", "entries scanned", "fsck"],
      rows.map((r) => [r.clue, r.ms, r.bitmap_scans, r.nat_scans, r.scans_skipped, r.nat_deferred, r.nids_scanned, r.fsck_exit === 0 ? "clean" : `exit ${r.fsck_exit}`]),
    );
  },
};
