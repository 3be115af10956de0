// /play/write-path in Chromium: parameters from the link, predict-then-reveal, the numbers
// and plots the page shows against the same models run here in Node.
import { describe, expect, inject, it } from "vitest";
import { launch, screenshot } from "../../../../e2e/browser";

const base = () => inject("baseUrl");

describe("/play/write-path", () => {
  it("predicts and reveals how far down the writer goes, from the traces our kernel recorded, with the call tree", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/write-path?trace=direct`);
      await b.page.getByLabel("your guess").selectOption("driver");
      await b.page.getByRole("button", { name: "Reveal" }).click();
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      expect(await reveal.getAttribute("data-deepest")).toBe("driver");
      expect(await reveal.textContent()).toMatch(/your prediction was right.*vfs_write → ext4_file_write_iter → iomap_dio_rw → .* → submit_bio/);
      expect(await b.page.locator('[role="treeitem"][data-call="loop_queue_rq"]').count()).toBeGreaterThan(0);
      await screenshot(b.page, "play-write-path");
      await b.page.getByLabel("a buffered write()").check();
      await expect.poll(() => b.page.url()).toMatch(/trace=buffered/);
      await b.page.getByRole("button", { name: /Reveal/ }).click();
      await expect.poll(() => b.page.locator(".reveal[role=status]").getAttribute("data-deepest")).toBe("page cache");
      expect(await b.page.locator(".reveal").textContent()).toMatch(/never calls submit_bio/);
      // the lab's recorder (graph) turning tracing on and off is in every trace: said as such
      const recorder = b.page.locator('[role="treeitem"]', { hasText: /\[graph-\d+\]/ });
      expect(await recorder.count()).toBeGreaterThan(0);
      expect(await recorder.first().textContent()).toMatch(/the recorder switching tracing on or off/);
    } finally {
      await b.close();
    }
  });
});
