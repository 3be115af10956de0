// Node's loader knows the cores from the build, not from a list: every src/<core>/exports.c
// (and inspect) is a module wasm/Makefile builds, declared in the generated CoreModules map,
// and loadCoreModule() loads each.
import { readdirSync, existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCoreModule, type CoreName } from "./node-load";

const WASM = fileURLToPath(new URL("../../../wasm/", import.meta.url));
const folders = readdirSync(`${WASM}src`).filter((d) => existsSync(`${WASM}src/${d}/exports.c`)).sort();

describe("the cores Node loads", () => {
  it("are the folders with an exports.c, each in the generated CoreModules map", () => {
    expect(folders).toContain("inspect");
    const map = readFileSync(`${WASM}build/wasm/cores.d.mts`, "utf8");
    const declared = [...map.matchAll(/^ {2}([\w-]+): \w+Module;$/gm)].map((m) => m[1]).sort();
    expect(declared).toEqual(folders);
  });

  it("each loads, with the allocator every module exports", async () => {
    for (const core of folders as CoreName[]) {
      const m = await loadCoreModule(core);
      expect(typeof m._fx_malloc, core).toBe("function");
    }
  });
});
