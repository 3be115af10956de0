// Honest predictions when the page comes and goes (io-schedulers, whose steps 2 and 3 ask for a
// command's answer; exfat-empty-hint's add up the kernel's events now). lab.e2e.ts holds the
// cases of a step opened by Next.
//   - A page opened on a step: the step is on screen before the machine answers (the learner
//     comes back the next day; the emulator's core is held back here so that it always is). A
//     guess made after a command typed in it is still marked as made after measuring. (Before
//     the fix, the step's count of lines started with no machine to count: never marked.)
//   - A reload after measuring: the machine comes back as the step began, without the command,
//     but the learner saw its answer. The guess made after the reload is still marked, and says
//     why. (Before, the reload made it an honest guess.)
//   - A page left mid-step (exfat-discard's challenge): the machine comes back as it was left,
//     with the kernel events its step had seen, so the step's `expect` block passes without
//     the delete run again, and the guess made after it is marked. The next step's count of
//     discards, measured first with filefrag (before the kernel sent any), is marked too.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { checkNow, launch, runInTerminal, tellHidden } from "./browser";

const base = () => inject("baseUrl");

describe("a prediction made after measuring stays marked as the page comes and goes", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const ready = () => page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
  const atStep = (k: number) => page.locator(`.lab-runner[data-step="${k}"]`).waitFor({ timeout: 60_000 });
  const predict = () => page.locator('.lab-runner [data-testid="predict"]').first();
  const guess = async (value: string) => {
    const choice = predict().locator("select");
    if (await choice.count()) await choice.selectOption(value);
    else await predict().locator("input").fill(value);
    await predict().getByRole("button", { name: "Record my prediction" }).click();
    await expect.poll(() => predict().getAttribute("data-answered")).toBe("1");
    return predict().getByTestId("after-measuring").textContent({ timeout: 5000 }).catch(() => "not marked");
  };
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/lab/io-schedulers`);
    await ready();
    await page.getByTestId("outline-1").click();
    await atStep(1);
  });
  afterAll(() => b.close());

  it("a lab page opened on a step (its machine not yet answering as the step shows) still marks a guess made after a typed command", async () => {
    // the emulator's core held back: the step is on screen well before the machine answers
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const core = /\/vm\/v86\.wasm\.gz/;
    await page.route(core, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await atStep(1);
    expect(await page.locator(".vm-status").getAttribute("data-phase")).not.toBe("ready");
    release();
    await ready();
    await page.unroute(core);
    expect(await predict().getAttribute("data-answered")).toBe("0");
    await runInTerminal(page, "cat /sys/block/mmcblk0/queue/scheduler 2>/dev/null; true");
    expect(await guess("kyber")).toMatch(/you had entered commands since the step opened, so/);
  });

  it("a guess made after a reload that took the measurement back is still marked, and says why", async () => {
    await page.getByTestId("outline-2").click();
    await atStep(2);
    expect(await predict().getAttribute("data-answered")).toBe("0");
    await runInTerminal(page, "cat /mnt/host/iosched/runs.txt 2>/dev/null; true");
    await page.reload(); // at once: the page marks it as it goes
    await atStep(2);
    await ready();
    expect(await guess("12")).toMatch(/you had entered commands since the step opened \(before the page was reloaded, the step reset or left\), so/);
  });
});

describe("a page left mid-step brings back the step's events with its machine", () => {
  it("exfat-discard's challenge: the delete made before leaving counts after a reload, and the guess made then is marked", async () => {
    const b = await launch();
    try {
      const page = b.page;
      const ready = () => page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
      const passed = () => expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 120_000, interval: 500 }).toBe("passed");
      const runAll = async (buttons: ReturnType<Page["locator"]>) => {
        for (let k = 0; k < (await buttons.count()); k++) {
          await buttons.nth(k).click();
          await expect.poll(() => buttons.nth(k).getAttribute("data-phase"), { timeout: 240_000, interval: 500 }).toBe("idle");
        }
      };
      await page.goto(`${base()}#/lab/exfat-discard`);
      await ready();
      // steps 1 and 2 from their own buttons: the volume, then the file in runs with the stream on
      await runAll(page.locator(".lab-runner .step > .vm-cmd > button"));
      await passed();
      await page.getByRole("button", { name: /^Next/ }).click();
      await page.locator('.lab-runner[data-step="1"]').waitFor({ timeout: 60_000 });
      await page.getByRole("button", { name: "Show the solution" }).click();
      await runAll(page.locator('[data-testid="solution"] button'));
      await passed();
      await page.getByRole("button", { name: /^Next/ }).click();
      await page.locator('.lab-runner[data-step="2"]').waitFor({ timeout: 60_000 });
      // the challenge, done before the prediction (its check waits for it): the old way's delete
      await runInTerminal(page, "echo 0 > /sys/module/exfat/parameters/batch_discard; echo 0 > /sys/module/exfat/parameters/discard_calls; rm /mnt/x/frag; sync", 60_000);
      await tellHidden(page, true);
      await expect.poll(() => page.getByTestId("lab-status").getAttribute("data-snapshot-kind"), { timeout: 60_000 }).toBe("left");
      await page.reload();
      await page.locator('.lab-runner[data-step="2"]').waitFor({ timeout: 60_000 });
      await ready();
      const predict = page.locator('.lab-runner [data-testid="predict"]').first();
      await predict.locator("input").fill("16");
      await predict.getByRole("button", { name: "Record my prediction" }).click();
      expect(await predict.getByTestId("after-measuring").textContent({ timeout: 5000 }).catch(() => "not marked")).toMatch(/before the page was reloaded/);
      // the expect block counts the kernel's discards since the step opened: those of the delete
      // before the reload, which came back with the machine
      expect(await checkNow(page)).toBe("passed");
      // step 4: its count of discards measured another way before the kernel did it (filefrag
      // lists the runs the delete will discard, one request each): marked for the commands
      await page.getByRole("button", { name: /^Next/ }).click();
      await page.locator('.lab-runner[data-step="3"]').waitFor({ timeout: 60_000 });
      await runAll(page.locator(".lab-runner .step > .vm-cmd > button").first());
      await runInTerminal(page, "filefrag /mnt/x/frag", 60_000);
      const runs = page.locator('.lab-runner [data-testid="predict"]').first();
      await runs.locator("input").fill("5");
      await runs.getByRole("button", { name: "Record my prediction" }).click();
      expect(await runs.getByTestId("after-measuring").textContent({ timeout: 5000 }).catch(() => "not marked")).toMatch(/you had entered commands since the step opened, so/);
    } finally {
      await b.close();
    }
  });
});
