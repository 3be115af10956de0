import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { JIT_MAX_EXTRA_BASIC_BLOCKS, JIT_MAX_PAGES, jitConfig, withJitConfig } from "./v86-jit";

/** v86's real core, instantiated with imports that do nothing: its JIT's settings are statics in the core's own memory */
function v86Core(): WebAssembly.Exports {
  const module = new WebAssembly.Module(readFileSync(createRequire(import.meta.url).resolve("v86/build/v86.wasm")));
  const env: Record<string, unknown> = {};
  for (const i of WebAssembly.Module.imports(module))
    env[i.name] = i.kind === "table" ? new WebAssembly.Table({ initial: 2048, element: "anyfunc" }) : () => 0;
  return new WebAssembly.Instance(module, { env: env as WebAssembly.ModuleImports }).exports;
}

describe("v86's JIT module size", () => {
  it("reads v86's own defaults where v86's source names them (MAX_PAGES 3, MAX_EXTRA_BASIC_BLOCKS 250)", () => {
    // were the indices another setting's, these would not be v86's documented defaults
    expect(jitConfig(v86Core())).toEqual({ maxPages: 3, maxExtraBasicBlocks: 250 });
  });

  it("sets one page and 50 extra blocks on the core it is given, and hands the same exports on", () => {
    const core = v86Core();
    expect(withJitConfig(core)).toBe(core);
    expect(jitConfig(core)).toEqual({ maxPages: JIT_MAX_PAGES, maxExtraBasicBlocks: JIT_MAX_EXTRA_BASIC_BLOCKS });
    expect([JIT_MAX_PAGES, JIT_MAX_EXTRA_BASIC_BLOCKS]).toEqual([1, 50]);
  });

  it("refuses a core without the calls, naming where fslab sets them", () => {
    expect(() => withJitConfig({ main_loop: () => 0 })).toThrow(/no set_jit_config\(\) or get_jit_config\(\).*v86-jit\.ts/);
  });
});
