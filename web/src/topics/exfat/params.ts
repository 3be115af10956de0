// The exfat playgrounds' and views' link parameters, with their ranges: declared once, read by
// the manifest (topic.ts, which hands them to the shell, the lab validator and embeds) and by
// the pages that show them as fields. Data only, so neither imports the other.
import { int } from "../../shared/params";

/** /play/exfat: one file deleted under batch_discard 0 or 1 */
export const EXFAT_PARAMS = {
  clusters: int("the file's clusters (4 KiB each)", 1, 60_000, 256),
  runs: int("pieces (at most the clusters)", 1, 64, 4),
  batch: int("batch_discard", 0, 1, 1),
};
/**
 * The exfat-clusters view embedded on its own (<fslab-view view="exfat-clusters" ...>): a file
 * made on its 512-cluster heap to start with, and the policy its delete will use. Without
 * `clusters` the heap starts empty, as in a lab.
 */
export const EXFAT_CLUSTERS_PARAMS = {
  clusters: int("the first file's clusters (4 KiB each)", 1, 400, 24),
  runs: int("its pieces", 1, 64, 1),
  batch: int("batch_discard", 0, 1, 1),
};
/** /play/exfat-dir: creates, removals and long names in one directory */
export const EXFAT_DIR_PARAMS = {
  files: int("files created", 1, 5000, 1000),
  remove: int("remove every k-th (0: none)", 0, 10, 3),
  long: int("long names created after", 0, 1000, 100),
};
