// xterm.js (and its fit addon) reach the lab page as one classic script,
// assets/xterm-classic-<hash>.js, made here from their ES module builds: the page is
// cross-origin isolated, and there Chromium uses no code cache for a module script, so a warm
// visit parsed xterm.js again each time (web/src/vm/browser/classic-script.ts says more).
//   dev:   served at the same path
//   build: emitted as that file (the service worker precaches it with the other assets)
// Each module becomes a function that returns its exports, run once, its result a global of the
// page (fslabXterm, fslabXtermFit); both packages' builds are single modules that import nothing.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Plugin } from "vite";

const require = createRequire(import.meta.url);

/** An ES module that imports nothing, as a classic script that sets `global` to its exports. */
export function moduleAsClassic(code: string, global: string, file: string): string {
  const body = code.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
  const exports = [...body.matchAll(/export\s*\{([^}]*)\};?/g)];
  if (exports.length !== 1 || !/export\s*\{[^}]*\};?\s*$/.test(body))
    throw new Error(`${file}: expected one export list at its end, found ${exports.length}: its build changed, see web/classic-scripts.ts`);
  if (/\bimport\s*[{*"'(]|\bimport\.meta\b/.test(body)) throw new Error(`${file}: it imports something or reads import.meta, which a classic script cannot`);
  const fields = exports[0][1].split(",").map((part) => {
    const [local, exported = local] = part.trim().split(/\s+as\s+/);
    if (!/^[\w$]+$/.test(local) || !/^[\w$]+$/.test(exported)) throw new Error(`${file}: cannot read its export "${part.trim()}"`);
    return `${exported}:${local}`;
  });
  return `var ${global}=(function(){"use strict";${body.slice(0, exports[0].index)}\nreturn{${fields.join(",")}}}).call(void 0);\n`;
}

function xtermClassic(): string {
  const part = (pkgFile: string, global: string) => moduleAsClassic(readFileSync(require.resolve(pkgFile), "utf8"), global, pkgFile);
  return part("@xterm/xterm/lib/xterm.mjs", "fslabXterm") + part("@xterm/addon-fit/lib/addon-fit.mjs", "fslabXtermFit");
}

export function classicScripts(): Plugin {
  const code = xtermClassic();
  const fileName = `assets/xterm-classic-${createHash("sha256").update(code).digest("hex").slice(0, 10)}.js`;
  return {
    name: "fslab-classic-scripts",
    // its path for the page (web/src/vite-env.d.ts), relative to the site
    config: () => ({ define: { __XTERM_CLASSIC__: JSON.stringify(fileName) } }),
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split("?")[0] !== `/${fileName}`) return next();
        res.setHeader("Content-Type", "text/javascript");
        res.end(code);
      });
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName, source: code });
    },
  };
}
