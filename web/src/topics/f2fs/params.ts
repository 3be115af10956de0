// The f2fs playgrounds' and views' link parameters, with their ranges: declared once, read by
// the manifest (topic.ts, which hands them to the shell, the lab validator and embeds) and by
// the pages that show them as fields. Data only, so neither imports the other.
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
