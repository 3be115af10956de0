// axe-core 4 in Chromium on every kind of page of the built site: the home page and its
// course, a playground, a lab page at a step with each kind of block (text, Run buttons, a
// check, a prediction, a question, a hint, a solution), an embedded view and an embedded lab,
// and a lab open in another tab.
// Any violation fails, named with its rule and the elements it found, so a new one cannot land.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { launch } from "./browser";

const base = () => inject("baseUrl");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** a page loaded afresh (not a hash change on the page before: each test judges its own page) */
async function open(page: Page, route: string): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${base()}#${route}`);
}

/** axe's violations on the page as it is now (its script evaluated over the DevTools protocol: the site's CSP allows no injected script tag) */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  })) as AxeViolation[];
  return found.map((v) => `${v.impact ?? "?"} ${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(", ")})`);
}

describe("axe-core finds nothing on any kind of page", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  beforeAll(async () => {
    b = await launch({ width: 1280 });
  });
  afterAll(() => b?.close());

  it("the home page and its course", async () => {
    await open(b.page, "/");
    await b.page.getByTestId("course-map").locator("svg").waitFor();
    expect(await violations(b.page)).toEqual([]);
  });

  it("a playground", async () => {
    await open(b.page, "/play/exfat");
    await b.page.locator("button", { hasText: "Run without predicting" }).waitFor();
    expect(await violations(b.page)).toEqual([]);
  });

  it("a lab page at a step with Run buttons, a check, a hint and a prediction, and a challenge's question", async () => {
    await open(b.page, "/lab/exfat-discard");
    await b.page.locator('.vm-status[data-phase="ready"]').waitFor({ timeout: 150_000 });
    expect(await violations(b.page)).toEqual([]);
    // the step with a prediction (step 4) and the challenge with its question (step 3)
    for (const step of [3, 2]) {
      await b.page.getByTestId(`outline-${step}`).click();
      await b.page.locator(`.lab-runner[data-step="${step}"]`).waitFor();
      expect(await violations(b.page), `step ${step + 1}`).toEqual([]);
    }
  });

  it("an embedded view and an embedded lab", async () => {
    await open(b.page, "/embed/view/exfat-clusters");
    await b.page.locator('[data-embed="exfat-clusters"]').waitFor();
    await b.page.locator('[data-embed="exfat-clusters"] button').first().waitFor(); // the view, loaded
    expect(await violations(b.page)).toEqual([]);
    await open(b.page, "/embed/lab/exfat-discard");
    await b.page.getByTestId("start-vm").waitFor({ timeout: 60_000 });
    expect(await violations(b.page)).toEqual([]);
  });

  it("a lab open in another tab, and the tab it moved from (one-tab.ts)", async () => {
    await open(b.page, "/lab/exfat-discard");
    await b.page.locator('.vm-status[data-phase="ready"]').waitFor({ timeout: 150_000 });
    const second = await b.ctx.newPage();
    await second.goto(`${base()}#/lab/exfat-discard`);
    await second.getByTestId("lab-use-here").waitFor({ timeout: 30_000 });
    expect(await violations(second)).toEqual([]);
    await second.getByTestId("lab-use-here").click();
    await b.page.locator('[data-testid="lab-elsewhere"][data-hold="gone"]').waitFor({ timeout: 60_000 });
    expect(await violations(b.page)).toEqual([]);
    await second.close();
  });
});
