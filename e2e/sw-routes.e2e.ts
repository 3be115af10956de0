// The service worker's static routes (web/public/sw-routes.js): once it controls the page, the
// site's assets come from its precache without a fetch event; on a server that varies its
// scripts on Origin the routes are left out (the router's lookup would miss them and go to the
// network), and on both the page loads offline.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { preview, type PreviewServer } from "vite";
import { launch } from "./browser";

/** the home page's own scripts and styles, and which source the worker's router chose for each */
async function assetSources(page: import("playwright-core").Page): Promise<{ name: string; matched: string; final: string }[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => /\/assets\/[^/]+\.(js|css)$/.test(new URL(e.name).pathname))
      .map((e) => {
        const r = e as PerformanceResourceTiming & { workerMatchedSourceType?: string; workerFinalSourceType?: string };
        return { name: new URL(e.name).pathname.replace(/.*\//, ""), matched: r.workerMatchedSourceType ?? "", final: r.workerFinalSourceType ?? "" };
      }),
  );
}

/** The home page twice (the second time under the service worker), then offline: what served its assets. */
async function visit(base: string) {
  const b = await launch({ serviceWorkers: "allow" });
  try {
    await b.page.goto(base);
    await b.page.evaluate(() => navigator.serviceWorker.ready);
    await b.page.reload();
    await b.page.locator("h1").first().waitFor();
    expect(await b.page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    const online = await assetSources(b.page);
    await b.ctx.setOffline(true);
    await b.page.reload();
    await b.page.locator("h1").first().waitFor({ timeout: 30_000 });
    const offline = await assetSources(b.page);
    await b.ctx.setOffline(false);
    expect(b.errors).toEqual([]);
    return { online, offline };
  } finally {
    await b.close();
  }
}

describe("the service worker's static routes", () => {
  it("serve the site's assets from the precache, without a fetch event; offline too", async () => {
    const { online, offline } = await visit(inject("baseUrl"));
    expect(online.length).toBeGreaterThan(3);
    for (const s of [...online, ...offline]) expect(s, s.name).toMatchObject({ matched: "cache", final: "cache" });
  });

  describe("on a server that sends Vary: Origin", () => {
    let server: PreviewServer;
    beforeAll(async () => {
      // Vite's own default: the page's origin echoed back, and Vary: Origin
      server = await preview({
        configFile: new URL("../web/vite.config.ts", import.meta.url).pathname,
        preview: { host: "127.0.0.1", port: 0, strictPort: false, cors: { origin: /^http:\/\/127\.0\.0\.1(:\d+)?$/ } },
        logLevel: "error",
      });
    });
    afterAll(() => new Promise<void>((r) => server.httpServer.close(() => r())));

    it("leave the assets to the fetch handler, which serves them offline", async () => {
      const base = server.resolvedUrls!.local[0];
      const r = await fetch(`${base}sw-routes.js`, { headers: { Origin: new URL(base).origin } });
      expect(r.headers.get("vary")).toMatch(/origin/i);
      const { online, offline } = await visit(base);
      expect(online.length).toBeGreaterThan(3);
      // no route matched: the worker's fetch event served each
      for (const s of [...online, ...offline]) expect(s, s.name).toMatchObject({ matched: "", final: "" });
    });
  });
});
