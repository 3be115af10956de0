// fslab bench f2fs: the FxMark unlink simulation, 120 cores x 10,000 unlinks, the same C natively
// (wasm/src/f2fs/bench_f2fs.c, by gcc and by clang-14) and as wasm, in turn (bench/paired.ts).
import { fxmarkUnlink } from "../../web/src/topics/f2fs/fxmark";
import { describeRatio, interleave, pairRatios, spread } from "../paired";
import { fmt, nativeBench, nativeRow, withNativeBench, type BenchPart } from "../report";

/** rounds (~0.1 s a side) */
const F2FS_ROUNDS = 15;

export const part: BenchPart = {
  order: 3,
  summary: "FxMark unlink, 120 cores x 10,000 unlinks: natively (gcc, and clang-14 when installed) and as wasm",
  async run() {
    await withNativeBench("build/native/bench_f2fs", "f2fs", async (native, module) => {
      // LLVM, emcc's compiler, natively too: what of the gap is GCC's codegen, not wasm's cost
      const clang = await nativeBench("build/native-clang/bench_f2fs", "pipe").catch(() => null); // clang-14 comes with `npm test`'s tools; without it the line says so
      try {
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
        await clang?.close();
      }
    });
  },
};
