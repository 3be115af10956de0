// The sd playground's link parameters, with their ranges: declared once, read by the manifest
// (topic.ts) and by the page that shows them as fields. Data only.
import { int, oneOf } from "../../shared/params";

export const SD_PARAMS = {
  card: oneOf("the card", ["sdhc", "sdsc", "v1"] as const, "sdsc"),
  // up to SDHC's 32 GiB; which sizes a type may have is the card's own rule (sd-card-spec.ts)
  mib: int("its size in MiB", 1, 32768, 64),
};
