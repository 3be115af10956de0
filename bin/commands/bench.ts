// fslab bench (npm run bench): ratios measured side by side in one run, never thresholds.
// Where two figures make a ratio, their samples alternate (A B A B: bench/paired.ts) and the
// ratio's median is printed with its spread; a goal is met or not only when the whole
// interquartile range is on one side of it, else the figure is "within noise".
//   1. __exfat_free_cluster on 20,971,520 clusters: the same C natively and as wasm
//   2. blk-mq + mq-deadline on 1,000,000 requests: natively and as wasm
//   3. FxMark unlink, 120 cores x 10,000 unlinks: natively and as wasm
//   4. the views' frame times in Chromium: 65,536 animated cells, a 2^24-bit bitmap
//   5. the guest's cold boot and saved-state restore to a shell prompt in Node
//   6. the lab page's JS heap over 10 minutes of the busiest stream (FSLAB_BENCH_HEAP_MINUTES)
//   7. what the pages fetch and how long a lab page takes to a prompt that answers, in Chromium
//   8. the command line's start, whole processes: `fslab --help` against `node -e 0`, and
//      `fslab vm -- true` (the saved state) against `fslab vm --cold -- true`
import { UsageError } from "../../web/src/shared/cli-args";
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadCoreModule } from "../../web/src/shared/node-load";
import { NodeVm } from "../../web/src/vm/node-vm";
import { CASES, wasmFreeMs } from "../../bench/exfat-free";
import { BLK_CASE, wasmBlkRunMs } from "../../bench/blk-dispatch";
import { fxmarkUnlink } from "../../web/src/topics/f2fs/fxmark";
import { frameStats, describe, describeVm } from "../../bench/frames";
import { heapOverTime } from "../../bench/heap";
import { pageLoads, sumBytes, type LabStart } from "../../bench/page-load";
import { snapshotCosts } from "../../bench/snapshots";
import { sdWriteBench } from "../../bench/sd-write";
import { NativeBench } from "../../bench/native";
import { describeRatio, describeSpread, interleave, pairRatios, spread, type Goal } from "../../bench/paired";

const WASM_DIR = fileURLToPath(new URL("../../wasm/", import.meta.url));
const fmt = (ms: number) => (ms < 10 ? `${ms.toFixed(3)} ms` : `${ms.toFixed(1)} ms`);

/** a native bench (wasm/bench/bench_<core>.c), built by `make` and started to be sampled */
async function nativeBench(target: string, stdio: "inherit" | "pipe" = "inherit"): Promise<NativeBench> {
  execFileSync("make", ["-s", "-C", WASM_DIR, target], { stdio });
  return NativeBench.start(`${WASM_DIR}${target}`);
}

/** pairs for blk (a run is ~0.25 s natively) and rounds for f2fs (~0.1 s a side) */
const BLK_PAIRS = 9;
const F2FS_ROUNDS = 15;
/** cold boot and restore pairs in Node (a cold boot is ~10 s) */
const VM_PAIRS = 3;
const PARTS = ["exfat", "blk", "f2fs", "frames", "vm", "cli", "heap", "page", "snapshots", "sd"];
const FSLAB = fileURLToPath(new URL("../fslab.mjs", import.meta.url));

/** one whole process's wall time in ms (it must exit 0) */
function processMs(argv: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`\`${argv.slice(1).join(" ")}\` exited ${r.status}: ${(r.stderr || r.error?.message || "").trim().split("\n")[0]}`);
  return ms;
}
const kb = (b: number) => `${(b / 1000).toFixed(0)} KB`;
const mbytes = (b: number) => `${(b / 1e6).toFixed(2)} MB`;
const goal = (ok: boolean, text: string) => `(goal: ${text}${ok ? ", met" : ", NOT met"})`;
/** the cores' goal (issue 16): wasm within 1.2x of the same C built natively (by gcc) */
const NEAR_NATIVE: Goal = { atMost: 1.2 };
/** a wasm-against-native row: each side's median time, then the pairs' ratio against the goal */
const nativeRow = (name: string, native: number[], wasm: number[], goal: Goal | null = NEAR_NATIVE) =>
  `  ${name.padEnd(48)} ${fmt(spread(native).median).padStart(10)} ${fmt(spread(wasm).median).padStart(10)}  ${describeRatio(pairRatios(wasm, native), goal)}`;

