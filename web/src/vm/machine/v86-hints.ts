// Compilation hints for v86's wasm core: a `metadata.code.compilation_priority` custom section
// (the WebAssembly compilation-hints proposal) that asks for the named functions to be compiled
// at once and optimised at once (compilation and optimization priority 0).
//
// Why: v86 runs the guest in its own core (main_loop, the interpreter, the page lookups) and in
// the many small modules its JIT makes. Our tests' Chromium holds V8's dynamic tier-up off,
// because TurboFan's second compile of the JIT's modules cost more CPU than it saved
// (e2e/browser.ts). With the hints, V8 (behind --wasm-compilation-hints) compiles the core's hot
// functions with TurboFan in the background from the start, while everything else stays on
// Liftoff: the same guest commands took 8-15% less CPU in the page (e2e/browser.ts has the
// figures). A browser without that flag skips the section, as it skips any custom section.
//
// The section, as V8 decodes it: vec(function index, byte offset 0, hint length 2,
// compilation priority, optimization priority), the indices ascending, placed before the code
// section (the proposal's code-metadata sections precede the code they describe).

const SECTION = "metadata.code.compilation_priority";

/** A wasm module as a reader sees it: the byte offsets and ids of its sections. */
interface Section {
  id: number;
  /** where the section's id byte is */
  start: number;
  /** where its payload begins, and ends */
  body: number;
  end: number;
}

class Reader {
  constructor(
    readonly b: Uint8Array,
    public p = 0,
  ) {}

  u32(): number {
    let r = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.p >= this.b.length) throw new Error("v86-hints: the module ends inside a number");
      const x = this.b[this.p++];
      r += (x & 0x7f) * 2 ** shift;
      if (!(x & 0x80)) return r;
    }
    throw new Error("v86-hints: a number runs past 5 bytes");
  }

  name(): string {
    const n = this.u32();
    const s = new TextDecoder().decode(this.b.subarray(this.p, this.p + n));
    this.p += n;
    return s;
  }
}

function u32(n: number): number[] {
  const out: number[] = [];
  do {
    let x = n & 0x7f;
    n >>>= 7;
    if (n) x |= 0x80;
    out.push(x);
  } while (n);
  return out;
}

function sections(wasm: Uint8Array): Section[] {
  if (wasm.length < 8 || wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) throw new Error("v86-hints: not a wasm module");
  const r = new Reader(wasm, 8);
  const out: Section[] = [];
  while (r.p < wasm.length) {
    const start = r.p;
    const id = wasm[r.p++];
    const len = r.u32();
    const body = r.p;
    if (body + len > wasm.length) throw new Error(`v86-hints: section ${id} runs past the module's end`);
    out.push({ id, start, body, end: body + len });
    r.p = body + len;
  }
  return out;
}

/** Function index by name, from the module's `name` section (v86's build keeps it). */
export function functionNames(wasm: Uint8Array): Map<string, number> {
  const names = new Map<string, number>();
  for (const s of sections(wasm)) {
    if (s.id !== 0) continue;
    const r = new Reader(wasm, s.body);
    if (r.name() !== "name") continue;
    while (r.p < s.end) {
      const sub = wasm[r.p++];
      const len = r.u32();
      const next = r.p + len;
      if (sub === 1) {
        // function names: vec(index, name)
        for (let n = r.u32(); n > 0; n--) {
          const index = r.u32();
          names.set(r.name(), index);
        }
      }
      r.p = next;
    }
  }
  return names;
}

/**
 * `wasm` with the compilation-priority section for the functions named, inserted before the
 * code section. A name the module does not have is an error: the list (web/v86-hot.txt) was
 * made from another v86, and must be made again.
 */
export function withCompilationHints(wasm: Uint8Array, functions: readonly string[]): Uint8Array<ArrayBuffer> {
  const all = sections(wasm);
  if (all.some((s) => s.id === 0 && new Reader(wasm, s.body).name() === SECTION)) throw new Error("v86-hints: the module has its compilation hints already");
  const code = all.find((s) => s.id === 10);
  if (!code) throw new Error("v86-hints: the module has no code section");
  const names = functionNames(wasm);
  const missing = functions.filter((f) => !names.has(f));
  if (missing.length) throw new Error(`v86-hints: v86.wasm has no function ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ` (and ${missing.length - 3} more)` : ""}: make web/v86-hot.txt again (web/v86-hot.ts)`);
  const indices = [...new Set(functions.map((f) => names.get(f)!))].sort((a, b) => a - b);
  const entries = indices.flatMap((i) => [...u32(i), 0, 2, 0, 0]);
  const name = new TextEncoder().encode(SECTION);
  const payload = [...u32(name.length), ...name, ...u32(indices.length), ...entries];
  const section = [0, ...u32(payload.length), ...payload];
  const out = new Uint8Array(wasm.length + section.length);
  out.set(wasm.subarray(0, code.start), 0);
  out.set(section, code.start);
  out.set(wasm.subarray(code.start), code.start + section.length);
  return out;
}

/** The hinted functions' indices, read back from a module's section (for tests and checks). */
export function hintedFunctions(wasm: Uint8Array): number[] {
  for (const s of sections(wasm)) {
    if (s.id !== 0) continue;
    const r = new Reader(wasm, s.body);
    if (r.name() !== SECTION) continue;
    const out: number[] = [];
    for (let n = r.u32(); n > 0; n--) {
      out.push(r.u32());
      const offset = r.u32();
      const len = r.u32();
      if (offset !== 0 || len !== 2) throw new Error("v86-hints: a hint that is not a whole function's two priorities");
      r.p += len;
    }
    return out;
  }
  return [];
}
