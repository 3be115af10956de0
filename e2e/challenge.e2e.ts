// The learner does the key step alone, in Chromium with the guest in the page (mq-deadline, whose
// "No batches" step is a challenge): clicking only Run, Next and "No guess" cannot finish the lab;
// a check that fails offers the hint for its FAIL line and then the solution; with the solution
// the lab finishes, and the downloaded progress (with the learner's name) says the step was
// passed with the solution, as `fslab labs report --csv` does; a wrong run before the right one
// does not keep it from passing. The step's question is answered in two runs that give
// different answers, each judged against its own run.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS, checkNow, launch, runInTerminal, screenshot, steady } from "./browser";
import { parseExport } from "../web/src/labs/report";

const base = () => inject("baseUrl");
const repo = new URL("..", import.meta.url).pathname;

describe("a challenge step, mq-deadline's No batches", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const runner = () => page.locator(".lab-runner");
  const checkState = () => page.getByTestId("check-status").getAttribute("data-state");
  const panel = () => page.getByTestId("kernel-deadline-live");
  /** the newest run in the panel, once it has all arrived and been judged: its figures */
  const settled = async (summaryHas: RegExp) => {
    const s = panel().getByTestId("kernel-dd-summary");
    const text = (await s.textContent().catch(() => "")) ?? "";
    if (!summaryHas.test(text)) return null;
    const [n, judged, forced] = await Promise.all(["data-dispatches", "data-judged", "data-forced"].map((a) => s.getAttribute(a).catch(() => null)));
    return Number(n) >= 230 && judged === n ? { dispatches: Number(n), forced: Number(forced) } : null;
  };
  const question = () => page.getByTestId("question");

  beforeAll(async () => {
    b = await launch({ width: 1440 });
    page = b.page;
    await page.goto(`${base()}#/lab/mq-deadline`);
    await page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
  });
  afterAll(async () => {
    await screenshot(page, "challenge-mq-deadline");
    await b.close();
  });

  it("clicking only Run, Next and No guess cannot finish the lab: the challenge has no Run button", async () => {
    for (let i = 0; i < 4; i++) {
      await page.locator(`.lab-runner[data-step="${i}"]`).waitFor({ timeout: 150_000 });
      const open = page.locator('.lab-runner [data-testid="predict"][data-answered="0"]');
      while (await open.count()) await open.first().getByRole("button", { name: "No guess" }).click();
      const buttons = page.locator(".lab-runner .step > .vm-cmd > button");
      for (let k = 0; k < (await buttons.count()); k++) {
        await buttons.nth(k).click();
        await expect.poll(() => buttons.nth(k).getAttribute("data-phase"), { timeout: 240_000, interval: 500 }).toBe("idle");
      }
      if (i < 3) {
        await expect.poll(checkState, { timeout: 120_000, interval: 500 }).toBe("passed");
        await page.getByTestId("next").click();
      }
    }
    expect(await runner().getAttribute("data-challenge")).toBe("1");
    expect(await page.locator(".lab-runner .step > .vm-cmd > button").count()).toBe(0);
    // no solution, and no hint for a FAIL line, before the learner's own check has failed
    expect(await page.getByTestId("show-solution").count()).toBe(0);
    expect(await page.getByTestId("solution-later").textContent()).toMatch(/solution is offered once a check you asked for \(Check\) has failed/);
    expect(await page.getByTestId("show-hint").textContent()).toBe("Show a hint (1 of 2)");
    // what the challenge checks would say how it is solved (the setting and its value): kept
    const source = page.getByTestId("check-source");
    await source.locator("summary").click();
    expect(await source.textContent()).toMatch(/This step is a challenge: what it checks is shown once it passes/);
    expect(await source.textContent()).not.toMatch(/queue\/iosched\/fifo_batch/); // the check's code (its FAIL line may show)
    // Next checks, fails, and the lab stays at the challenge (the code step after it waits)
    // pressed again if the page's poll was checking as it was pressed (then it is not taken)
    expect(await checkNow(page, "next", 60_000)).toBe("failed");
    expect(await page.getByTestId("check-failures").textContent()).toMatch(/a batch can still go on past its first request: one decision may still cover up to 16 requests/);
    expect(await runner().getAttribute("data-step")).toBe("3");
    expect(await page.locator(".lab-outline").textContent()).toMatch(/3 passed/);
    // the failed check offers the hint for its FAIL line first, then the solution
    expect(await page.getByTestId("show-hint").textContent()).toBe("Show a hint for what the check said");
    await page.getByTestId("show-hint").click();
    expect(await page.getByTestId("hint").first().getAttribute("data-fail")).toBe("a batch can still go on");
    expect(await page.getByTestId("show-solution").count()).toBe(1);
  });

  let runA = 0;
  it("a wrong run first does not count against the right one: the check reads the newest run", async () => {
    // a learner who experiments: load with batches on (fifo_batch 16), checked, failing on its batches
    await runInTerminal(page, "load", 240_000);
    expect(await checkNow(page, "check", 60_000)).toBe("failed");
    expect(await page.getByTestId("check-failures").textContent()).toMatch(/batching at least 2 after the newest "fslab: iosched" line; saw [1-9]\d* after it/);
  });

  it("with the solution revealed it finishes; the question is judged against this run", async () => {
    await page.getByTestId("show-solution").click();
    const run = page.locator('[data-testid="solution"] button');
    await run.click();
    await expect.poll(() => run.getAttribute("data-phase"), { timeout: 240_000, interval: 500 }).toBe("idle");
    await expect.poll(checkState, { timeout: 120_000, interval: 500 }).toBe("passed");
    expect(await runner().getAttribute("data-passed")).toBe("1");
    // passed: what it checked is shown
    expect(await page.getByTestId("check-source").textContent()).toMatch(/queue\/iosched\/fifo_batch/);
    // the whole run: the step passes at 100 dispatches, and the rest streams in after
    // the question's number is not on the panel: the writer's 60 requests less the forced ones
    runA = 60 - (await steady(() => settled(/fifo_batch 1, writes_starved 2,/))).forced;
    // what the step taught waits for the question: it says how the number is worked out
    const learned = page.locator(".lab-runner .step").getByTestId("learned");
    expect(await learned.getAttribute("data-shown")).toBe("0");
    expect(await learned.textContent()).toMatch(/once you have answered this step's questions/);
    await question().locator("input").fill(String(runA));
    await question().getByRole("button", { name: "Answer" }).click();
    await expect.poll(() => question().getAttribute("data-answered"), { timeout: 60_000 }).toBe("1");
    await expect.poll(() => learned.getAttribute("data-shown")).toBe("1");
    expect(await learned.textContent()).toMatch(/the writer's 60 less\s+the forced ones/);
    expect(Math.abs(Number(await question().getAttribute("data-actual")) - runA)).toBeLessThanOrEqual(1);
    expect(await question().getAttribute("data-right")).toBe("1");
    expect(await question().textContent()).toMatch(/: right\./);
  });

  it("downloads progress naming the learner, the challenge passed with the solution, the question right; labs report --csv agrees", async () => {
    page.once("dialog", (d) => void d.accept("s0001 Test Learner"));
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-progress").click()]);
    const file = join(ARTIFACTS, "mq-deadline-challenge-progress.json");
    await download.saveAs(file);
    const x = parseExport(readFileSync(file, "utf8"));
    if ("error" in x) throw new Error(x.error);
    expect(x.learner).toBe("s0001 Test Learner");
    expect(x.steps.map((s) => [s.result, s.solutionShown, !!s.challenge])).toEqual([
      ["passed", false, false],
      ["passed", false, false],
      ["passed", false, false],
      ["passed", true, true],
      ["open", false, false], // the code step: the learner's function, not graded here
    ]);
    expect(x.steps[3].questions).toEqual([expect.objectContaining({ answer: String(runA), right: true, tries: 1 })]);
    // asked once: the name is kept, and shown
    expect(await page.getByTestId("learner").textContent()).toMatch(/“s0001 Test Learner”/);
    const r = spawnSync(process.execPath, [join(repo, "bin/fslab.mjs"), "labs", "report", "--csv", file], { encoding: "utf8", cwd: repo });
    expect(r.status, r.stderr).toBe(0);
    const [head, row] = r.stdout.trim().split("\n");
    const cells = Object.fromEntries(head.split(",").map((h, i) => [h, row.split(",")[i]]));
    expect(cells).toMatchObject({ learner: "s0001 Test Learner", "mq-deadline passed alone": "3", "mq-deadline passed with solution": "1", "mq-deadline skipped": "0", "mq-deadline questions right": "1", "mq-deadline questions": "2" }); // the code step's keyed question, not reached here
  });

  it("a second run with another answer: the same number is now wrong, judged against the new run", async () => {
    await page.getByTestId("reset-step").click();
    await expect.poll(() => page.getByTestId("lab-status").getAttribute("data-reset-ms"), { timeout: 90_000 }).not.toBeNull();
    await expect.poll(checkState, { timeout: 30_000 }).not.toBe("passed");
    expect(await question().getAttribute("data-answered")).toBe("0");
    // the learner's own way to the goal, with reads let past a waiting write 4 times, not 2:
    // about half as many writes are forced, and the rest go once the reads have run out
    await runInTerminal(page, "echo 4 > /sys/block/nullb1/queue/iosched/writes_starved; echo 1 > /sys/block/nullb1/queue/iosched/fifo_batch; load", 240_000);
    await expect.poll(checkState, { timeout: 120_000, interval: 500 }).toBe("passed");
    // the machine kept as it passed is the line's news now, not the reset before it
    await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 90_000 }).toMatch(/^Machine kept as step 4 passed \(\d+\.\d MB in \d+\.\d s\)\.$/);
    expect(await page.getByTestId("lab-status").getAttribute("data-reset-ms")).toBeNull();
    const runB = 60 - (await steady(() => settled(/fifo_batch 1, writes_starved 4,/))).forced;
    console.log(`measured: writes sent unforced, run A (writes_starved 2) ${runA}, run B (writes_starved 4) ${runB}`);
    expect(Math.abs(runB - runA), `run A ${runA}, run B ${runB}: the runs must differ by more than the tolerance`).toBeGreaterThan(1);
    await question().locator("input").fill(String(runA));
    await question().getByRole("button", { name: "Answer" }).click();
    await expect.poll(() => question().getAttribute("data-answered"), { timeout: 60_000 }).toBe("1");
    expect(Math.abs(Number(await question().getAttribute("data-actual")) - runB)).toBeLessThanOrEqual(1);
    expect(await question().getAttribute("data-right")).toBe("0");
    expect(await question().getAttribute("data-tries")).toBe("2");
    expect(b.errors).toEqual([]);
  });
});
