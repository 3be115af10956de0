// /play/exfat and /play/exfat-dir in Chromium: parameters from the link, predict-then-reveal, the numbers
// and plots the page shows against the same models run here in Node.
import { describe, expect, inject, it } from "vitest";
import { launch, screenshot } from "../../../../e2e/browser";
import { loadCoreModule } from "../../shared/node-load";
import { dirRun, dirScenarioOps, dirSweeps } from "./exfat-dir";
import { slotRuns } from "./exfat-disk";
import { ExfatCore } from "./exfat-core";
import { ExfatLab } from "./exfat-scenario";
import { DiscardPolicy } from "./events";

const base = () => inject("baseUrl");

describe("/play/exfat", () => {
  it("takes a file from the link, reveals its discard requests as the exfat core counts them, and replays the delete", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/exfat?clusters=1000&runs=8&batch=0`);
      expect(await b.page.getByLabel(/file size/).inputValue()).toBe("1000");
      const core = ExfatCore.create(await loadCoreModule("exfat"), 1000 + 8 + 64, 3);
      const want = new ExfatLab(core).delete(new ExfatLab(core).createFragmented(1000, 8), DiscardPolicy.PerCluster);
      core.dispose();
      expect(want.discards.length).toBe(1000); // one per cluster
      expect(want.otherPolicyDiscards).toBe(8); // one per run
      await b.page.getByLabel("your guess").fill("8");
      await b.page.click("text=Run and reveal");
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      expect(await b.page.getByTestId("play-discards").textContent()).toBe(String(want.discards.length));
      expect(await b.page.getByTestId("play-other").textContent()).toBe(String(want.otherPolicyDiscards));
      expect(await reveal.textContent()).toMatch(/you guessed 8/);
      // replay: the delete's 2000 events (a clear and a discard per cluster), to the end by keyboard
      expect(await b.page.getByTestId("position").textContent()).toBe(`0 / ${want.events.length / 4} events`);
      await b.page.getByTestId("play").focus();
      await b.page.keyboard.press("End");
      await expect.poll(() => b.page.getByTestId("position").textContent()).toBe(`${want.events.length / 4} / ${want.events.length / 4} events`);
      // the table beside the picture: the file's runs, and the requests the replay outlined (the last 256)
      await b.page.locator("summary", { hasText: "The files' clusters as a table" }).click();
      const files = b.page.locator("details.table-alt").first().locator("tbody tr");
      await expect.poll(() => files.count()).toBe(2); // the file and the spacer file between its runs
      expect(await files.first().locator("td").nth(2).textContent()).toMatch(/^(\d+(–\d+)?, ){7}\d+(–\d+)?$/); // 8 runs
      await b.page.locator("summary", { hasText: "The discard requests as a table" }).click();
      expect(await b.page.locator("summary", { hasText: "The discard requests as a table" }).textContent()).toMatch(/\(256 rows\)/);
      await screenshot(b.page, "play-exfat");
      await b.page.getByLabel("1: batched (≥ 6.15)").check();
      await expect.poll(() => b.page.url()).toMatch(/batch=1/);
      expect(await b.page.locator(".reveal").count()).toBe(0);
    } finally {
      await b.close();
    }
  });
});

describe("/play/exfat-dir", () => {
  it("takes its directory script from the link, reveals the examined-entries ratio as the exfat core counts it, and draws both directories", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/exfat-dir?files=600&remove=4&long=80`);
      const m = await loadCoreModule("exfat");
      const ops = dirScenarioOps({ files: 600, removeEvery: 4, longNames: 80 });
      const [hint, old] = [true, false].map((h) => dirRun(m, h, ops));
      await b.page.getByLabel("your guess").fill("3");
      await b.page.click("text=Run and reveal");
      const reveal = b.page.locator(".reveal[role=status]");
      await reveal.waitFor();
      const ratio = old.examined / hint.examined;
      expect(await reveal.getAttribute("data-ratio")).toBe(ratio.toFixed(3));
      expect(await reveal.textContent()).toMatch(/you guessed 3× \((over|under) by \d+%\)/);
      expect(await b.page.getByTestId("examined-1").textContent()).toBe(String(hint.examined));
      expect(await b.page.getByTestId("examined-0").textContent()).toBe(String(old.examined));
      // the slots drawn are the model's, slot for slot
      expect(await b.page.getByTestId("slots-1").getAttribute("data-slots")).toBe(slotRuns(hint.slots));
      expect(await b.page.getByTestId("slots-0").getAttribute("data-slots")).toBe(slotRuns(old.slots));
      // the search sweeping across the slots, create by create: the core's records, in words
      const sweeps = [true, false].map((h) => dirSweeps(m, h, ops));
      const words = (sw: (typeof sweeps)[number][number]) =>
        sw.searches.map((q) => `examined ${q.examined} from slot ${q.start}${q.result === null ? ", found no room (the directory grows a cluster)" : `, found room at ${q.result}`}`).join("; then ");
      const view = b.page.getByTestId("dir-sweep");
      // 680 creates: the first 50 and the last 350 are kept; step 369 is create 650, a long name after the removals
      expect(sweeps[0][369].create).toBe(650);
      await view.getByTestId("scrub").fill("369");
      await expect.poll(() => view.getByTestId("sweep-op").textContent()).toMatch(/^Create 650: file-with-long-name-650 /);
      for (const [i, h] of [[0, 1], [1, 0]] as const) expect(await view.getByTestId(`sweep-${h}`).textContent()).toBe(words(sweeps[i][369]));
      expect(sweeps[1][369].searches[0].examined).toBeGreaterThan(100 * sweeps[0][369].searches[0].examined);
      await view.getByTestId("step").focus();
      await b.page.keyboard.press("ArrowRight");
      await expect.poll(() => view.getByTestId("sweep-op").textContent()).toMatch(/^Create 651: /);
      await screenshot(b.page, "play-exfat-dir");
      // a changed parameter goes into the link and clears the answer
      await b.page.getByLabel(/then create long names/).fill("10");
      await expect.poll(() => b.page.url()).toMatch(/files=600&remove=4&long=10/);
      expect(await b.page.locator(".reveal").count()).toBe(0);
    } finally {
      await b.close();
    }
  });
});
