// One lab in two tabs of one browser (labs/one-tab.ts): the second tab runs no machine of its
// own; "Use the lab here" has the first keep its machine and let go, and the second starts from
// that machine; a first tab whose command still runs can be overruled ("Take it now"), and it
// stops without keeping what it did since; a tab waiting behind another takes the lab when that
// one is closed, and a reload is never taken for another tab.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { launch, runInTerminal, screenshot, waitReady } from "./browser";

const LAB = "exfat-discard";

describe("one lab in two tabs", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let a: Page;
  let second: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    b = await launch();
    a = b.page;
    second = await b.ctx.newPage();
    second.on("pageerror", (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await b?.close();
  });
  const hold = (p: Page) => p.getByTestId("lab-elsewhere").getAttribute("data-hold", { timeout: 1000 }).catch(() => "here");

  it("the second tab runs no machine; asked, the first keeps its machine and the second goes on from it", async () => {
    await a.goto(`${inject("baseUrl")}#/lab/${LAB}`);
    await waitReady(a);
    await runInTerminal(a, "echo from-the-first-tab > /root/tab-a");

    await second.goto(`${inject("baseUrl")}#/lab/${LAB}`);
    await expect.poll(() => hold(second), { timeout: 30_000 }).toBe("elsewhere");
    await expect(second.getByRole("heading", { name: "This lab is open in another tab" }).isVisible()).resolves.toBe(true);
    await screenshot(second, "tabs-elsewhere");
    // no machine, nor the lab's steps, in the second tab; the first goes on
    expect(await second.locator(".vm-status").count()).toBe(0);
    expect(await runInTerminal(a, "cat /root/tab-a")).toBe("from-the-first-tab");

    await second.getByTestId("lab-use-here").click();
    await waitReady(second);
    expect(await hold(a)).toBe("gone");
    await expect(a.getByTestId("lab-elsewhere").textContent()).resolves.toMatch(/Your machine here was kept first/);
    expect(await a.locator(".vm-status").count()).toBe(0);
    // started from the first tab's machine, kept as it was left
    await expect(second.locator(".vm-status").textContent()).resolves.toMatch(/kept as you left the page in step 1/);
    expect(await runInTerminal(second, "cat /root/tab-a")).toBe("from-the-first-tab");
  });

  it("a tab that does not let go (a command running) is overruled, and what it did since is not kept", async () => {
    await runInTerminal(second, "echo from-the-second-tab > /root/tab-b");
    await second.getByTestId("vm-terminal").click();
    await second.keyboard.type("sleep 600\n");

    await a.getByTestId("lab-use-here").click();
    // the second tab waits for its command; the first offers to take the lab anyway
    await a.getByTestId("lab-take-now").waitFor({ timeout: 60_000 });
    await screenshot(a, "tabs-take-now");
    expect(await hold(second)).toBe("here");
    await a.getByTestId("lab-take-now").click();
    await waitReady(a);
    await expect.poll(() => hold(second), { timeout: 30_000 }).toBe("gone");
    await expect(second.getByTestId("lab-elsewhere").textContent()).resolves.toMatch(/before this one could keep its machine/);
    await screenshot(second, "tabs-gone");
    // the newest kept machine: the first tab's, without the second's file
    expect(await runInTerminal(a, "cat /root/tab-a; ls /root/tab-b 2>&1 | grep -c 'No such'")).toBe("from-the-first-tab\n1");
  });

  it("a reload of the holding tab opens the lab again; a tab opened beside it takes the lab when it closes", async () => {
    await a.reload();
    await waitReady(a);
    expect(await hold(a)).toBe("here");
    const third = await b.ctx.newPage();
    third.on("pageerror", (e) => errors.push(e.message));
    await third.goto(`${inject("baseUrl")}#/lab/${LAB}`);
    await expect.poll(() => hold(third), { timeout: 30_000 }).toBe("elsewhere");
    await a.close();
    await waitReady(third);
    expect(await runInTerminal(third, "cat /root/tab-a")).toBe("from-the-first-tab");
    expect(errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });
});
