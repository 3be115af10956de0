// What the topics' `fslab inspect` printers (topics/<t>/inspect-cli.ts) write alike.
import type { Run } from "./inspect";

/** runs as text for reading: the first 16, then how many more (--json has them all) */
const FOLD_RUNS = 16;
export const runsText = (rs: Run[]) => {
  if (!rs.length) return "-";
  const shown = rs.slice(0, FOLD_RUNS).map(([s, n]) => (n > 1 ? `${s}-${s + n - 1}` : `${s}`)).join(",");
  return rs.length > FOLD_RUNS ? `${shown}, … and ${rs.length - FOLD_RUNS} more runs` : shown;
};

/** a chain's damage after its runs, or nothing */
export const chainTrouble = (x: { chain_error?: string; cross_link?: string }) => {
  const t = [x.chain_error, x.cross_link].filter(Boolean).join("; ");
  return t ? `  !! ${t}` : "";
};
