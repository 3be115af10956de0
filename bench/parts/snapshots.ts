// fslab bench snapshots: what keeping a lab's machine as step 2 begins, and putting it back,
// costs in the page, for the labs of labs/ (bench/snapshots.ts).
import { snapshotCosts } from "../snapshots";
import { goal, type BenchPart } from "../report";

export const part: BenchPart = {
  order: 9,
  summary: "a lab's machine kept as step 2 begins and put back by \"Reset this step\", in Chromium, for each lab of labs/",
  async run() {
    const xs = await snapshotCosts();
    const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
    console.log("A lab's machine kept as step 2 begins and put back by \"Reset this step\", in Chromium (headless):");
    for (const x of xs) {
      console.log(
        `  ${x.lab.padEnd(14)} kept: save_state ${x.saveMs.toFixed(0)} ms ${goal(x.saveMs <= 500, "at most 500 ms")}, then gzip in a worker ${x.gzipMs.toFixed(0)} ms; ` +
          `${mib(x.rawBytes)} raw, stored ${mib(x.storedBytes)} ${goal(x.storedBytes <= 8e6, "at most 8 MB")}`,
      );
      console.log(
        `  ${"".padEnd(14)} reset: click to a command answered ${x.resetMs.toFixed(0)} ms ${goal(x.resetMs <= 500, "at most 500 ms")} (${Number.isNaN(x.gunzipMs) ? "from memory, no gunzip" : `gunzip ${x.gunzipMs.toFixed(0)} ms`}, restore_state ${x.restoreMs.toFixed(0)} ms)`,
      );
    }
  },
};
