import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";
import { functionNames, hintedFunctions, withCompilationHints } from "./v86-hints";

const v86 = new Uint8Array(readFileSync(createRequire(import.meta.url).resolve("v86/build/v86.wasm")));
const hot = readFileSync(new URL("../../../v86-hot.txt", import.meta.url), "utf8").split("\n").filter(Boolean);
const names = functionNames(v86);

describe("v86's compilation hints", () => {
  it("names functions v86.wasm has: the list was made from this v86 (else make it again: web/v86-hot.ts)", () => {
    expect(hot.length).toBeGreaterThan(50);
    expect(hot.filter((f) => !names.has(f))).toEqual([]);
    expect(hot).toContain("main_loop");
  });

  it("adds one section a wasm engine accepts, naming the listed functions, and leaves the module as it was", () => {
    const out = withCompilationHints(v86, hot);
    const module = new WebAssembly.Module(out);
    expect(WebAssembly.Module.customSections(module, "metadata.code.compilation_priority")).toHaveLength(1);
    expect(hintedFunctions(out)).toEqual([...new Set(hot.map((f) => names.get(f)!))].sort((a, b) => a - b));
    // the same module otherwise: its imports, exports and every other byte
    expect(WebAssembly.Module.exports(module)).toEqual(WebAssembly.Module.exports(new WebAssembly.Module(v86)));
    const extra = out.length - v86.length;
    const at = out.findIndex((x, i) => x !== v86[i]);
    expect(Buffer.compare(Buffer.from(out.subarray(0, at)), Buffer.from(v86.subarray(0, at)))).toBe(0);
    expect(Buffer.compare(Buffer.from(out.subarray(at + extra)), Buffer.from(v86.subarray(at)))).toBe(0);
    expect(hintedFunctions(v86)).toEqual([]);
  });

  it("any set of the module's functions round-trips, in index order", () => {
    const all = [...names.keys()];
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...all), { maxLength: 400 }), (some) => {
        expect(hintedFunctions(withCompilationHints(v86, some))).toEqual(some.map((f) => names.get(f)!).sort((a, b) => a - b));
      }),
      { numRuns: 20 },
    );
  });

  it("refuses a name the module lacks, a module hinted already, and bytes that are not wasm", () => {
    expect(() => withCompilationHints(v86, ["main_loop", "no_such_function"])).toThrow(/no function no_such_function.*v86-hot/);
    expect(() => withCompilationHints(withCompilationHints(v86, ["main_loop"]), ["main_loop"])).toThrow(/already/);
    expect(() => withCompilationHints(new TextEncoder().encode("<html>"), [])).toThrow(/not a wasm module/);
    expect(() => withCompilationHints(v86.subarray(0, 5000), [])).toThrow(/past the module's end|ends inside/);
  });
});
