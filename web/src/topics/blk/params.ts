// The blk playgrounds' and views' link parameters, with their ranges: declared once, read by
// the manifest (topic.ts, which hands them to the shell, the lab validator and embeds) and by
// the pages that show them as fields. Data only, so neither imports the other.
import { int, oneOf } from "../../shared/params";

export const BLK_PARAMS = {
  device: oneOf("device", ["ssd", "sdcard", "hdd"] as const, "hdd"),
  rw: oneOf("pattern", ["read", "write", "randread", "randwrite", "randrw"] as const, "randread"),
  numjobs: int("jobs", 1, 16, 4),
  iodepth: int("iodepth", 1, 64, 4),
  bs: oneOf("block size", ["4k", "64k", "1M"] as const, "64k"),
  size: oneOf("span per job", ["1M", "4M", "16M", "64M"] as const, "4M"),
  fifo_batch: int("mq-deadline fifo_batch", 1, 256, 16), // DD_DEFAULTS (blk-core.ts), checked by a test
  writes_starved: int("mq-deadline writes_starved", 0, 16, 2),
  seed: int("seed", 0, 2 ** 31 - 1, 1),
};
