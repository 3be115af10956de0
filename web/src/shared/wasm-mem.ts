// Linear-memory helpers every core's TypeScript side uses.

/** What these helpers need of a module: every core's (wasm/build/wasm/<core>.d.mts) has it. */
export interface WasmMemory {
  readonly HEAPU8: Uint8Array;
  readonly HEAPU32: Uint32Array;
  _fx_malloc(n: number): number;
  _fx_free(p: number): void;
}

/** A NUL-terminated string the C side returned, as UTF-8. */
export function cString(m: Pick<WasmMemory, "HEAPU8">, ptr: number): string {
  const end = m.HEAPU8.indexOf(0, ptr);
  return new TextDecoder().decode(m.HEAPU8.subarray(ptr, end < 0 ? ptr : end));
}

/** Copies u32 values into fresh wasm memory (free it with _fx_free). */
export function allocU32(m: Pick<WasmMemory, "HEAPU32" | "_fx_malloc">, xs: number[]): number {
  const p = m._fx_malloc(Math.max(1, xs.length) * 4);
  m.HEAPU32.set(xs.map((x) => x >>> 0), p >>> 2);
  return p;
}
