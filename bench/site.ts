// The built site served by Vite's preview server (a plain static server: no compression) and
// Debian's Chromium, headless, for the benchmarks that measure the page as a learner gets it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { preview } from "vite";
import { chromium, type BrowserContext } from "playwright-core";
import { leaveWhenAsked } from "../e2e/leave";

export const REPO = fileURLToPath(new URL("..", import.meta.url));
const CONFIG = `${REPO}web/vite.config.ts`;

export interface Site {
  /** the site's URL, ending in "/" */
  base: string;
  /** a browser with a fresh profile (an empty HTTP cache); closed when the run ends */
  browser(): Promise<BrowserContext>;
}

/** Builds the site (vite build), serves it, and runs `fn`; everything is torn down after. */
export async function withBuiltSite<T>(fn: (site: Site) => Promise<T>): Promise<T> {
  execFileSync("npx", ["vite", "build", "--config", CONFIG, "--logLevel", "error"], { cwd: REPO, stdio: "inherit" });
  const server = await preview({ configFile: CONFIG, preview: { host: "127.0.0.1", port: 0, strictPort: false }, logLevel: "error" });
  const open: { ctx: BrowserContext; profile: string }[] = [];
  try {
    return await fn({
      base: server.resolvedUrls!.local[0],
      async browser() {
        const profile = mkdtempSync(join(tmpdir(), "fslab-bench-"));
        const ctx = await chromium.launchPersistentContext(profile, {
          executablePath: "/usr/bin/chromium",
          headless: true,
          viewport: { width: 1280, height: 900 },
          args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
        });
        leaveWhenAsked(ctx);
        open.push({ ctx, profile });
        return ctx;
      },
    });
  } finally {
    for (const { ctx, profile } of open) {
      await ctx.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    }
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  }
}
