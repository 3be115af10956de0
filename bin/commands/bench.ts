// fslab bench (npm run bench): ratios measured side by side in one run, never thresholds.
// Where two figures make a ratio, their samples alternate (A B A B: bench/paired.ts) and the
// ratio's median is printed with its spread; a goal is met or not only when the whole
// interquartile range is on one side of it, else the figure is "within noise".
// The parts are the modules of bench/parts/ (bench/parts.ts): each says what it measures, and
// `fslab bench` with no part runs them all in their order. This file names none of them.
import { UsageError } from "../../web/src/shared/cli-args";
import { loadParts, partNames } from "../../bench/parts";

/** `fslab bench`'s usage line, naming every part of bench/parts/ */
export const benchUsage = (names = partNames()) => `usage: fslab bench [${names.join("|")}]...`;

/** The parts named (each once, in the parts' own order), or all of them. */
export async function bench(args: string[]): Promise<number> {
  const names = partNames();
  const unknown = args.filter((a) => !names.includes(a));
  if (unknown.length) throw new UsageError(`no benchmark "${unknown.join(" ")}" (${names.join(", ")}, or none for all)`, benchUsage(names));
  for (const part of await loadParts(args.length ? names.filter((n) => args.includes(n)) : names)) await part.run();
  return 0;
}
