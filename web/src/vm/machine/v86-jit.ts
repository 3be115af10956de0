// How v86's JIT groups the guest's code into wasm modules, in the page: set on the page's
// machine's core as it is instantiated (vm-start.ts). Node keeps v86's own (below).
//
// v86 compiles guest code that ran often enough (its JIT_THRESHOLD) into a wasm module of its
// own, which the host's V8 then compiles: with Liftoff at once, and, in a browser as a learner
// runs it, again with TurboFan once a function of it runs hot (dynamic tier-up, on background
// threads). v86 0.5 lets a module span up to 3 guest pages (MAX_PAGES), and gives each entry of a
// loop with several entries its own copy of the loop while entries x blocks stays within 250
// (MAX_EXTRA_BASIC_BLOCKS; past it, one copy behind a dispatcher: src/rust/control_flow.rs):
// about 85 KB of wasm a module here. Modules of one page, with such copies up to 50 blocks, cost
// V8 far less for the same guest code. Measured on the lab page with Chromium's defaults (2
// cores, 2026-12-07; v86's default first, ours second; `fslab bench idle` has the figure that
// follows from it):
//   - a step's first two checks after the page opened (two runs each): 2.56 and 2.59 s of the
//     renderer's CPU, against 1.69 and 1.44 s;
//   - a fresh ext4 volume, mounted, 1500 files made: 7.6 and 6.9 s (14.2 and 12.9 s of CPU),
//     against 4.9 and 5.0 s (8.2 and 8.5 s);
//   - a bash loop (20,000 iterations, 20 processes), the first time: 7.0 and 7.3 s against 6.3
//     and 6.2 s; after that the same (about 4 s);
//   - the page's own "Cold boot" (`fslab bench page`, nine each): 8.0-9.0 s against 4.9-6.0 s;
//   - ext4, the loop, f2fs (4000 files), exFAT and VFAT volumes, twice over: 62 s against 50 s;
//   - the SD card (io-schedulers' `iosched-run sd randread`, 16 fio runs): 42.6 and 42.2 s
//     (51.3 and 49.9 s of CPU) against 40.2 and 40.4 s (37.3 and 36.8 s).
// The page count is what matters: one page with copies up to 0, 20, 50 or 250 blocks measured
// alike (250's ext4 run 5.5 s); two pages with 50 near the default.
// The cost: more modules for the same code (the run of five volumes above compiled 601 against
// 351), and v86 holds 900 (WASM_TABLE_SIZE): when they run out it drops all its compiled code
// and compiles afresh as the guest goes on, as after a restore. That run never got there.
// Where V8 compiles the modules once, by Liftoff, and never tiers them up, the default is as good
// or better: in the tests' Chromium (e2e/browser.ts) f2fs-clue's walk took 166 s against 168 s,
// and in Node (node-vm.ts) the bash loop took 4.1 and 4.4 s against 4.7 and 4.9 s, so Node keeps
// v86's default.

/** v86's set_jit_config() indices (src/rust/jit.rs) */
const MAX_PAGES = 1;
const MAX_EXTRA_BASIC_BLOCKS = 3;

/** guest pages in one module of v86's JIT (v86's default: 3) */
export const JIT_MAX_PAGES = 1;
/** entries x blocks up to which a loop with several entries is copied per entry (v86's default: 250) */
export const JIT_MAX_EXTRA_BASIC_BLOCKS = 50;

type Exports = Record<string, unknown>;

export interface JitConfig {
  maxPages: number;
  maxExtraBasicBlocks: number;
}

function configCalls(exports: WebAssembly.Exports): { set: (i: number, v: number) => void; get: (i: number) => number } {
  const { set_jit_config: set, get_jit_config: get } = exports as Exports;
  if (typeof set !== "function" || typeof get !== "function")
    throw new Error("this v86 build has no set_jit_config() or get_jit_config() where fslab sets its JIT's module size (see web/src/vm/machine/v86-jit.ts)");
  return { set: set as (i: number, v: number) => void, get: get as (i: number) => number };
}

/** v86's JIT as this core has it now. */
export function jitConfig(exports: WebAssembly.Exports): JitConfig {
  const { get } = configCalls(exports);
  return { maxPages: get(MAX_PAGES), maxExtraBasicBlocks: get(MAX_EXTRA_BASIC_BLOCKS) };
}

/** Set fslab's JIT module size on a freshly instantiated core (kept through restores: v86's state does not hold it). */
export function withJitConfig(exports: WebAssembly.Exports): WebAssembly.Exports {
  const { set } = configCalls(exports);
  set(MAX_PAGES, JIT_MAX_PAGES);
  set(MAX_EXTRA_BASIC_BLOCKS, JIT_MAX_EXTRA_BASIC_BLOCKS);
  return exports;
}
