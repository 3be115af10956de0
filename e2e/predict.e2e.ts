// Honest predictions when the page comes and goes (exfat-empty-hint, whose steps 2 and 3 ask
// for a command's answer). lab.e2e.ts holds the cases of a step opened by Next.
//   - A page opened on a step: the step is on screen before the machine answers (the learner
//     comes back the next day; the emulator's core is held back here so that it always is). A
//     guess made after a command typed in it is still marked as made after measuring. (Before
//     the fix, the step's count of lines started with no machine to count: never marked.)
//   - A reload after measuring: the machine comes back as the step began, without the command,
//     but the learner saw its answer. The guess made after the reload is still marked, and says
//     why. (Before, the reload made it an honest guess.)
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { launch, runInTerminal } from "./browser";

const base = () => inject("baseUrl");

describe("a prediction made after measuring stays marked as the page comes and goes", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const ready = () => page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
  const atStep = (k: number) => page.locator(`.lab-runner[data-step="${k}"]`).waitFor({ timeout: 60_000 });
  const predict = () => page.locator('.lab-runner [data-testid="predict"]').first();
  const guess = async (value: string) => {
    await predict().locator("input").fill(value);
    await predict().getByRole("button", { name: "Record my prediction" }).click();
    await expect.poll(() => predict().getAttribute("data-answered")).toBe("1");
    return predict().getByTestId("after-measuring").textContent({ timeout: 5000 }).catch(() => "not marked");
  };
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/lab/exfat-empty-hint`);
    await ready();
    await page.getByRole("button", { name: /^Next/ }).click();
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
    await runInTerminal(page, "cat /sys/module/exfat/parameters/empty_entries_examined");
    expect(await guess("610")).toMatch(/you had entered commands since the step opened, so/);
  });

  it("a guess made after a reload that took the measurement back is still marked, and says why", async () => {
    await page.getByTestId("outline-2").click();
    await atStep(2);
    expect(await predict().getAttribute("data-answered")).toBe("0");
    await runInTerminal(page, "cat /sys/module/exfat/parameters/empty_entries_examined");
    await page.reload(); // at once: the page marks it as it goes
    await atStep(2);
    await ready();
    expect(await guess("55000")).toMatch(/you had entered commands since the step opened \(before the page was reloaded, the step reset or left\), so/);
  });
});
