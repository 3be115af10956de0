// The playgrounds in Chromium, what every playground shares: a link's bad parameters. Each
// playground's own tests are its topic's (web/src/topics/<topic>/play.e2e.ts).
import { describe, expect, inject, it } from "vitest";
import { launch, screenshot } from "./browser";

const base = () => inject("baseUrl");

describe("bad input in a playground's fields and link", () => {
  it("a link with bad parameters says which, keeps them in the fields, and runs nothing until they are right", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/exfat?clusters=-5&runs=abc&batch=7`);
      const problems = b.page.getByTestId("link-problems");
      await expect.poll(() => problems.textContent()).toMatch(/clusters=-5: -5 is outside 1–60000; runs=abc: "abc" is not a whole number; batch=7: 7 is outside 0–1/);
      expect(await b.page.getByLabel("file size in 4 KiB clusters").inputValue()).toBe("-5"); // what the link said, not a substitute
      expect(await b.page.getByLabel("pieces (contiguous runs)").getAttribute("aria-invalid")).toBe("true");
      const run = b.page.getByRole("button", { name: /Run/ });
      expect(await run.isDisabled()).toBe(true);
      // put right, field by field: the message goes, the link follows what was typed
      await b.page.getByLabel("file size in 4 KiB clusters").fill("300");
      await b.page.getByLabel("pieces (contiguous runs)").fill("4");
      await b.page.getByLabel(/0: per cluster/).check();
      expect(await problems.count()).toBe(0);
      expect(b.page.url()).toMatch(/#\/play\/exfat\?clusters=300&runs=4&batch=0$/);
      expect(await run.isDisabled()).toBe(false);
      // more pieces than clusters is named on the pieces field, which keeps its 4
      await b.page.getByLabel("file size in 4 KiB clusters").fill("2");
      expect(await b.page.getByLabel("pieces (contiguous runs)").inputValue()).toBe("4");
      expect(await b.page.locator(".field-error").allTextContents()).toEqual(["at most the file's 2 clusters"]);
      expect(await run.isDisabled()).toBe(true);
      // a prediction of -5 requests is refused beside the box
      await b.page.getByLabel("file size in 4 KiB clusters").fill("300");
      await b.page.getByLabel("your guess").fill("-5");
      expect(await b.page.locator(".field-error").allTextContents()).toEqual(["-5 is outside 0–100000000"]);
      expect(await run.isDisabled()).toBe(true);
      await screenshot(b.page, "play-exfat-bad-input");
    } finally {
      await b.close();
    }
  });

  it("/play/blk: an iodepth of -5 is an error beside the field, not 45 and a run", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/play/blk`);
      await b.page.getByLabel("iodepth").fill("-5");
      expect(await b.page.getByLabel("iodepth").inputValue()).toBe("-5");
      expect(await b.page.locator(".field-error").allTextContents()).toEqual(["-5 is outside 1–64"]);
      expect(await b.page.getByRole("button", { name: /Run/ }).isDisabled()).toBe(true);
      expect(b.page.url()).toMatch(/iodepth=-5/);
      await b.page.getByLabel("iodepth").fill("99999999999");
      expect(await b.page.locator(".field-error").allTextContents()).toEqual(["99999999999 is outside 1–64"]);
      await b.page.getByLabel("iodepth").fill("8");
      expect(await b.page.locator(".field-error").count()).toBe(0);
      expect(await b.page.getByRole("button", { name: /Run/ }).isDisabled()).toBe(false);
    } finally {
      await b.close();
    }
  });
});
