import { describe, expect, it } from "vitest";
import { Script, createContext, runInContext } from "node:vm";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { moduleAsClassic } from "./classic-scripts";

const run = (code: string) => {
  const ctx = createContext({});
  runInContext(code, ctx);
  return ctx as Record<string, any>;
};

describe("moduleAsClassic (a module's build as a classic script)", () => {
  it("sets a global to the module's exports, by their exported names, in strict mode", () => {
    const g = run(moduleAsClassic("const a=41;function f(){return a+1}function s(){return this}export{f as answer,a,s as self};\n//# sourceMappingURL=m.mjs.map\n", "mod", "m.mjs"));
    expect(g.mod.answer()).toBe(42);
    expect(g.mod.a).toBe(41);
    const detached = g.mod.self;
    expect(detached()).toBeUndefined(); // strict, as a module is
    expect(Object.keys(g)).toEqual(["mod"]); // nothing else leaks into the page
  });

  it("refuses what a classic script cannot be: imports, import.meta, exports elsewhere than at the end", () => {
    expect(() => moduleAsClassic('import{x}from"./x.js";export{x};', "m", "a.mjs")).toThrow(/imports something/);
    expect(() => moduleAsClassic("const u=import.meta.url;export{u};", "m", "b.mjs")).toThrow(/import\.meta/);
    expect(() => moduleAsClassic("export{a};const a=1;", "m", "c.mjs")).toThrow(/one export list at its end/);
    expect(() => moduleAsClassic("const a=1;export{a};export{a as b};", "m", "d.mjs")).toThrow(/found 2/);
    expect(() => moduleAsClassic("const a=1;", "m", "e.mjs")).toThrow(/found 0/);
  });

  it("makes scripts of the xterm.js and fit addon builds this site ships", () => {
    const require = createRequire(import.meta.url);
    for (const [file, global, name] of [
      ["@xterm/xterm/lib/xterm.mjs", "fslabXterm", "Terminal"],
      ["@xterm/addon-fit/lib/addon-fit.mjs", "fslabXtermFit", "FitAddon"],
    ]) {
      const code = moduleAsClassic(readFileSync(require.resolve(file), "utf8"), global, file);
      new Script(code, { filename: file }); // compiles as a classic script
      expect(code.startsWith(`var ${global}=(function(){"use strict";`)).toBe(true);
      expect(code).toMatch(new RegExp(`return\\{${name}:[\\w$]+\\}\\}\\)\\.call\\(void 0\\);\\n$`));
    }
  });
});
