// How the page's machine starts (vm-host.ts): v86's core instantiated from the one compiled as it
// downloaded (fetch-ahead.ts), and the marks that split a start for npm run bench page.
import { GUEST } from "../machine/guest";
import { withFreshMemory } from "../machine/v86-exports";
import { withJitConfig } from "../machine/v86-jit";
import { v86Core } from "./fetch-ahead";

/**
 * v86's core compiled while it downloads: vm/v86.wasm.gz (0.4 MB, where the wasm is 2.1 MB, on
 * any static server) un-gzipped by the browser's DecompressionStream straight into the
 * streaming compiler. v86's own loader reads the whole uncompressed file first and compiles the
 * bytes. (Its zstd worker, which wants those bytes, serves only zstd-compressed disk images; the
 * saved state comes un-xz'd, see saved-state.ts.)
 */
export async function instantiateV86(imports: WebAssembly.Imports): Promise<WebAssembly.Exports> {
  const module = await v86Core();
  const exports = (await WebAssembly.instantiate(module, imports)).exports;
  markVm("compiled");
  return withFreshMemory(withJitConfig(exports), GUEST.memorySize);
}

/**
 * performance.mark("fslab:vm-<what>"), the newest of each kept (a page boots more than once),
 * and an event of that name on the window, dispatched at once: a PerformanceObserver hears of a
 * mark in a task of low priority, 5-30 ms later on a busy page (npm run bench page types its
 * command at the prompt's event).
 */
export function markVm(what: "boot" | "compiled" | "loaded" | "started" | "prompt"): void {
  performance.clearMarks(`fslab:vm-${what}`);
  performance.mark(`fslab:vm-${what}`);
  if (typeof window !== "undefined") window.dispatchEvent(new Event(`fslab:vm-${what}`));
}
