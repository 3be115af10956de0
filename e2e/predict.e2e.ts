// An honest prediction, when a page opens on its step: the step is on screen before the machine
// answers (the learner comes back the next day; the emulator's core is held back here so that
// it always is), and a guess made after a command typed in it is still marked as made after
// measuring. (Before the fix, the step's count of lines started with no machine to count, and
// no guess in such a step was ever marked.) lab.e2e.ts holds the case of a step opened by Next.
import { expect, inject, it } from "vitest";
import { launch, runInTerminal } from "./browser";

const base = () => inject("baseUrl");
it("a lab page opened on a step (its machine not yet answering as the step shows) still marks a guess made after a typed command", { timeout: 300_000 }, async () => {
  // the learner comes back to step 2 the next day: the step is shown before the machine is up
  const b2 = await launch();
  try {
    const p = b2.page;
    await p.goto(`${base()}#/lab/exfat-empty-hint`);
    await p.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
    await p.getByRole("button", { name: /^Next/ }).click();
    await p.locator('.lab-runner[data-step="1"]').waitFor({ timeout: 60_000 });
    // the emulator's core held back: the step is on screen well before the machine answers
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await p.route(/\/vm\/v86\.wasm\.gz/, async (route) => {
      await held;
      await route.continue();
    });
    await p.reload();
    await p.locator('.lab-runner[data-step="1"]').waitFor({ timeout: 60_000 });
    expect(await p.locator(".vm-status").getAttribute("data-phase")).not.toBe("ready");
    release();
    await p.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
    const predict = p.locator('.lab-runner [data-testid="predict"]').first();
    expect(await predict.getAttribute("data-answered")).toBe("0");
    await runInTerminal(p, "cat /sys/module/exfat/parameters/empty_entries_examined");
    await predict.locator("input").fill("610");
    await predict.getByRole("button", { name: "Record my prediction" }).click();
    await expect.poll(() => predict.getAttribute("data-answered")).toBe("1");
    expect(await predict.getByTestId("after-measuring").textContent({ timeout: 5000 }).catch(() => "not marked")).toMatch(/you had entered commands since the step opened/);
  } finally {
    await b2.close();
  }
});
