// A learner breaks the guest: fills the disk in RAM, then panics the kernel on purpose. The page
// says what happened in words (with the kernel's report), keeps the lab's progress, and puts the
// machine back as the step began.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { launch, runInTerminal, screenshot } from "./browser";

const base = () => inject("baseUrl");

describe("a guest in trouble, in the exfat-discard lab", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const trouble = () => page.getByTestId("vm-trouble");
  const measured: Record<string, number> = {};

  beforeAll(async () => {
    b = await launch({ width: 1440 });
    page = b.page;
    await page.goto(`${base()}#/lab/exfat-discard`);
    await page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
  });
  afterAll(async () => {
    await b.close();
    console.log("measured:", JSON.stringify(measured));
  });

  it("starts on step 2, step 1 done by its solution", async () => {
    // step 1 done by its solution, step 2 open with its snapshot kept
    await page.getByRole("button", { name: "Show the solution" }).click();
    await page.locator('[data-testid="solution"] button').click();
    await expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 60_000 }).toBe("passed");
    await page.getByRole("button", { name: /^Next/ }).click();
    await expect.poll(() => page.getByTestId("lab-status").getAttribute("data-snapshot-step"), { timeout: 30_000 }).toBe("1");
  });

  it("a full filesystem in RAM is named, and the machine comes back without the file", async () => {
    const out = await runInTerminal(page, "dd if=/dev/zero of=/tmp/fill bs=1M", 120_000);
    expect(out).toMatch(/No space left on device/);
    await trouble().waitFor({ timeout: 10_000 });
    expect(await trouble().getAttribute("data-kind")).toBe("full");
    expect(await trouble().textContent()).toMatch(/A filesystem in the guest's memory is full: .*No space left on device.*RAM \(256 MiB/);
    const t0 = Date.now();
    await page.getByTestId("restore-machine").click();
    await expect.poll(() => runInTerminal(page, "ls /tmp/fill 2>&1 || true")).toMatch(/No such file/);
    measured.fullRestoreMs = Date.now() - t0;
    expect(await trouble().count()).toBe(0);
    // what step 1 made is there, and its mark kept
    expect(await runInTerminal(page, "grep -c ' /mnt/x exfat' /proc/mounts || true")).toBe("1");
    expect(await page.locator(".lab-outline").textContent()).toMatch(/1 passed/);
  });

  it("an out-of-memory kill is named with the kernel's own line, and the machine goes on", async () => {
    const out = await runInTerminal(page, "tail /dev/zero; echo status $?", 120_000);
    expect(out).toMatch(/Killed\s+status 137/);
    await trouble().waitFor({ timeout: 15_000 });
    expect(await trouble().getAttribute("data-kind")).toBe("oom");
    expect(await trouble().textContent()).toMatch(/The guest ran out of memory: Out of memory: Killed process \d+ \(tail\) total-vm:\d+kB.*The machine goes on/);
    // nothing to put back: the learner dismisses it and the shell answers
    await trouble().getByRole("button", { name: "Dismiss" }).click();
    expect(await trouble().count()).toBe(0);
    expect(await runInTerminal(page, "echo alive")).toBe("alive");
  });

  it("a command quiet for a minute is named, and Ctrl+C ends it and the notice", async () => {
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.type("sleep 600\n");
    await trouble().waitFor({ timeout: 90_000 });
    expect(await trouble().getAttribute("data-kind")).toBe("hung");
    expect(await trouble().textContent()).toMatch(/A command has been quiet for a minute: nothing printed for 60 s, and no prompt\. .*Ctrl\+C/);
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.press("Control+C");
    await trouble().waitFor({ state: "detached", timeout: 10_000 });
    expect(await runInTerminal(page, "echo alive")).toBe("alive");
  });

  it("a kernel panic shows the kernel's report, keeps the progress, and Restore brings a working machine", async () => {
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.type("touch /tmp/before-panic; echo c > /proc/sysrq-trigger\n");
    await trouble().waitFor({ timeout: 20_000 });
    expect(await trouble().getAttribute("data-kind")).toBe("panic");
    expect(await trouble().textContent()).toMatch(/The guest's kernel panicked: Kernel panic - not syncing: sysrq triggered crash\. The machine has stopped/);
    const report = await page.getByTestId("vm-trouble-text").textContent();
    expect(report).toMatch(/sysrq: Trigger a crash/);
    expect(report).toMatch(/Kernel panic - not syncing: sysrq triggered crash/);
    expect(report).toMatch(/Call Trace/);
    // focus is on the way out, and the progress is as it was
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("restore-machine");
    expect(await page.locator(".lab-outline").textContent()).toMatch(/Step 2 of \d+ · 1 passed/);
    await trouble().getByText("The kernel's report").click();
    await screenshot(page, "trouble-panic");
    const t0 = Date.now();
    await page.getByTestId("restore-machine").click();
    // what is typed while the machine is put back is lost with the old one: wait for it
    await trouble().waitFor({ state: "detached", timeout: 10_000 });
    expect(await runInTerminal(page, "echo alive")).toBe("alive");
    measured.panicRestoreMs = Date.now() - t0;
    expect(await page.locator(".vm-status").getAttribute("data-phase")).toBe("ready");
    // the step's own machine: the file made before the panic is gone, step 1's mount is there
    expect(await runInTerminal(page, "ls /tmp/before-panic 2>&1 || true")).toMatch(/No such file/);
    expect(await runInTerminal(page, "grep -c ' /mnt/x exfat' /proc/mounts || true")).toBe("1");
    expect(await page.locator(".lab-outline").textContent()).toMatch(/1 passed/);
    expect(b.errors).toEqual([]);
  });

  it("a learner's `reboot` is named with the kernel's line, and Restore brings the step's machine", async () => {
    await page.getByTestId("vm-terminal").click();
    // busybox's reboot, forced by /usr/local/sbin/reboot: /init (bash) ignores an init's signals
    await page.keyboard.type("touch /tmp/before-reboot; reboot\n");
    await trouble().waitFor({ timeout: 20_000 });
    expect(await trouble().getAttribute("data-kind")).toBe("reboot");
    expect(await trouble().textContent()).toMatch(/The guest's kernel restarted the machine: reboot: Restarting system\. A real machine would boot again/);
    expect(await page.getByTestId("vm-trouble-text").textContent()).toMatch(/^\[ *\d+\.\d+\] reboot: Restarting system$/);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("restore-machine");
    // no Dismiss: a stopped machine has nothing to go on with; the status line says it stopped
    expect(await trouble().getByRole("button", { name: "Dismiss" }).count()).toBe(0);
    expect(await page.locator(".vm-status").textContent()).toMatch(/^Stopped: the guest's kernel restarted the machineCold boot$/);
    await screenshot(page, "trouble-reboot");
    await page.keyboard.press("Enter");
    await trouble().waitFor({ state: "detached", timeout: 10_000 });
    // the notice and its button are gone: the keyboard is in the terminal, not on the page's body
    expect(await page.evaluate(() => document.activeElement?.classList.contains("xterm-helper-textarea"))).toBe(true);
    // the status line says which machine runs now, not how the page's first one started
    expect(await page.locator(".vm-status").textContent()).toMatch(/^Ready: the machine is back as it was when step \d began/);
    expect(await runInTerminal(page, "ls /tmp/before-reboot 2>&1 || true")).toMatch(/No such file/);
    // what is typed into a stopped machine goes nowhere, not into the restored one
    await page.keyboard.type("halt\n");
    await trouble().waitFor({ timeout: 20_000 });
    expect(await trouble().getAttribute("data-kind")).toBe("halt");
    expect(await page.locator(".vm-status").textContent()).toMatch(/^Stopped: the guest was shut down/);
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.type("touch /tmp/typed-while-stopped\n");
    // a Run button on a stopped machine says so at once (it waited for a prompt till the restore)
    const run = page.getByRole("button", { name: "Run in VM" }).first();
    await run.click();
    await expect.poll(() => page.getByTestId("run-failed").textContent(), { timeout: 10_000 }).toMatch(/^These commands were not run: the machine stopped \(reboot: System halted\); restore it to run commands\.$/);
    expect(await run.textContent()).toBe("Run in VM");
    await page.getByTestId("restore-machine").click();
    await trouble().waitFor({ state: "detached", timeout: 10_000 });
    expect(await runInTerminal(page, "ls /tmp/typed-while-stopped 2>&1 || true")).toMatch(/No such file/);
    expect(await runInTerminal(page, "grep -c ' /mnt/x exfat' /proc/mounts || true")).toBe("1");
    expect(b.errors).toEqual([]);
  });
});
