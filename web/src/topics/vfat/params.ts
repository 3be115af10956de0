// The vfat playgrounds' and views' link parameters, with their ranges: declared once, read by
// the manifest (topic.ts, which hands them to the shell, the lab validator and embeds) and by
// the pages that show them as fields. Data only, so neither imports the other.
import { text } from "../../shared/params";

export const VFAT_PARAMS = {
  name: text("a file name", 255, "ＳＪＩＳ"),
};
