// /play/ext4 in Chromium: parameters from the link, predict-then-reveal, the numbers
// and plots the page shows against the same models run here in Node.
import { describe, expect, inject, it } from "vitest";
import { launch, screenshot } from "../../../../e2e/browser";
import { loadCoreModule } from "../../shared/node-load";
import { LAYOUTS, ext4WriteFile } from "./ext4-core";
import { inspectImage } from "../../shared/inspect/inspect";
import { type Ext4Report } from "./inspect-report";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

const base = () => inject("baseUrl");

describe("/play/ext4", () => {
  it("reveals LBS's checksum bytes against bigalloc's as the ext4 core counts them, in a chart and a table", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/ext4?mode=direct`);
      const m = await loadCoreModule("ext4");
      const [, big, lbs] = LAYOUTS.map((l) => ext4WriteFile(m, l, true, 64 << 20, 65536));
      await b.page.getByLabel("your guess").fill("16");
      await b.page.click("text=Run and reveal");
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      expect(await reveal.getAttribute("data-ratio")).toBe((lbs.csum_bytes / big.csum_bytes).toFixed(3));
      expect(await b.page.locator("svg g.series").count()).toBe(3);
      expect(await b.page.locator('table[aria-label="checksum bytes per byte written and allocations"] tr[data-layout="64k (LBS)"] td').nth(5).textContent()).toBe(`${(lbs.csum_bytes / (64 << 20)).toFixed(4)} (${lbs.allocations} allocations)`);
      // what reaches the device with 4 KiB direct writes: the model's zeros (8.5x on 64 KiB blocks, as the guest measured)
      for (const l of LAYOUTS) {
        const r = ext4WriteFile(m, l, true, 64 << 20, 4096);
        expect(await b.page.getByTestId(`device-${l.name}`).locator("td").nth(1).textContent()).toBe(`${((64 * 2 ** 20 + r.zero_bytes) / 2 ** 26).toFixed(2)}×`);
      }
      expect(await b.page.getByTestId("device-64k (LBS)").locator("td").nth(1).textContent()).toBe("8.50×");
      await b.page.getByLabel(/buffered/).check();
      await expect.poll(() => b.page.url()).toMatch(/mode=buffered/);
    } finally {
      await b.close();
    }
  });

  it("draws the real volumes' block bitmaps group by group, with the counts the inspector reads", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/ext4`);
      await b.page.getByRole("button", { name: "Show the real volumes" }).click();
      await b.page.getByTestId("ext4-bitmaps").waitFor();
      const m = await loadCoreModule("inspect");
      const layouts = [["4k blocks", "ext4-4k"], ["bigalloc 64k clusters", "ext4-bigalloc"], ["64k blocks (LBS)", "ext4-64k"]];
      for (const [layout, file] of layouts) {
        const bytes = gunzipSync(readFileSync(new URL(`../../../../wasm/tests/images/${file}.img.gz`, import.meta.url)));
        const report = inspectImage(m, bytes) as Ext4Report;
        const rows = b.page.locator(`tr[data-layout="${layout}"]`);
        expect(await rows.count()).toBe(report.groups_count);
        for (const g of report.groups) {
          const used = g.clusters - (g.bitmap_free_clusters ?? g.free_clusters);
          expect(await rows.nth(g.group).locator("td").nth(4).textContent()).toBe(String(used));
        }
        expect(await b.page.locator(`.ext4-volume[data-layout="${layout}"] canvas`).count()).toBe(report.groups_count);
      }
      // same scale: the 64k volume's strips together are as wide as the 4k volume's
      const width = (layout: string) =>
        b.page.locator(`.ext4-volume[data-layout="${layout}"] canvas`).evaluateAll((cs) => cs.reduce((n, c) => n + c.getBoundingClientRect().width, 0));
      expect(Math.abs((await width("64k blocks (LBS)")) - (await width("4k blocks")))).toBeLessThan(3);
      await screenshot(b.page, "play-ext4");
    } finally {
      await b.close();
    }
  });
});
