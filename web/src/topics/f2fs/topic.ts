// F2FS: unlink scaling and the free-NID scan, upstream against CLUE. C core: wasm/src/f2fs
// (fxmark.c, nid.c); lab f2fs-clue.
import { defineTopic } from "../../shared/topic";
import { int, oneOf } from "../../shared/params";

export const F2FS_PARAMS = {
  workload: oneOf("FxMark workload", ["MWUL", "MWUM"] as const, "MWUL"),
  unlinks: int("unlinks per core", 100, 10_000, 2000),
  remote_ns: int("remote cache-line cost (ns)", 0, 20_000, 1500), // FXMARK_COSTS (f2fs-core.ts), checked by a test
  nat_scan_ns: int("NAT block scan cost (ns)", 0, 100_000, 12_000),
  seed: int("seed", 0, 2 ** 31 - 1, 1),
  tl_cores: int("lock timelines: cores", 1, 120, 8, [2, 4, 8, 15, 30, 120]),
  tl_us: int("lock timelines: window (µs)", 1, 1000, 250, [50, 250, 1000]),
};

export default defineTopic({
  id: "f2fs",
  title: "F2FS free NIDs and CLUE",
  playgrounds: [
    {
      route: "f2fs",
      layer: "filesystem",
      title: "F2FS unlink on many cores: upstream against CLUE",
      blurb: "FxMark's unlink workloads on 1 to 120 simulated cores; predict CLUE's speed-up, then see where the cores wait.",
      params: F2FS_PARAMS,
      load: () => import("./PlayF2fs").then((m) => m.PlayF2fs),
    },
  ],
  views: [{ id: "f2fs-nid", title: "the kernel's free-NID scans, one table per mount, against the model of the lab's steps under clue 0 and 4, and the NAT of `/mnt/host/f2fs.img` against the model's", params: {}, load: () => import("./lab-views").then((m) => m.F2fsNidLab) }],
  cli: [
    { name: "f2fs", synopsis: "[options] [--json]", summary: "FxMark unlink on 1..120 cores, upstream vs CLUE", module: "cli.ts" },
    { name: "f2fs-nid", synopsis: "[options] [--json]", summary: "the free-NID scans of fslab-bench's f2fs-clue workload, per clue mask", module: "cli.ts" },
  ],
});
