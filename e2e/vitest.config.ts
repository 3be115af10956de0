// End-to-end: the built site (web/dist) served on localhost, driven in Debian's Chromium, and
// the guest booted in Node. Two projects, told apart by what a file imports:
//   chromium  the files that open the page (they import ./browser)
//   node      the rest: the guest in Node, the CLI against it (they need no built site)
// `npm test` runs the node project beside the Chromium one (bin/test.mjs); `vitest run --config
// e2e/vitest.config.ts` alone runs both, one file at a time.
// The files: e2e/*.e2e.ts and each topic's own (web/src/topics/<topic>/*.e2e.ts).
import { defineConfig } from "vitest/config";
import { readdirSync, readFileSync } from "node:fs";
import { topicFiles } from "../web/src/topics/folders.ts";

const root = new URL("..", import.meta.url);
const files = [
  ...readdirSync(new URL("e2e/", root)).filter((f) => f.endsWith(".e2e.ts")).map((f) => `e2e/${f}`),
  ...topicFiles(".e2e.ts").map((f) => `web/src/topics/${f}`),
].sort();
const opensPage = (f: string) => /from "(\.\/|(\.\.\/)+e2e\/)browser"/.test(readFileSync(new URL(f, root), "utf8"));
const chromium = files.filter(opensPage);
const node = files.filter((f) => !opensPage(f));

export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false, // two cores: one browser with one VM at a time
    // expect.poll without a timeout of its own gave up after vitest's 1 s: too short for a
    // page's first answer (a worker's wasm, a fetch) while the other lanes load both cores
    expect: { poll: { timeout: 60_000 } },
    projects: [
      { extends: true, test: { name: "chromium", include: chromium, globalSetup: ["e2e/serve.ts"] } },
      { extends: true, test: { name: "node", include: node } },
    ],
  },
});
