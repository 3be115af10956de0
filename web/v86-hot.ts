// Writes web/v86-hot.txt: the functions of v86's own wasm core that a guest's work runs in,
// hottest first, for the compilation hints the site adds to v86.wasm (src/vm/machine/v86-hints.ts).
//
//   npx vite build --config web/vite.config.ts && npx tsx web/v86-hot.ts
//
// How: the built site in Debian's Chromium with V8 held to Liftoff (no TurboFan, so no inlining:
// each sample's function is the one that ran), one lab page, a spread of the labs' guest work
// typed in its terminal (a shell loop, tmpfs, and each topic's guestWork: its filesystem, fio
// on null_blk, the SD card), and V8's sampling profiler over it. Every core function a sample
// landed in is kept. Run again when v86 is upgraded: a name no longer in v86.wasm fails the
// unit test (src/vm/machine/v86-hints.test.ts), and a hint missing only leaves that function on Liftoff.
import { preview } from "vite";
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { functionNames } from "./src/vm/machine/v86-hints";
import { loadTopics } from "./src/topics/node-index";

const OUT = new URL("./v86-hot.txt", import.meta.url);
// the guest's own work (a shell loop, tmpfs), then each topic's (its manifest's guestWork)
const WORK = [
  "i=0; while [ $i -lt 8000 ]; do i=$((i+1)); done",
  "mkdir -p /tmp/t; for i in $(seq 600); do : > /tmp/t/f$i; done; rm -r /tmp/t",
  ...(await loadTopics()).flatMap((t) => t.guestWork ?? []),
];

const server = await preview({ configFile: new URL("./vite.config.ts", import.meta.url).pathname, preview: { host: "127.0.0.1", port: 0 }, logLevel: "error" });
const profileDir = mkdtempSync(join(tmpdir(), "fslab-hot-"));
const ctx = await chromium.launchPersistentContext(profileDir, { executablePath: "/usr/bin/chromium", headless: true, serviceWorkers: "block", args: ["--js-flags=--liftoff-only", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
try {
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto(`${server.resolvedUrls!.local[0]}#/lab/exfat-discard`);
  await page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 300_000 });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  await cdp.send("Profiler.start");
  for (const [i, cmd] of WORK.entries()) {
    const marker = `:hot-done-${i}:`;
    // the marker's quotes keep the typed line itself from matching
    await page.evaluate((t) => (window as any).__fslabTerminal.input(t), `${cmd}\necho ':hot-done''-${i}:'\n`);
    await page.waitForFunction(
      (m) => {
        const b = (window as any).__fslabTerminal.buffer.active;
        for (let k = Math.max(0, b.length - 40); k < b.length; k++) if (b.getLine(k)?.translateToString(true) === m) return true;
        return false;
      },
      marker,
      { timeout: 600_000, polling: 250 },
    );
    console.error(`done: ${cmd.slice(0, 60)}`);
  }
  const { profile } = await cdp.send("Profiler.stop");
  // self time per function of the core: frames whose URL is the wasm's and whose name is one of
  // its functions (V8's js-to-wasm wrappers carry the module's URL too)
  const core = functionNames(readFileSync(createRequire(import.meta.url).resolve("v86/build/v86.wasm")));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let all = 0;
  for (const [k, id] of profile.samples!.entries()) {
    const f = byId.get(id)!.callFrame;
    const dt = profile.timeDeltas![k] ?? 0;
    all += dt;
    if (f.url.includes("v86.wasm") && core.has(f.functionName)) self.set(f.functionName, (self.get(f.functionName) ?? 0) + dt);
  }
  const rows = [...self].sort((a, b) => b[1] - a[1]);
  const inCore = rows.reduce((s, [, t]) => s + t, 0);
  writeFileSync(OUT, rows.map(([name]) => name).join("\n") + "\n");
  console.log(`${rows.length} core functions, ${((100 * inCore) / all).toFixed(0)}% of the samples: ${OUT.pathname}`);
} finally {
  await ctx.close();
  rmSync(profileDir, { recursive: true, force: true });
  server.httpServer.close();
}