export async function bench(args: string[]): Promise<number> {
  const only = args[0];
  if (args.length > 1 || (only !== undefined && !PARTS.includes(only)))
    throw new UsageError(`no benchmark "${args.join(" ")}" (${PARTS.join(", ")}, or none for all)`, `usage: fslab bench [${PARTS.join("|")}]`);
  if (!only || only === "exfat") {
    const native = await nativeBench("build/native/bench_exfat");
    try {
      const module = await loadCoreModule("exfat");
      console.log("exFAT free (batched discard), same C, native and wasm runs alternating after one warm-up pair; wasm/native per pair:");
      console.log(`  ${"case".padEnd(48)} ${"native".padStart(10)} ${"wasm".padStart(10)}  wasm/native, median of the pairs`);
      for (const c of CASES) {
        const [n, w] = await interleave(c.samples, [() => native.sample(c.name), () => wasmFreeMs(module, c.clusters, c.runs)], 1);
        console.log(nativeRow(c.name, n, w));
      }
    } finally {
      await native.close();
    }
  }
  if (!only || only === "blk") {
    const native = await nativeBench("build/native/bench_blk");
    try {
      const module = await loadCoreModule("blk");
      const [n, w] = await interleave(BLK_PAIRS, [() => native.sample(BLK_CASE), () => wasmBlkRunMs(module)], 1);
      console.log("blk-mq + mq-deadline (4 jobs x iodepth 4, random 4 KiB reads, one-tag disk), same C, native and wasm runs alternating after one warm-up pair:");
      console.log(nativeRow(BLK_CASE, n, w));
    } finally {
      await native.close();
    }
  }
  if (!only || only === "f2fs") {
    const native = await nativeBench("build/native/bench_f2fs");
    // LLVM, emcc's compiler, natively too: what of the gap is GCC's codegen, not wasm's cost
    const clang = await nativeBench("build/native-clang/bench_f2fs", "pipe").catch(() => null); // clang-14 comes with `npm test`'s tools; without it the line says so
    try {
      const module = await loadCoreModule("f2fs");
      console.log(
        `FxMark unlink simulation, same C, gcc, wasm${clang ? " and clang-14" : ""} runs in turn after one warm-up round (V8 runs a module's first calls in its baseline compiler); wasm/gcc per round:`,
      );
      console.log(`  ${"case".padEnd(48)} ${"gcc".padStart(10)} ${"wasm".padStart(10)}  wasm/gcc, median of the rounds`);
      for (const [i, clue] of [0, 7].entries()) {
        const wasm = () => {
          const t0 = performance.now();
          fxmarkUnlink(module, "MWUL", clue, 120, 10_000);
          return performance.now() - t0;
        };
        const sides = [() => native.sample(i), wasm, ...(clang ? [() => clang.sample(i)] : [])];
        const [n, w, c] = await interleave(F2FS_ROUNDS, sides, 1);
        console.log(nativeRow(native.cases[i], n, w));
        console.log(
          c
            ? `  ${"".padEnd(48)} clang-14 ${fmt(spread(c).median)}: wasm/clang ${describeRatio(pairRatios(w, c), null, "rounds")}`
            : `  ${"".padEnd(48)} clang-14: n/a (not installed)`,
        );
      }
    } finally {
      await native.close();
      await clang?.close();
    }
  }
  if (!only || only === "frames") {
    const r = await frameStats();
    console.log("Views in Chromium (headless, software canvas), 240 frames each:");
    console.log(describe("65,536 clusters, per-cluster delete replayed", r.cells, 60));
    console.log(describe("2^24-bit bitmap, downsampled, freed stretch by stretch", r.bitmap, 30));
    for (const line of describeVm(r.vm)) console.log(line);
  }
  if (!only || only === "sd") {
    const r = await sdWriteBench();
    const ratio = pairRatios(r.card, r.ram);
    console.log(`SD card (emulated SDHC, ${r.clockHz / 1e6} MHz, ${r.width}-bit bus as Linux set it), a sequential 1 MiB O_DIRECT write, in turn with the same write to a RAM-backed loop device:`);
    console.log(`  to /dev/mmcblk0: ${describeSpread(r.card, null, { what: "writes", digits: 1, unit: " ms" })}`);
    console.log(`  the card's latency model predicts ${r.modelMs.toFixed(1)} ms (2048 blocks: bus time at this clock and width, plus a Speed Class 4 card's programming time; web/src/vm/devices/timing.ts)`);
    console.log(`  to a loop device on tmpfs: ${describeSpread(r.ram, null, { what: "writes", digits: 1, unit: " ms" })}`);
    console.log(`  card/RAM per pair: ${describeSpread(ratio, { atLeast: 2, text: "the card at least twice as slow as RAM" }, { what: "pairs" })}`);
  }
  if (!only || only === "vm") {
    const bootMs = (cold: boolean) => async () => {
      const vm = new NodeVm();
      try {
        await vm.boot({ cold });
        return vm.bootMs;
      } finally {
        await vm.destroy();
      }
    };
    // cold, restore, cold, restore: each pair's ratio from two boots taken one after the other
    const [cold, restore] = await interleave(VM_PAIRS, [bootMs(true), bootMs(false)]);
    const s = (ms: number[]) => ms.map((t) => (t / 1000).toFixed(2) + " s").join(", ");
    console.log(`guest cold boot to a shell prompt in Node (v86): ${s(cold)}`);
    console.log(`guest restore of the saved state to a prompt in Node (v86), each right after the cold boot above it: ${s(restore)}`);
    console.log(`  cold boot / restore in Node, per pair: ${describeRatio(pairRatios(cold, restore), { atLeast: 20 }, "pairs", 1)}`);
  }
  if (!only || only === "cli") {
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
  }
  if (!only || only === "page") {
    const r = await pageLoads();
    console.log("Pages in Chromium (headless), built site from a plain static server (no compression), an empty cache per page:");
    for (const p of r.pages) {
      const what = p.route === "#/" ? "home page" : `playground ${p.route}`;
      const gz = sumBytes(p.js, "gzip");
      const limit = p.route === "#/" ? 120e3 : 250e3;
      const vm = p.v86 || p.xterm ? `; loads ${[p.v86 && "v86", p.xterm && "xterm.js"].filter(Boolean).join(" and ")} (goal: neither)` : "";
      console.log(`  ${what.padEnd(30)} JavaScript ${kb(sumBytes(p.js)).padStart(8)}, ${kb(gz).padStart(7)} gzip in ${p.js.length} files ${goal(gz <= limit, `at most ${kb(limit)} gzip`)}${vm}`);
    }
    const l = r.lab;
    const all = [...l.bytes.js, ...l.bytes.other];
    const by = (re: RegExp) => sumBytes(all.filter((f) => re.test(f.url)));
    const total = sumBytes(all);
    console.log(
      `  lab page ${l.route}: ${mbytes(total)} over the wire before its prompt answers ${goal(total <= 5e6, "at most 5 MB")}: ` +
        `saved state ${mbytes(by(/state\.bin/))}, wasm ${mbytes(by(/\.wasm(\.gz)?$/))}, JavaScript ${mbytes(sumBytes(l.bytes.js))}, ` +
        `root filesystem files ${mbytes(by(/\/vm\/rootfs\//))} (${all.filter((f) => /\/vm\/rootfs\//.test(f.url)).length} fetched), ` +
        `other ${mbytes(total - by(/state\.bin|\.wasm(\.gz)?$|\/vm\/rootfs\//) - sumBytes(l.bytes.js))}; ` +
        // and from a host that compresses scripts (GitHub Pages and Netlify do): the figure
        // beside the goal's plain server, for choosing between them
        `${mbytes(total - sumBytes(l.bytes.js) + sumBytes(l.bytes.js, "gzip"))} from a server that gzips scripts`,
    );
    const split = (s: LabStart) =>
      `scripts loaded ${s.jsDone.toFixed(0)}, VM starts ${s.boot.toFixed(0)}, ` +
      (s.stateFrom === "copy" ? `the state read from the page's kept copy in ${s.stateMs.toFixed(0)}` : `the state downloaded in ${s.stateDownload.toFixed(0)} and un-xz'd as it came, ${s.stateMs.toFixed(0)} in all`) +
      `, wasm downloaded in ${s.wasmDownload.toFixed(0)}, ` +
      `v86's core compiled at ${s.compiled.toFixed(0)}, the state restored at ${s.loaded.toFixed(0)}, running ${s.started.toFixed(0)}, prompt ${s.prompt.toFixed(0)}, ${Number.isNaN(s.snapshotAt) ? "no step snapshot (step 1 starts on the lab's own machine)" : `the step's snapshot (save_state) at ${s.snapshotAt.toFixed(0)} for ${s.snapshotMs.toFixed(0)}`}, a command typed at ${s.typed.toFixed(0)} answered at ${s.answered.toFixed(0)} ms`;
    console.log(`  first visit: ${split(l.first)}`);
    console.log(`  warm cache${l.warm.controlled ? " (from the service worker)" : " (HTTP cache; no service worker yet)"}, the median visit:  ${split(l.warm)}`);
    console.log(
      `  warm visits' answers (${l.warmAnswers.map((t) => t.toFixed(0)).join(", ")} ms): ` +
        describeSpread(l.warmAnswers, { atMost: 500 }, { what: "visits", digits: 0, unit: " ms" }),
    );
    console.log(
      `  the page's own cold boot ("Cold boot") right after each warm visit answered, from its start to the prompt: ${l.coldMs.map((t) => (t / 1000).toFixed(2) + " s").join(", ")}; ` +
        `cold boot / the same visit's warm answer: ${describeRatio(pairRatios(l.coldMs, l.warmAnswers), { atLeast: 20 }, "visits", 1)}`,
    );
  }
  if (!only || only === "snapshots") {
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
