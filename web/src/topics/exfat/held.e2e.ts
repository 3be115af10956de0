// The exfat-empty-hint lab's directory model holds back a total that answers a prediction or
// question the learner has still to give. With the model's buttons, a learner whose run removes
// one file in three can rebuild their own steps, and the model would print their predictions'
// answers, and each search's count, which adds up to them. A learner so drawn ("h": 160 files,
// one in 3 removed, 40 long names) builds it here.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { launch, screenshot } from "../../../../e2e/browser";
import { loadCoreModule } from "../../shared/node-load";
import { dirRun, dirScenarioOps } from "./exfat-dir";

const LEARNER = "h";
const SEED = { files: 160, removeEvery: 3, longNames: 40 };

describe("exfat-empty-hint's directory model and the learner's own answers", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.addInitScript((who) => localStorage.setItem("fslab-learner", who), LEARNER);
    await page.goto(`${inject("baseUrl")}#/lab/exfat-empty-hint`);
  });
  afterAll(async () => {
    await screenshot(page, "exfat-empty-hint-held");
    await b.close();
  });

  const cell = (hint: 0 | 1) => page.getByTestId(`examined-${hint}`);
  const press = async (name: string, times = 1) => {
    for (let i = 0; i < times; i++) await page.getByRole("button", { name, exact: true }).click();
  };

  it("holds the totals of the learner's own run until the prediction is made, and only those", async () => {
    const m = await loadCoreModule("exfat");
    const [hint, old] = [true, false].map((h) => dirRun(m, h, dirScenarioOps(SEED)).examined);
    const question = dirRun(m, false, dirScenarioOps({ ...SEED, longNames: 2 * SEED.longNames })).examined;
    await page.getByTestId("dir-view").waitFor({ timeout: 60_000 });

    // another run (100 files, no removal) prints its totals
    await press("Create 100 files");
    await expect.poll(() => cell(1).textContent()).toBe(String(dirRun(m, true, dirScenarioOps({ files: 100, removeEvery: 0, longNames: 0 })).examined));
    expect(await cell(1).getAttribute("data-held")).toBeNull();
    await page.getByTestId("dir-sweep").waitFor();

    // the learner's own steps, rebuilt with the buttons: both totals are answers still to give
    await press("Create 10 files", 6);
    await press("Remove every third file");
    await press("Create 10 long names", 4);
    for (const h of [1, 0] as const) await expect.poll(() => cell(h).getAttribute("data-held"), { timeout: 30_000 }).toBe("1");
    const table = page.getByRole("table", { name: "empty-entry search totals" });
    for (const n of [hint, old]) expect(await table.textContent()).not.toContain(String(n));
    // and each search's count, which would add up to them: the chart and the create-by-create view
    await page.getByTestId("dir-sweep-held").waitFor();
    expect(await page.getByTestId("dir-chart-held").count()).toBe(1);
    expect(await page.getByTestId("dir-sweep").count()).toBe(0);

    // step 2's prediction made (a guess, before any run): its total shows, step 3's stays held
    await page.getByRole("button", { name: /^Next/ }).click();
    await page.locator('.lab-runner[data-step="1"]').waitFor({ timeout: 60_000 });
    // the page drew this learner's problem: step 2's prediction is the model's run with the hint
    await page.getByText(`${SEED.files} files, one in ${SEED.removeEvery} of them removed`).first().waitFor();
    const predict = page.locator('.lab-runner [data-testid="predict"]').first();
    await predict.locator("input").fill("500");
    await predict.getByRole("button", { name: "Record my prediction" }).click();
    await expect.poll(() => cell(1).textContent(), { timeout: 30_000 }).toBe(String(hint));
    expect(await cell(0).getAttribute("data-held")).toBe("1");

    // forty long names more: step 3's question (twice the long names, without the hint) is held.
    // Waited for at the last press's run (the hint's total for it, no answer, shown): each
    // press's run comes from the worker in turn, and the first three are no answer either
    const longer = dirRun(m, true, dirScenarioOps({ ...SEED, longNames: 2 * SEED.longNames })).examined;
    await press("Create 10 long names", 4);
    await expect.poll(() => cell(1).textContent(), { timeout: 30_000 }).toBe(String(longer));
    expect(await cell(1).getAttribute("data-held")).toBeNull();
    await expect.poll(() => cell(0).getAttribute("data-held"), { timeout: 30_000 }).toBe("1");
    expect(await table.textContent()).not.toContain(String(question));
  });

  it("the directory playground holds the same totals for this learner, and only those", async () => {
    const m = await loadCoreModule("exfat");
    const [hint, old] = [true, false].map((h) => dirRun(m, h, dirScenarioOps(SEED)).examined);
    // the learner's own scenario: step 3's prediction (without the hint) is still to make
    await page.goto(`${inject("baseUrl")}#/play/exfat-dir?files=${SEED.files}&remove=${SEED.removeEvery}&long=${SEED.longNames}`);
    await page.getByRole("button", { name: "Run without predicting" }).click();
    await page.getByTestId("dir-play-held").waitFor({ timeout: 60_000 });
    // step 2's, made above, shows once the held totals are known; the ratio, which would give
    // the held one away, does not
    await expect.poll(() => cell(1).textContent(), { timeout: 30_000 }).toBe(String(hint));
    expect(await cell(0).getAttribute("data-held")).toBe("1");
    expect(await page.locator("[data-ratio]").count()).toBe(0);
    expect(await page.getByTestId("dir-play-held").textContent()).not.toContain(String(old));
    expect(await page.getByTestId("dir-sweep").count()).toBe(0);
    // ten files more is another scenario: all of it shows
    await page.getByLabel(/^create files/).fill(String(SEED.files + 10));
    await page.getByRole("button", { name: "Run without predicting" }).click();
    await page.locator(".reveal[data-ratio]").waitFor({ timeout: 60_000 });
    expect(await cell(0).textContent()).toBe(String(dirRun(m, false, dirScenarioOps({ ...SEED, files: SEED.files + 10 })).examined));
    expect(await page.getByTestId("dir-play-held").count()).toBe(0);
  });
});
