// One lab in two tabs of one browser (labs/one-tab.ts): the second tab runs no machine of its
// own; "Use the lab here" has the first keep its machine and let go, and the second starts from
// that machine, also when the first was hidden mid-command and is still keeping it; a first tab
// whose command still runs can be overruled ("Take it now"), and it stops without keeping what it
// did since; a reload of the holding tab gets the lab back, not a tab waiting beside it, which
// takes the lab when it is next focused after the holder closed; an embed goes without, and a
// browser that refuses locks runs the lab as before; a tab overruled while it stores a machine
// drops that store; of two tabs asking at once, the last to ask gets the lab.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { launch, runInTerminal, screenshot, tellHidden, waitReady } from "./browser";

const LAB = "exfat-discard";

describe("one lab in two tabs", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let a: Page;
  let second: Page;
  let third: Page;
  let fourth: Page;
  let fifth: Page;
  const errors: string[] = [];
  const open = async () => {
    const p = await b.ctx.newPage();
    p.on("pageerror", (e) => errors.push(e.message));
    await p.goto(`${inject("baseUrl")}#/lab/${LAB}`);
    return p;
  };
  beforeAll(async () => {
    b = await launch();
    a = b.page;
  });
  afterAll(async () => {
    await b?.close();
  });
  /** the notice's state, or "here" where the page shows the lab's machine, else "none" */
  const hold = async (p: Page) => {
    const notice = p.getByTestId("lab-elsewhere");
    if (await notice.count()) return notice.getAttribute("data-hold");
    return (await p.locator(".vm-status").count()) ? "here" : "none";
  };

  it("the second tab runs no machine; asked, the first keeps its machine and the second goes on from it", async () => {
    await a.goto(`${inject("baseUrl")}#/lab/${LAB}`);
    await waitReady(a);
    await runInTerminal(a, "echo from-the-first-tab > /root/tab-a");

    second = await open();
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
    await second.close();
  });

  it("a tab hidden mid-command keeps its machine once the command ends, and the tab that asked starts from that one", async () => {
    // the learner leaves for another tab while a command runs: the page keeps its machine once
    // the shell is back at its prompt, and the hand-over waits for that machine to be stored
    await a.getByTestId("vm-terminal").click();
    await a.keyboard.type("sleep 20; echo slept > /root/tab-d\n");
    await tellHidden(a, true);
    third = await open();
    await expect.poll(() => hold(third), { timeout: 30_000 }).toBe("elsewhere");
    await third.getByTestId("lab-use-here").click();
    // asked while the command still runs: the hand-over waits for it and for the keep after it
    // (so the hidden page's keep is under way or still to come as the hand-over is asked for)
    expect([await hold(a), await hold(third)]).toEqual(["here", "elsewhere"]);
    await waitReady(third);
    expect(await hold(a)).toBe("gone");
    await expect(a.getByTestId("lab-elsewhere").textContent()).resolves.toMatch(/Your machine here was kept first/);
    expect(await runInTerminal(third, "cat /root/tab-d")).toBe("slept");
  });

  it("a reload of the holding tab gets the lab back, not a tab waiting beside it, which takes the lab once the holder is closed", async () => {
    fourth = await open();
    await expect.poll(() => hold(fourth), { timeout: 30_000 }).toBe("elsewhere");
    await third.reload();
    await waitReady(third);
    expect(await hold(third)).toBe("here");
    expect(await hold(fourth)).toBe("elsewhere");
    await third.close();
    // the learner comes back to the fourth tab: it takes the lab, from the newest machine
    await fourth.evaluate(() => window.dispatchEvent(new Event("focus")));
    await waitReady(fourth);
    expect(await runInTerminal(fourth, "cat /root/tab-d")).toBe("slept");
    expect(errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it("an embedded lab goes without the guard, and a browser that refuses locks runs the lab as before", async () => {
    // the fourth tab holds the lab (above); an embed of it is still offered its own start
    const embed = await b.ctx.newPage();
    await embed.goto(`${inject("baseUrl")}#/embed/lab/${LAB}`);
    await embed.getByTestId("start-vm").waitFor({ timeout: 60_000 });
    expect(await embed.getByTestId("lab-elsewhere").count()).toBe(0);
    await embed.close();
    // Web Locks refused (as an opaque origin does): the lab starts, with no notice
    const refused = await launch();
    try {
      await refused.page.addInitScript(() => {
        navigator.locks.request = () => Promise.reject(new DOMException("refused here", "SecurityError"));
      });
      await refused.page.goto(`${inject("baseUrl")}#/lab/${LAB}`);
      await waitReady(refused.page);
      expect(await refused.page.getByTestId("lab-elsewhere").count()).toBe(0);
      expect(refused.errors).toEqual([]);
    } finally {
      await refused.close();
    }
  });

  it("a tab overruled while it stores its machine drops that store: the tab that took the lab keeps the newest machine", async () => {
    // the fourth tab holds the lab (above). Its gzip workers are held back, so the machine its
    // hidden page keeps is saved but not yet stored when the lab is taken from it.
    await fourth.evaluate(() => {
      const w = window as unknown as { __held: Array<() => void>; Worker: typeof Worker };
      w.__held = [];
      const Own = w.Worker;
      w.Worker = class extends Own {
        postMessage(m: unknown, t?: Transferable[] | StructuredSerializeOptions) {
          if (m && typeof m === "object" && "state" in m) w.__held.push(() => super.postMessage(m, t as Transferable[]));
          else super.postMessage(m, t as Transferable[]);
        }
      };
    });
    const measured = (p: Page, name: string) => p.evaluate((name) => performance.getEntriesByName(name).length, name);
    await runInTerminal(fourth, "echo late > /root/tab-c");
    const saves = await measured(fourth, "fslab:snapshot-save");
    await tellHidden(fourth, true);
    await expect.poll(() => fourth.evaluate(() => (window as unknown as { __held: unknown[] }).__held.length), { timeout: 60_000 }).toBe(1);
    expect(await measured(fourth, "fslab:snapshot-save")).toBe(saves + 1);

    fifth = await open();
    await expect.poll(() => hold(fifth), { timeout: 30_000 }).toBe("elsewhere");
    await fifth.getByTestId("lab-use-here").click();
    // the hand-over waits for the store that never comes: the lab is taken
    await fifth.getByTestId("lab-take-now").waitFor({ timeout: 60_000 });
    await fifth.getByTestId("lab-take-now").click();
    await waitReady(fifth);
    await expect.poll(() => hold(fourth), { timeout: 30_000 }).toBe("gone");
    // the fourth tab's gzip goes on now, after the lab moved
    const gzips = await measured(fourth, "fslab:snapshot-gzip");
    await fourth.evaluate(() => (window as unknown as { __held: Array<() => void> }).__held.forEach((go) => go()));
    await expect.poll(() => measured(fourth, "fslab:snapshot-gzip"), { timeout: 60_000 }).toBe(gzips + 1);
    // what a reload brings back is the machine the fifth tab went on from, not the late one
    // (the fifth, started from the newest kept machine, kept none of its own since)
    expect(await measured(fifth, "fslab:snapshot-save")).toBe(0);
    await fifth.reload();
    await waitReady(fifth);
    expect(await runInTerminal(fifth, "cat /root/tab-d; ls /root/tab-c 2>&1 | grep -c 'No such'")).toBe("slept\n1");
    expect(errors).toEqual([]);
  });

  it("of two tabs that ask at once, the one that asked last gets the lab, without taking it", async () => {
    // the fifth tab holds the lab (above)
    const [b1, b2] = [await open(), await open()];
    for (const p of [b1, b2]) await expect.poll(() => hold(p), { timeout: 30_000 }).toBe("elsewhere");
    await b1.getByTestId("lab-use-here").click();
    await b2.getByTestId("lab-use-here").click();
    // the fifth lets go to the first in line, which says so; the second asks it in turn
    // (with no "Take it now" pressed: the test presses none)
    await expect.poll(() => hold(b2), { timeout: 60_000 }).toBe("here");
    await waitReady(b2);
    await expect.poll(() => hold(b1), { timeout: 30_000 }).toBe("gone");
    expect(await hold(fifth)).toBe("gone");
    expect(await runInTerminal(b2, "cat /root/tab-d")).toBe("slept");
    expect(errors).toEqual([]);
  });
});
