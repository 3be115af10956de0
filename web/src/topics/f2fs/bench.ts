// fslab bench f2fs: the FxMark unlink simulation, 120 cores x 10,000 unlinks, the same C natively
// (wasm/src/f2fs/bench_f2fs.c, by gcc and by clang-14) and as wasm, in turn (bench/paired.ts),
// in fresh processes (bench/processes.ts).
import { fxmarkUnlink } from "./fxmark";
import { interleave } from "../../../../bench/paired";
import { acrossProcesses } from "../../../../bench/processes";
import { NEAR_NATIVE, nativeBench, withNativeBench, type BenchPart } from "../../../../bench/report";

/** rounds (~0.1 s a side) */
const F2FS_ROUNDS = 15;

export const part: BenchPart = {
  order: 3,
  summary: "FxMark unlink, 120 cores x 10,000 unlinks: natively (gcc, and clang-14 when installed) and as wasm, in fresh processes",
  async run() {
    await acrossProcesses(
      "f2fs",
      "FxMark unlink simulation, same C, gcc, wasm and clang-14 (when installed) in turn after one warm-up round (V8 runs a module's first calls in its baseline compiler)",
      (add) =>
        withNativeBench("build/native/bench_f2fs", "f2fs", async (native, module) => {
          // LLVM, emcc's compiler, natively too: what of the gap is GCC's codegen, not wasm's cost
          const clang = await nativeBench("build/native-clang/bench_f2fs", "pipe").catch(() => null); // clang-14 comes with `npm test`'s tools
          try {
            for (const [i, clue] of [0, 7].entries()) {
              const wasm = () => {
                const t0 = performance.now();
                fxmarkUnlink(module, "MWUL", clue, 120, 10_000);
                return performance.now() - t0;
              };
              const sides = [() => native.sample(i), wasm, ...(clang ? [() => clang.sample(i)] : [])];
              const [n, w, c] = await interleave(F2FS_ROUNDS, sides, 1);
              add({ name: native.cases[i], ratio: "gcc against wasm, wasm/gcc", native: n, wasm: w, goal: NEAR_NATIVE });
              // a row in every process or in none: the rows are matched by position
              if (c) add({ name: `${native.cases[i]}, clang-14`, ratio: "clang-14 against wasm, wasm/clang-14", native: c, wasm: w, goal: null });
            }
          } finally {
            await clang?.close();
          }
        }),
    );
  },
};
