// fslab bench cli: the command line's start, whole processes: `fslab --help` against `node -e 0`,
// and `fslab vm -- true` (the saved state) against `fslab vm --cold -- true`.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describeRatio, interleave, pairRatios, spread } from "../paired";
import type { BenchPart } from "../report";

const FSLAB = fileURLToPath(new URL("../../bin/fslab.mjs", import.meta.url));

/** one whole process's wall time in ms (it must exit 0) */
function processMs(argv: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`\`${argv.slice(1).join(" ")}\` exited ${r.status}: ${(r.stderr || r.error?.message || "").trim().split("\n")[0]}`);
  return ms;
}

export const part: BenchPart = {
  order: 7,
  summary: "the command line's start, whole processes: `fslab --help` against `node -e 0`, and `fslab vm -- true` against `fslab vm --cold -- true`",
  async run() {
    const node = [process.execPath];
    const fslab = [process.execPath, FSLAB];
    // the two processes of each comparison in turn, after one warm-up round (a first run fills
    // the page cache, and rebuilds a stale CLI)
    const pairs = (a: string[], b: string[], n: number) => interleave(n, [() => processMs(a), () => processMs(b)], 1);
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const [helpMs, nodeMs] = await pairs([...fslab, "--help"], [...node, "-e", "0"], 7);
    console.log("The command line's start, whole processes, in pairs taken in turn after one warm-up pair:");
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    console.log(
      `  fslab --help ${ms(spread(helpMs).median)} (${helpMs.map(ms).join(", ")}), node -e 0 ${ms(spread(nodeMs).median)} (${nodeMs.map(ms).join(", ")}): ` +
        describeRatio(pairRatios(helpMs, nodeMs), { atMost: 5 }, "pairs", 1),
    );
    const [warm, cold] = await pairs([...fslab, "vm", "--", "true"], [...fslab, "vm", "--cold", "--", "true"], 3);
    console.log(
      `  fslab vm -- true ${s(spread(warm).median)} (${warm.map(s).join(", ")}), fslab vm --cold -- true ${s(spread(cold).median)} (${cold.map(s).join(", ")}): ` +
        `of the cold one ${describeRatio(pairRatios(warm, cold), { atMost: 1 / 3, text: "under a third" })}`,
    );
  },
};
