// The SD card in the page, in Chromium: the lab's steps as a learner takes them, the slot view's
// verdict (the kernel's initialisation beside the model's, live), the card's state and its CID
// and CSD read from the kernel's records beside the model's (pictures at 1440 and 360 px), an
// exFAT volume written to the card, and the card and its data back after a reload (the step's
// snapshot carries the SD host and the card's image after v86's state); a tab the browser froze
// says that its measurements include the pause.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { join } from "node:path";
import { ARTIFACTS, labRunner, launch, pressCheck, runInTerminal, screenshot, tellHidden } from "./browser";
import { busTimes, DEFAULT_SPEED_HZ, requestMs } from "../web/src/shared/sd-timing";
import { heldToModel } from "./sd-latency";

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
    await pressCheck(page);
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
    await pressCheck(page);
    await expect.poll(checkState, { timeout: 60_000 }).toBe("passed");
    // the state machine and the registers from the kernel's own records, beside the model's
    const states = page.getByTestId("sd-kernel-states");
    await expect.poll(() => states.getAttribute("data-kernel-state"), { timeout: 10_000 }).toBe("tran");
    expect(await states.getAttribute("data-model-state")).toBe("tran");
    expect(await states.getAttribute("data-differ")).toBe("0");
    expect(Number(await states.getAttribute("data-compared"))).toBeGreaterThanOrEqual(8);
    await expect.poll(() => page.getByTestId("sd-kernel-cid").getAttribute("data-differ"), { timeout: 10_000 }).toBe("0");
    // the CSD field by field is held back while the lab's challenge (step 3, which decodes it by
    // hand) is ahead and not passed
    expect(await page.getByTestId("sd-csd-held").count()).toBe(1);
    expect(await page.getByTestId("sd-csd-fields").count()).toBe(0);
    // the block driver's requests after ACMD6 (the partition table's read) are counted, not dropped unsaid
    expect(Number(await page.getByTestId("sd-after").getAttribute("data-after"))).toBeGreaterThanOrEqual(1);
    // by keyboard: the first request (no state reported yet), then the last again
    const slider = page.getByLabel("request shown");
    await slider.focus();
    await page.keyboard.press("Home");
    await expect.poll(() => states.getAttribute("data-kernel-state")).toBeNull();
    expect(await states.getAttribute("data-model-state")).toBe("idle");
    await page.keyboard.press("End");
    await expect.poll(() => states.getAttribute("data-kernel-state")).toBe("tran");
    // the text table of the states: every row compared or said not to be
    await states.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => states.locator("tbody tr").count(), { timeout: 5_000 }).toBeGreaterThan(20); // rows are built once opened
    const stateRows = await states.locator("tbody tr").allTextContents();
    expect(stateRows.filter((r) => r.includes("differs"))).toEqual([]);
    // pictures: the whole page at 1440 px (tall, so the sticky terminal covers none of the view);
    // at 360 px the view alone, with the phone's terminal dock hidden by its own button
    await page.setViewportSize({ width: 1440, height: 2800 });
    await screenshot(page, "sd-init-kernel-1440");
    await page.setViewportSize({ width: 360, height: 800 });
    await page.getByTestId("dock-min").click();
    await page.locator('section[aria-label="the SD card\'s initialisation"]').screenshot({ path: join(ARTIFACTS, "sd-init-kernel-360.png") });
    await page.getByTestId("dock-half").click();
    await page.setViewportSize({ width: 1280, height: 900 });
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
    // the challenge's step: the CSD field by field is held back (it would answer it) until it passes
    await expect.poll(() => page.getByTestId("sd-csd-held").count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId("sd-csd-fields").count()).toBe(0);
    await runInTerminal(
      page,
      "csd=$(cat /sys/block/mmcblk0/device/csd); w1=$((0x${csd:8:8})); w2=$((0x${csd:16:8})); bl=$(( (w1 >> 16) & 0xf )); c=$(( ((w1 & 0x3ff) << 2) | (w2 >> 30) )); m=$(( (w2 >> 15) & 7 )); echo $c $m $bl $(( (c + 1) << (m + 2) << (bl - 9) )) > /tmp/capacity",
    );
    await pressCheck(page);
    await expect.poll(checkState, { timeout: 60_000 }).toBe("passed");
    await expect.poll(() => page.getByTestId("sd-csd-fields").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId("sd-csd-held").count()).toBe(0);
    // then folded until opened: the kernel's CSD beside the model's card of the same serial
    expect(await page.getByTestId("sd-kernel-csd").isVisible()).toBe(false);
    await page.getByTestId("sd-csd-fields").locator("summary").click();
    expect(await page.getByTestId("sd-kernel-csd").isVisible()).toBe(true);
    expect(await page.getByTestId("sd-kernel-csd").getAttribute("data-differ")).toBe("0");
    const capacity = page.getByTestId("sd-kernel-csd").locator('tr[data-field="capacity"] td');
    expect(await capacity.first().textContent()).toBe(`${sectors} sectors (${Number(sectors) * 512} bytes)`); // the kernel's CSD, as the kernel sized the disk
    expect(await page.getByTestId("sd-kernel-csd").locator('tr[data-field="CSD_STRUCTURE"] td').first().textContent()).toBe("0 (version 1)");
    // the card's time in the page: fio's random 4 KiB reads at depth 1, p50 and p99 as the
    // model predicts (card + the machine's own + the host's lateness: e2e/sd-latency.ts), up to
    // PAIRS pairs of runs, each floored at the card's time
    const card = requestMs(busTimes(DEFAULT_SPEED_HZ, 4), false, 8);
    const inGuest = (cmd: string) => runInTerminal(page, cmd, 180_000);
    const held = (what: string) => heldToModel(inGuest, "randread", card, (line) => console.log(`fio in the page, ${what}: ${line}`));
    await held("the tab shown");
    // A hidden tab's guest waits through v86's timer worker, not the page's timers (which a
    // browser throttles to once a second there: v86-pace.ts). Headless Chromium never hides a
    // tab, so the page is told it is hidden: this holds the worker's path to the model, not the
    // browser's throttling (a worker's timers are not throttled by it).
    await tellHidden(page, true);
    try {
      await held("the tab hidden");
    } finally {
      await tellHidden(page, false);
    }
    expect(b.errors).toEqual([]);
  }, 600_000);

  it("a tab the browser froze says so: times measured across the pause include it; the machine goes on", async () => {
    expect(await page.getByTestId("vm-paused").count()).toBe(0);
    // A browser freezes only a hidden tab, and headless Chromium has none (a page behind another,
    // or a minimised window, stays visible, its timers unthrottled, and CDP's lifecycle state
    // leaves a visible page running): the page gets the two events a freeze sends it, 2 s apart.
    await page.evaluate(() => document.dispatchEvent(new Event("freeze")));
    await new Promise((r) => setTimeout(r, 2000)); // the deliberate pause
    await page.evaluate(() => document.dispatchEvent(new Event("resume")));
    await expect.poll(() => page.getByTestId("vm-paused").textContent(), { timeout: 30_000 }).toMatch(/^The browser froze this tab for (\d+\.\d) s/);
    const s = Number((await page.getByTestId("vm-paused").textContent())!.match(/for (\d+\.\d) s/)![1]);
    expect(s).toBeGreaterThanOrEqual(1.9);
    expect(await runInTerminal(page, "sdcard status")).toMatch(/^sdsc \d+ tran$/);
    await page.getByTestId("vm-paused").getByRole("button", { name: "Dismiss" }).click();
    expect(await page.getByTestId("vm-paused").count()).toBe(0);
  }, 120_000);
});
