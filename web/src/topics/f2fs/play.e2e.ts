// /play/f2fs in Chromium: parameters from the link, predict-then-reveal, the numbers
// and plots the page shows against the same models run here in Node.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { launch, screenshot } from "../../../../e2e/browser";
import { loadCoreModule } from "../../shared/node-load";
import { benchWorkloadSteps, GUEST_NAT_BLOCKS, NAT_ENTRY_PER_BLOCK, nidFrames } from "./nid";
import { FXMARK_COSTS, fxmarkTrace, fxmarkUnlink, LOCKS, timelineTotals } from "./fxmark";

const base = () => inject("baseUrl");

describe("/play/f2fs", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/play/f2fs?workload=MWUM&unlinks=500&remote_ns=1500&nat_scan_ns=12000&seed=1`);
  });
  afterAll(async () => {
    await screenshot(page, "play-f2fs");
    await b.close();
  });

  it("reveals CLUE's speed-up at 120 cores as the f2fs core computes it, with a curve per technique", async () => {
    const m = await loadCoreModule("f2fs");
    const at120 = (clue: number) => fxmarkUnlink(m, "MWUM", clue, 120, 500, FXMARK_COSTS, 1).unlinks_per_sec;
    const want = at120(7) / at120(0);
    expect(await page.locator("select").first().inputValue()).toBe("MWUM");
    await page.getByLabel("your guess").fill("15");
    await page.click("text=Run and reveal");
    const reveal = page.locator(".reveal[role=status]");
    await reveal.waitFor();
    expect(await reveal.getAttribute("data-speedup")).toBe(want.toFixed(3));
    expect(await reveal.textContent()).toMatch(/you guessed 15× \(over by \d+%\)/);
    expect(await page.locator("svg g.series").count()).toBe(5);
    expect(await page.locator("svg g.series circle").count()).toBe(5 * 8);
    // the table alternative: upstream at 1 core, in thousands
    expect(await page.locator('tr[data-clue="0"] td').nth(1).textContent()).toBe(`${(fxmarkUnlink(m, "MWUM", 0, 1, 500).unlinks_per_sec / 1000).toFixed(0)}k`);
    await screenshot(page, "play-f2fs-revealed");
  });

  it("a changed cost goes into the link and clears the answer", async () => {
    await page.getByLabel("remote_ns").fill("3000");
    await expect.poll(() => page.url()).toMatch(/remote_ns=3000/);
    expect(await page.locator(".reveal").count()).toBe(0);
  });

  it("draws per-core lock timelines, upstream beside CLUE, span for span and µs for µs as the core traces them", async () => {
    await page.click("text=Run and reveal");
    await page.locator(".reveal[role=status]").waitFor();
    // 30 cores: every 2nd drawn; the choice goes into the link and keeps the answer
    const form = page.getByRole("form", { name: "lock timelines" });
    await form.getByLabel("cores").selectOption("30");
    await expect.poll(() => page.url()).toMatch(/tl_cores=30/);
    expect(await page.locator(".reveal").count()).toBe(1);
    const m = await loadCoreModule("f2fs");
    const costs = { ...FXMARK_COSTS, remote_ns: 3000 };
    for (const clue of [0, 7]) {
      const t = fxmarkTrace(m, "MWUM", clue, 30, 500, { untilNs: 250_000 }, costs, 1);
      expect(t.cores).toHaveLength(15);
      const fig = page.getByTestId(`lock-timeline-${clue}`);
      await expect.poll(() => fig.locator("g.lt-row").count()).toBe(15);
      expect(await fig.locator("figcaption").textContent()).toMatch(/cores 0, 2, …, 28: every 2nd of 30, 15 rows/);
      for (const c of t.cores) {
        const bars = fig.locator(`g.lt-row[data-core="${c.core}"] rect.lt-span`);
        expect(await bars.count()).toBe(c.spans.length);
        expect(await bars.evaluateAll((rs) => rs.filter((r) => r.getAttribute("data-kind") === "wait").length)).toBe(c.spans.filter((s) => s.kind === "wait").length);
      }
      // the table alternative: µs per core, as timelineTotals adds them up
      const totals = timelineTotals(t);
      const rows = fig.locator("table tbody tr");
      expect(await rows.count()).toBe(15);
      for (const [i, x] of totals.entries()) {
        const cells = await rows.nth(i).locator("td").allTextContents();
        expect(cells).toEqual([String(x.core), String(x.socket), ...LOCKS.map((l) => x.wait_us[l].toFixed(1)), x.holding_us.toFixed(1), x.working_us.toFixed(1)]);
      }
    }
    // MWUM: upstream's cores spend the window queued on the shared directory
    const up = timelineTotals(fxmarkTrace(m, "MWUM", 0, 30, 500, { untilNs: 250_000 }, costs, 1));
    expect(up.reduce((n, c) => n + c.wait_us.dir, 0)).toBeGreaterThan(0.5 * 15 * 250);
    // the window by keyboard: a control reached with Tab
    await form.getByLabel("cores").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("label")?.textContent)).toMatch(/^window/);
    await form.getByLabel("window").selectOption("1000");
    await expect.poll(() => page.url()).toMatch(/tl_us=1000/);
    await expect.poll(() => page.getByTestId("lock-timeline-7").locator("figcaption").textContent()).toMatch(/0\.0–1000\.0 µs/);
    await screenshot(page, "play-f2fs-lock-timeline");
  });
});

describe("/play/f2fs: the free-NID scan", () => {
  it("steps through the model's scans under upstream and the heuristic, with the core's lists and counters", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/f2fs`);
      const m = await loadCoreModule("f2fs");
      const steps = benchWorkloadSteps(8000, GUEST_NAT_BLOCKS * NAT_ENTRY_PER_BLOCK);
      for (const [label, clue] of [["upstream", 0], ["heuristic (2)", 2]] as const) {
        const frames = nidFrames(m, { clue }, steps);
        await b.page.getByLabel(label, { exact: true }).check();
        const view = b.page.getByTestId("nat-view");
        await view.waitFor();
        expect(await view.getByTestId("position").textContent()).toBe(`0 / ${frames.length - 1} scans`);
        expect(await b.page.getByTestId("nat-free").textContent()).toBe(String(frames[0].state.free));
        await view.getByTestId("play").focus();
        await b.page.keyboard.press("End");
        const last = frames.at(-1)!;
        await expect.poll(() => b.page.getByTestId("nat-free").textContent()).toBe(String(last.state.free));
        expect(await b.page.getByTestId("nat-counters").locator("td").nth(4).textContent()).toBe(String(last.state.counters.nids_scanned));
        const shown = await b.page.getByTestId("nat-scans").locator("li").allTextContents();
        expect(shown).toHaveLength(last.scans.length);
        expect(shown[0]).toContain(`from NID ${last.scans[0].start} to ${last.scans[0].end}`);
      }
      await screenshot(b.page, "play-f2fs-nid");
    } finally {
      await b.close();
    }
  });
});
