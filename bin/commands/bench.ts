// fslab bench (npm run bench): ratios measured side by side in one run, never thresholds.
//   1. __exfat_free_cluster on 20,971,520 clusters: the same C natively and as wasm
//   2. blk-mq + mq-deadline on 1,000,000 requests: natively and as wasm
//   3. FxMark unlink, 120 cores x 10,000 unlinks: natively and as wasm
//   4. the views' frame times in Chromium: 65,536 animated cells, a 2^24-bit bitmap
//   5. the guest's cold boot and saved-state restore to a shell prompt in Node
//   6. the lab page's JS heap over 10 minutes of the busiest stream (FSLAB_BENCH_HEAP_MINUTES)
import { UsageError } from "../../web/src/shared/cli-args";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadCoreModule } from "../../web/src/shared/node-load";
import { NodeVm } from "../../web/src/vm/node-vm";
import { CASES, wasmFreeMs } from "../../bench/exfat-free";
import { BLK_CASE, wasmBlkRunMs } from "../../bench/blk-dispatch";
import { fxmarkUnlink } from "../../web/src/topics/f2fs/fxmark";
import { frameStats, describe, describeVm } from "../../bench/frames";
import { heapOverTime } from "../../bench/heap";

const WASM_DIR = fileURLToPath(new URL("../../wasm/", import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => (ms < 10 ? `${ms.toFixed(3)} ms` : `${ms.toFixed(1)} ms`);

const PARTS = ["exfat", "blk", "f2fs", "frames", "vm", "heap"];

export async function bench(args: string[]): Promise<number> {
  const only = args[0];
  if (args.length > 1 || (only !== undefined && !PARTS.includes(only)))
    throw new UsageError(`no benchmark "${args.join(" ")}" (${PARTS.join(", ")}, or none for all)`, `usage: fslab bench [${PARTS.join("|")}]`);
  if (!only || only === "exfat") {
    execFileSync("make", ["-s", "-C", WASM_DIR, "build/native/bench_exfat"], { stdio: "inherit" });
    const native = execFileSync(`${WASM_DIR}build/native/bench_exfat`, { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { case: string; ms: number[] });
    const module = await loadCoreModule("exfat");
    console.log("exFAT free (batched discard), median of 61 (NoFatChain) or 15 samples, same C:");
    console.log(`  ${"case".padEnd(48)} ${"native".padStart(10)} ${"wasm".padStart(10)}  wasm/native`);
    for (const c of CASES) {
      const runs = Array.from({ length: c.samples }, () => wasmFreeMs(module, c.clusters, c.runs));
      const n = median(native.find((x) => x.case === c.name)!.ms);
      const w = median(runs);
      console.log(`  ${c.name.padEnd(48)} ${fmt(n).padStart(10)} ${fmt(w).padStart(10)}  ${(w / n).toFixed(2)}x`);
    }
  }
  if (!only || only === "blk") {
    execFileSync("make", ["-s", "-C", WASM_DIR, "build/native/bench_blk"], { stdio: "inherit" });
    const native = JSON.parse(execFileSync(`${WASM_DIR}build/native/bench_blk`, { encoding: "utf8" })) as { case: string; ms: number[] };
    const module = await loadCoreModule("blk");
    const runs = Array.from({ length: 5 }, () => wasmBlkRunMs(module));
    const n = median(native.ms);
    const w = median(runs);
    console.log("blk-mq + mq-deadline (4 jobs x iodepth 4, random 4 KiB reads, one-tag disk), median of 5, same C:");
    console.log(`  ${BLK_CASE.padEnd(48)} ${fmt(n).padStart(10)} ${fmt(w).padStart(10)}  ${(w / n).toFixed(2)}x`);
  }
  if (!only || only === "f2fs") {
    execFileSync("make", ["-s", "-C", WASM_DIR, "build/native/bench_f2fs"], { stdio: "inherit" });
    const native = execFileSync(`${WASM_DIR}build/native/bench_f2fs`, { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { case: string; ms: number[] });
    const module = await loadCoreModule("f2fs");
    console.log("FxMark unlink simulation, median of 5, same C:");
    for (const [i, clue] of [0, 7].entries()) {
      const runs = Array.from({ length: 5 }, () => {
        const t0 = performance.now();
        fxmarkUnlink(module, "MWUL", clue, 120, 10_000);
        return performance.now() - t0;
      });
      const n = median(native[i].ms);
      const w = median(runs);
      console.log(`  ${native[i].case.padEnd(48)} ${fmt(n).padStart(10)} ${fmt(w).padStart(10)}  ${(w / n).toFixed(2)}x`);
    }
  }
  if (!only || only === "frames") {
    const r = await frameStats();
    console.log("Views in Chromium (headless, software canvas), 240 frames each:");
    console.log(describe("65,536 clusters, per-cluster delete replayed", r.cells, 60));
    console.log(describe("2^24-bit bitmap, downsampled, freed stretch by stretch", r.bitmap, 30));
    for (const line of describeVm(r.vm)) console.log(line);
  }
  if (!only || only === "vm") {
    for (const cold of [true, false]) {
      const times: number[] = [];
      for (let i = 0; i < 2; i++) {
        const vm = new NodeVm();
        try {
          await vm.boot({ cold });
          times.push(vm.bootMs);
        } finally {
          await vm.destroy();
        }
      }
      const what = cold ? "cold boot to a shell prompt" : "restore of the saved state to a prompt";
      console.log(`guest ${what} in Node (v86): ${times.map((t) => (t / 1000).toFixed(2) + " s").join(", ")}`);
    }
  }
  if (!only || only === "heap") {
    const minutes = Number(process.env.FSLAB_BENCH_HEAP_MINUTES ?? 10);
    if (!Number.isInteger(minutes) || minutes < 1) throw new UsageError(`FSLAB_BENCH_HEAP_MINUTES must be a whole number of minutes, not "${process.env.FSLAB_BENCH_HEAP_MINUTES}"`, "usage: FSLAB_BENCH_HEAP_MINUTES=10 fslab bench heap");
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
    console.log(`Lab page JS heap (after a forced GC) while mq-deadline's busiest stream runs \`load\` in a loop, ${minutes} min in Chromium:`);
    const xs = await heapOverTime(minutes, (s) =>
      console.log(`  minute ${String(s.minute).padStart(2)}: ${mb(s.heap).padStart(9)}, ${s.loads} runs in the panel${s.dropped ? "; the page has let the oldest events go" : ""}`),
    );
    const capped = xs.findIndex((s) => s.dropped);
    const after = capped >= 0 ? xs.slice(capped) : [];
    console.log(
      `  start ${mb(xs[0].heap)}, end ${mb(xs.at(-1)!.heap)}, largest ${mb(Math.max(...xs.map((s) => s.heap)))}; ` +
        (after.length > 1
          ? `from the first drop (minute ${xs[capped].minute}) to the end: ${mb(after.at(-1)!.heap - after[0].heap)} (goal: no growth once the cap is reached)`
          : "the event cap was not reached in this run (goal: no growth once it is)"),
    );
  }
  return 0;
}
