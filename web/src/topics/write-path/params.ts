// The write-path playgrounds' and views' link parameters, with their ranges: declared once, read by
// the manifest (topic.ts, which hands them to the shell, the lab validator and embeds) and by
// the pages that show them as fields. Data only, so neither imports the other.
import { oneOf } from "../../shared/params";

export const WRITE_PATH_PARAMS = {
  trace: oneOf("how the data is written", ["buffered", "fsync", "direct", "sync"] as const, "buffered"),
};
