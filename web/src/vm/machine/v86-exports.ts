// What the page and Node hand v86 as its wasm core's exports (its `wasm_fn` option): the
// core's own, with one call made cheaper.
//
// Before it unpacks a saved state, v86 zeroes all of the guest's memory (unpack_memory ->
// zero_memory(0, memory_size)): 256 MiB written page by page, about 150 ms of a 300 ms
// restore in Chromium on a 2-core machine. On a new instance that memory is already zero
// (WebAssembly gives it zeroed), except the first megabyte, where v86 put the BIOSes while it
// built the machine. So the first whole-memory zeroing of an instance that has not run a
// single instruction clears only that megabyte. Any later one (a snapshot restored into a
// running machine: "Reset this step") clears only the blocks that are not zero already:
// writing to pages the guest never touched would make the browser commit every one of them
// (the 150 ms again), and reading them commits nothing.

/** The BIOS and VGA BIOS live below 1 MiB (0xC0000-0xFFFFF); v86 writes nothing above before a restore. */
const WRITTEN_BEFORE_RESTORE = 1 << 20;
/** zeroed, or found zero, a block at a time */
const BLOCK = 64 << 10;

type Exports = Record<string, unknown>;

export function withFreshMemory(exports: WebAssembly.Exports, memorySize: number): WebAssembly.Exports {
  const own = exports as Exports;
  const zeroAll = own.zero_memory as (addr: number, len: number) => void;
  const isZeroed = own.is_memory_zeroed as (addr: number, len: number) => boolean;
  const zero = (addr: number, len: number) => {
    for (let a = addr; a < addr + len; a += BLOCK) {
      const n = Math.min(BLOCK, addr + len - a);
      if (!isZeroed(a, n)) zeroAll(a, n);
    }
  };
  const mainLoop = own.main_loop as (...a: unknown[]) => unknown;
  let fresh = true;
  return {
    ...own,
    zero_memory(addr: number, len: number) {
      if (fresh && addr === 0 && len === memorySize) {
        fresh = false;
        zero(0, WRITTEN_BEFORE_RESTORE);
        return;
      }
      fresh = false;
      zero(addr, len);
    },
    main_loop(...a: unknown[]) {
      fresh = false;
      return mainLoop(...a);
    },
  } as WebAssembly.Exports;
}
