// End-to-end: the built site (web/dist) served on localhost, driven in Debian's Chromium, and
// the guest booted in Node. Two projects, told apart by what a file imports:
//   chromium  the files that open the page (they import ./browser)
//   node      the rest: the guest in Node, the CLI against it (they need no built site)
// `npm test` runs the node project beside the Chromium one (bin/test.mjs); `vitest run --config
// e2e/vitest.config.ts` alone runs both, one file at a time.
import { defineConfig } from "vitest/config";
import { readdirSync, readFileSync } from "node:fs";

const dir = new URL(".", import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith(".e2e.ts"));
const opensPage = (f: string) => /from "\.\/browser"/.test(readFileSync(new URL(f, dir), "utf8"));
const chromium = files.filter(opensPage).map((f) => `e2e/${f}`);
const node = files.filter((f) => !opensPage(f)).map((f) => `e2e/${f}`);

export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false, // two cores: one browser with one VM at a time
    projects: [
      { extends: true, test: { name: "chromium", include: chromium, globalSetup: ["e2e/serve.ts"] } },
      { extends: true, test: { name: "node", include: node } },
    ],
  },
});
