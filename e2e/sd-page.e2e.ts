// The SD card in the page, in Chromium: the lab's steps as a learner takes them, the slot view's
// verdict (the kernel's initialisation beside the model's, live), an exFAT volume written to the
// card, and the card and its data back after a reload (the step's snapshot carries the SD host
// and the card's image after v86's state).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { labRunner, launch, runInTerminal, screenshot } from "./browser";

const base = () => inject("baseUrl");

describe("the sd-card lab in Chromium", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const checkState = () => page.getByTestId("check-status").getAttribute("data-state");
  const ready = () => page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/lab/sd-card`);
    await ready();
  }, 180_000);
  afterAll(async () => {
    await screenshot(page, "sd-lab");
    await b.close();
  });

  it("binds the host, finds an inserted card as the model does, and keeps the card over a reload", async () => {
    const run = labRunner(page, "sd-card");
    await run(0); // modprobe sdhci-pci under function_graph
    await expect.poll(() => runInTerminal(page, "ls /sys/class/mmc_host/"), { timeout: 60_000 }).toContain("mmc0");
    await page.getByTestId("check").click();
    await expect.poll(checkState, { timeout: 60_000 }).toBe("passed");
    await page.getByTestId("next").click();
    await page.locator('.lab-runner[data-step="1"]').waitFor();
    expect(await page.getByTestId("sd-slot").textContent()).toContain("empty");
    await run(1); // trace on, a card of a random size in, mmc_block
    // the live view reads the mmc events and sets them beside the model's
    await expect.poll(() => page.getByTestId("sd-verdict").getAttribute("data-state"), { timeout: 90_000 }).toBe("agree");
    await expect.poll(() => page.getByTestId("sd-slot").textContent(), { timeout: 10_000 }).toContain("sdsc card");
    expect(await runInTerminal(page, "cat /sys/block/mmcblk0/queue/rotational")).toBe("0");
    const sectors = await runInTerminal(page, "cat /sys/block/mmcblk0/size");
    expect(Number(sectors)).toBeGreaterThanOrEqual(32 * 2048);
    await page.getByTestId("check").click();
    await expect.poll(checkState, { timeout: 60_000 }).toBe("passed");
    // data on the card, then on to the next step: the machine is kept as that step begins
    await runInTerminal(page, "mkfs.exfat /dev/mmcblk0 > /dev/null && mkdir -p /mnt/sd && mount /dev/mmcblk0 /mnt/sd && head -c 200000 /dev/urandom > /mnt/sd/data && md5sum /mnt/sd/data > /root/sum && umount /mnt/sd && echo written", 120_000);
    await page.getByTestId("next").click();
    await page.locator('.lab-runner[data-step="2"]').waitFor();
    await expect.poll(() => page.getByTestId("lab-status").getAttribute("data-snapshot-step"), { timeout: 90_000 }).toBe("2");
    await page.reload();
    await ready();
    // the restored machine has its card: same size, same data
    expect(await runInTerminal(page, "cat /sys/block/mmcblk0/size")).toBe(sectors);
    expect(await runInTerminal(page, "mount /dev/mmcblk0 /mnt/sd && md5sum -c /root/sum; umount /mnt/sd", 60_000)).toMatch(/data: OK/);
    expect(await runInTerminal(page, "sdcard status")).toMatch(/^sdsc \d+ tran$/);
    expect(b.errors).toEqual([]);
  }, 600_000);
});
