// The views' frame times in Chromium: builds the page, serves it, opens #/bench/frames
// (web/src/pages/BenchFrames.tsx) headless and reads what it measured.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { preview } from "vite";
import { chromium } from "playwright-core";
import type { FrameStats } from "../web/src/pages/BenchFrames";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const CONFIG = `${REPO}web/vite.config.ts`;

export async function frameStats(): Promise<{ cells: FrameStats; bitmap: FrameStats }> {
  execFileSync("npx", ["vite", "build", "--config", CONFIG, "--logLevel", "error"], { cwd: REPO, stdio: "inherit" });
  const server = await preview({ configFile: CONFIG, preview: { host: "127.0.0.1", port: 0, strictPort: false }, logLevel: "error" });
  const profile = mkdtempSync(join(tmpdir(), "fslab-bench-"));
  try {
    const ctx = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium",
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });
    try {
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      await page.goto(`${server.resolvedUrls!.local[0]}#/bench/frames`);
      await page.waitForFunction(() => (window as any).__frameBench?.bitmap || (window as any).__frameBench?.error, null, { timeout: 180_000 });
      const r = await page.evaluate(() => (window as any).__frameBench);
      if (r.error) throw new Error(`the frame benchmark failed in the page: ${r.error}`);
      return r;
    } finally {
      await ctx.close();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** One line per scene: the frame rate achieved, and the work per frame against the frame's budget. */
export function describe(name: string, s: FrameStats, targetFps: number): string {
  const interval = quantile(s.intervalMs, 0.5);
  const work50 = quantile(s.workMs, 0.5);
  const work95 = quantile(s.workMs, 0.95);
  const budget = 1000 / targetFps;
  return (
    `  ${name.padEnd(52)} ${(1000 / interval).toFixed(0).padStart(4)} fps (median interval ${interval.toFixed(1)} ms); ` +
    `work per frame median ${work50.toFixed(1)} ms, p95 ${work95.toFixed(1)} ms = ${(work95 / budget).toFixed(2)}x the ${targetFps} fps budget of ${budget.toFixed(1)} ms`
  );
}
