// The lab page's machine compiles the guest's code into one-page modules (web/src/vm/machine/v86-jit.ts):
// v86's own setting, read from the core the page made, as the machine answers and after a step's
// reset (a restore into the same core, whose saved state does not hold the setting). The core is
// found by watching WebAssembly.instantiate from the page's start, as the page calls it.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launch } from "./browser";

const base = () => inject("baseUrl");

describe("the page's v86 JIT", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  beforeAll(async () => {
    b = await launch();
    await b.page.addInitScript(() => {
      const own = WebAssembly.instantiate;
      const cores: WebAssembly.Exports[] = ((window as unknown as { __cores: WebAssembly.Exports[] }).__cores = []);
      WebAssembly.instantiate = async function (...args: Parameters<typeof own>) {
        const made = await (own as (...a: unknown[]) => Promise<unknown>).apply(WebAssembly, args);
        const instance = made instanceof WebAssembly.Instance ? made : (made as { instance: WebAssembly.Instance }).instance;
        if (typeof instance.exports.set_jit_config === "function") cores.push(instance.exports);
        return made;
      } as typeof own;
    });
  });
  afterAll(() => b.close());

  /** [MAX_PAGES, MAX_EXTRA_BASIC_BLOCKS] of each v86 core the page made */
  const settings = () =>
    b.page.evaluate(() =>
      (window as unknown as { __cores: Record<string, (i: number) => number>[] }).__cores.map((e) => [e.get_jit_config(1), e.get_jit_config(3)]),
    );

  it("makes modules of one guest page, copying a multi-entry loop up to 50 blocks, and keeps them so through a reset", async () => {
    const { page } = b;
    await page.goto(`${base()}#/lab/exfat-empty-hint`);
    await page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
    expect(await settings()).toEqual([[1, 50]]);
    // step 2 keeps the machine as it begins; its reset puts that back into the same core
    await page.getByRole("button", { name: /^Next/ }).click();
    await page.locator('.lab-runner[data-step="1"]').waitFor({ timeout: 60_000 });
    // (what the page says meanwhile, so that a failure says why)
    const status = page.getByTestId("lab-status");
    const said = async () => `"${await status.textContent()}" ${JSON.stringify(await page.getByTestId("lab-problem").allTextContents())}`;
    const figure = async (name: string) => (await status.getAttribute(name)) ?? `no ${name} yet: ${await said()}`;
    await expect.poll(() => figure("data-snapshot-step"), { timeout: 60_000 }).toBe("1");
    await page.getByTestId("reset-step").click();
    await expect.poll(() => figure("data-reset-ms"), { timeout: 60_000 }).toMatch(/^\d+$/);
    expect(await settings()).toEqual([[1, 50]]);
  });
});
