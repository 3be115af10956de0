// How v86's JIT groups the guest's code into wasm modules, in the page: set on the page's
// machine's core as it is instantiated (vm-start.ts). Node keeps v86's own (below).
//
// v86 compiles guest code that ran often enough (its JIT_THRESHOLD) into a wasm module of its
// own, which the host's V8 then compiles: with Liftoff at once, and, in a browser as a learner
// runs it, again with TurboFan once a function of it runs hot (dynamic tier-up, on background
// threads). v86 0.5 puts up to 3 guest pages in one module (MAX_PAGES) and up to 250 basic blocks
// besides the hot ones (MAX_EXTRA_BASIC_BLOCKS): about 85 KB of wasm a module here, compiled whole
// twice. A module of one page with at most 50 such blocks costs V8 far less for the same guest
// code. Measured on the lab page with Chromium's defaults (2 cores, 2026-12-07, two interleaved
// runs each, `fslab bench idle` has the figure that follows from it):
//   - a step's first two checks after the page opened: 2.56 and 2.59 s of the renderer's CPU,
//     against 1.69 and 1.44 s;
//   - a fresh ext4 volume, mounted, 1500 files made: 7.6 and 6.9 s (14.2 and 12.9 s of CPU),
//     against 4.9 and 5.0 s (8.2 and 8.5 s);
//   - a bash loop (20,000 iterations, 20 processes), the first time: 7.0 and 7.3 s against 6.3
//     and 6.2 s; after that the same (about 4 s);
//   - the page's own "Cold boot" (`fslab bench page`, nine each): 8.0-9.0 s against 4.9-6.0 s.
// One page and 250 blocks measured about the same as 1 and 50 but for the ext4 run (5.5 s); 3
// pages and 50 blocks as the default. Where V8 compiles the modules once, by Liftoff, and never
// tiers them up, the default is as good or better: in the tests' Chromium (e2e/browser.ts) a
// lab's walk took as long either way (f2fs-clue, 166 s against 168 s), and in Node (node-vm.ts)
// the bash loop above took 4.7 and 4.9 s against 4.1 and 4.4 s with the default, which Node
// keeps.

/** v86's set_jit_config() indices (src/rust/jit.rs) */
const MAX_PAGES = 1;
const MAX_EXTRA_BASIC_BLOCKS = 3;

/** guest pages in one module of v86's JIT (v86's default: 3) */
export const JIT_MAX_PAGES = 1;
/** basic blocks a module holds besides those that ran hot (v86's default: 250) */
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
