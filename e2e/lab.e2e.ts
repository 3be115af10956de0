// The first slice end to end: the lab page boots our kernel to a shell, the terminal runs
// commands in it, and the exFAT view's numbers are the wasm model's. The other labs' views of
// the kernel's own records (streamed, or read off the disk it wrote) are checked against the
// model in walk.e2e.ts, on the walk's runs of the labs' solutions (its `shown`), not by running
// the same guest work a second time here.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { labRunner, launch, runInTerminal, screenshot, steady, tellHidden } from "./browser";
import { loadCoreModule } from "../web/src/shared/node-load";
import { ExfatCore } from "../web/src/topics/exfat/exfat-core";
import { ExfatLab } from "../web/src/topics/exfat/exfat-scenario";
import { DiscardPolicy } from "../web/src/topics/exfat/events";
import { dirRun } from "../web/src/topics/exfat/exfat-dir";

const base = () => inject("baseUrl");

describe("home page", () => {
  it("lists the labs with links to them", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/`);
      // the course draws each lab in its picture and lists it in the table beside it
      const link = b.page.locator('a[href="#/lab/exfat-discard"]');
      await expect.poll(() => link.count()).toBeGreaterThanOrEqual(1);
      expect(await link.first().textContent()).toMatch(/exFAT/);
    } finally {
      await b.close();
    }
  });
});

/**
 * The page's requests for the saved state, counted until the page marks its prompt
 * (fslab:vm-prompt): what the machine's load asked for. The state worker's fetch is not in the
 * page's own resource timeline, hence the requests; after the prompt the page keeps the file for
 * offline use (keepLabOffline), from the HTTP cache, which Chromium reports as a request too.
 * The count at the prompt, or -1 before it. Set up before the page is loaded.
 */
async function stateRequestsToPrompt(page: Page): Promise<() => number> {
  let states = 0;
  let atPrompt = -1;
  page.on("request", (r) => void (/\/vm\/state\.bin\.xz/.test(r.url()) && states++));
  await page.exposeFunction("fslabPromptSeen", () => void (atPrompt = states));
  await page.addInitScript(() =>
    new PerformanceObserver((l) => l.getEntries().some((e) => e.name === "fslab:vm-prompt") && (window as any).fslabPromptSeen()).observe({ type: "mark" }),
  );
  return () => atPrompt;
}

describe("a returning learner's saved machine", () => {
  it("comes from the copy the first visit kept: no download, nothing to un-xz, a working shell", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/lab/exfat-discard`);
      await b.page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
      expect(await b.page.evaluate(() => (performance.getEntriesByName("fslab:vm-state").at(-1) as PerformanceMeasure).detail.from)).toBe("file");
      // the state worker keeps the plain state, whole, in the origin's private file system once
      // it has handed it over
      const rawBytes = (JSON.parse(readFileSync(new URL("../kernel-image/dist/state.json", import.meta.url), "utf8")) as { raw_bytes: number }).raw_bytes;
      const kept = () =>
        b.page.evaluate(async () => {
          const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle("fslab-vm-state", { create: true });
          const sizes: number[] = [];
          for await (const h of dir.values()) if (h instanceof FileSystemFileHandle) sizes.push((await h.getFile()).size);
          return sizes;
        });
      await expect.poll(kept, { timeout: 30_000 }).toEqual([rawBytes]);
      // no service worker here (the tests block them), so the page keeps no files for offline
      // use (keepLabOffline), and no request of that keeping lands in the count below (it did,
      // a flake, while every page kept them)
      const atPrompt = await stateRequestsToPrompt(b.page);
      await b.page.reload();
      await b.page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
      expect(await b.page.evaluate(() => (performance.getEntriesByName("fslab:vm-state").at(-1) as PerformanceMeasure).detail.from)).toBe("copy");
      await expect.poll(atPrompt, { timeout: 30_000 }).not.toBe(-1);
      expect(atPrompt()).toBe(0);
      expect(await runInTerminal(b.page, "echo fslab-$((6 * 7))")).toBe("fslab-42");
    } finally {
      await b.close();
    }
  });
});

describe("a lab page left before its machine's files came", () => {
  it("leaves the files fetched ahead to the next machine: the saved state is downloaded once", async () => {
    const b = await launch();
    try {
      // the state held back, so the page is left while it is still on its way
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await b.page.route(/\/vm\/state\.bin\.xz/, async (route) => {
        await held;
        await route.continue();
      });
      const atPrompt = await stateRequestsToPrompt(b.page);
      await b.page.goto(`${base()}#/lab/exfat-discard`);
      await b.page.locator('.vm-status[data-phase="loading"]').waitFor({ timeout: 30_000 });
      await b.page.goto(`${base()}#/`); // the lab page goes, and its machine is torn down
      await b.page.locator('a[href="#/lab/exfat-discard"]').first().waitFor({ timeout: 30_000 });
      release();
      await b.page.goto(`${base()}#/lab/exfat-discard`);
      await b.page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
      expect(await b.page.locator(".vm-status").textContent()).toMatch(/restored the saved machine/);
      expect(atPrompt()).toBe(1);
    } finally {
      await b.close();
    }
  });
});

describe("exfat-discard lab", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;

  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/lab/exfat-discard`);
  });
  afterAll(async () => {
    await screenshot(page, "exfat-discard-lab");
    await b.close();
  });

  it("starts by restoring the saved machine, at a shell prompt", async () => {
    const status = page.locator(".vm-status");
    await page.waitForSelector('[data-phase="ready"], [data-phase="failed"]', { timeout: 150_000 });
    expect(await status.getAttribute("data-phase"), (await status.textContent()) ?? "").toBe("ready");
    expect(await status.getAttribute("data-start")).toBe("restored");
    expect(await status.textContent()).toMatch(/restored the saved machine/);
    // the lab's views load once the prompt is there: their chunks do not share the page's
    // thread with the restore and the first command
    await page.getByTestId("exfat-view").first().waitFor({ timeout: 30_000 });
    const order = await page.evaluate(() => ({
      prompt: performance.getEntriesByName("fslab:vm-prompt")[0]?.startTime ?? NaN,
      views: Math.min(...performance.getEntriesByType("resource").filter((r) => /\/lab-views-[^/]*\.js$/.test(r.name)).map((r) => r.startTime)),
    }));
    expect(Number.isFinite(order.views) && order.views > order.prompt, JSON.stringify(order)).toBe(true);
  });

  it("runs uname -r in the guest: Linux 7.2", async () => {
    expect(await runInTerminal(page, "uname -r")).toMatch(/^7\.2\.\d+/);
  });

  it("is no keyboard trap: Tab stays in the shell, Escape then Tab leaves, and the terminal says so", async () => {
    await page.getByTestId("vm-terminal").click();
    const inTerminal = () => page.evaluate(() => document.activeElement?.classList.contains("xterm-helper-textarea") ?? false);
    expect(await inTerminal()).toBe(true);
    expect(await page.getByTestId("vm-keys").isVisible()).toBe(true);
    expect(await page.getByTestId("vm-keys").textContent()).toMatch(/Esc.*then.*Tab/);
    await page.keyboard.press("Tab"); // the shell's: completion
    expect(await inTerminal()).toBe(true);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    expect(await inTerminal()).toBe(false);
    expect(await page.getByTestId("vm-keys").isVisible()).toBe(false);
    // back in, Escape then Shift+Tab leaves backwards; an Escape before another key reaches the shell
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.press("Escape");
    await page.keyboard.press("Shift+Tab");
    expect(await inTerminal()).toBe(false);
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.press("Control+u"); // whatever the Tab completion left on the line
    expect(await runInTerminal(page, "echo still-here")).toMatch(/still-here/);
  });

  it("runs under the built site's Content-Security-Policy with nothing refused", async () => {
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content")).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
    // a script the page did not ship does not run (no inline script)
    const ran = await page.evaluate(() => {
      const el = document.createElement("div");
      el.innerHTML = '<img src="x" onerror="window.__injected = 1">';
      document.body.appendChild(el);
      return new Promise((r) => setTimeout(() => r((window as unknown as { __injected?: number }).__injected ?? 0), 300));
    });
    expect(ran).toBe(0);
    const injected = (m: string) => /inline event handler|script-src-attr/i.test(m);
    expect(b.csp.some(injected)).toBe(true); // refused by the policy, and reported
    expect(b.csp.filter((m) => !injected(m))).toEqual([]); // the VM restored, the views ran: nothing else refused
  });

  it("the guest kernel has exfat and vfat built in, and loads ext4 and f2fs at their first mount", async () => {
    const lessonFs = async () =>
      (await runInTerminal(page, "grep -ow -e exfat -e vfat -e ext4 -e f2fs /proc/filesystems | sort | tr '\\n' ' '; echo"))
        .split(/\s+/)
        .filter(Boolean);
    // the saved machine carries no ext4 or F2FS code: they are modules on the 9p root
    expect(await lessonFs()).toEqual(["exfat", "vfat"]);
    // a plain mount, as a lab does it: the kernel runs /bin/modprobe for fs-ext4 and fs-f2fs
    const mounted = await runInTerminal(
      page,
      "cd /tmp && truncate -s 8M m4.img && mkfs.ext4 -q m4.img && truncate -s 64M mf.img && mkfs.f2fs -q mf.img > /dev/null" +
        " && mkdir -p /mnt/m4 /mnt/mf && mount -o loop m4.img /mnt/m4 && mount -o loop mf.img /mnt/mf" +
        " && grep -ow -e '/mnt/m4 ext4' -e '/mnt/mf f2fs' /proc/mounts | tr '\\n' ' '; echo; umount /mnt/m4 /mnt/mf; rm m4.img mf.img; cd",
      90_000,
    );
    expect(mounted).toMatch(/\/mnt\/m4 ext4 \/mnt\/mf f2fs/);
    expect(await lessonFs()).toEqual(["exfat", "ext4", "f2fs", "vfat"]);
  });

  it("copies nothing for offline use where no service worker can serve it (these tests block them)", async () => {
    // the lab page keeps its VM's files in the service worker's caches only once the worker
    // registered (embed.e2e's offline test has one): here, seconds after the prompt, none
    await page.waitForTimeout(5000); // keepLabOffline's pause before the root filesystem is 3 s
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => !!r))).toBe(false);
    expect(await page.evaluate(() => caches.has("fslab-vm"))).toBe(false);
  });

  it("the view changes on create and delete, with the model's discard counts", async () => {
    // what the model computes for the same actions, run here in Node on the same wasm build
    const core = ExfatCore.create(await loadCoreModule("exfat"), 512, 3);
    const model = new ExfatLab(core);
    const fragId = model.createFragmented(20, 4);
    const expected = model.delete(fragId, DiscardPolicy.PerCluster);
    const expectedAgain = model.delete(model.createFragmented(20, 4), DiscardPolicy.Batched);
    core.dispose();
    expect(expected.discards.length).toBe(20); // one per cluster
    expect(expected.otherPolicyDiscards).toBe(4); // one per run

    const canvas = page.getByTestId("cluster-canvas");
    const pixels = () => canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());
    const empty = await pixels();

    await page.getByRole("button", { name: "Create fragmented file" }).click();
    const frag = page.locator("tr[data-file^=frag]");
    await expect.poll(() => frag.count()).toBe(1);
    expect(await frag.locator("td").nth(2).textContent()).toBe("4"); // runs
    expect(await frag.locator("td").nth(3).textContent()).toBe("FAT chain");
    const withFile = await pixels();
    expect(withFile).not.toBe(empty);

    await page.getByLabel("0: per cluster (≤ 6.14)").check();
    await page.getByTestId("delete").click();
    await expect.poll(() => page.getByTestId("discard-count").count()).toBe(1);
    expect(Number(await page.getByTestId("discard-count").textContent())).toBe(expected.discards.length);
    expect(Number(await page.getByTestId("other-discard-count").textContent())).toBe(expected.otherPolicyDiscards);
    expect(await page.locator(".discard-list li").count()).toBe(expected.discards.length);
    expect(await frag.count()).toBe(0);
    expect(await pixels()).not.toBe(withFile);

    // the same delete under the batched policy: one request per run
    await page.getByRole("button", { name: "Create fragmented file" }).click();
    await expect.poll(() => frag.count()).toBe(1);
    const beforeDelete = await pixels();
    await page.getByLabel("1: batched (≥ 6.15)").check();
    await page.getByTestId("delete").click();
    await expect.poll(async () => Number(await page.getByTestId("discard-count").textContent())).toBe(expectedAgain.discards.length);
    expect(expectedAgain.discards.length).toBe(4);
    const afterDelete = await pixels();

    // replay it: back to the start the grid is the volume before the delete, at the end after
    const steps = expectedAgain.events.length / 4; // every event of a delete is a clear or a discard
    const position = () => page.getByTestId("position").textContent();
    expect(await position()).toBe(`${steps} / ${steps} events`);
    await page.getByRole("button", { name: "to the start" }).click();
    await expect.poll(position).toBe(`0 / ${steps} events`);
    expect(await page.getByTestId("replay-discards").textContent()).toBe("0");
    await expect.poll(pixels).toBe(beforeDelete);
    // by keyboard: Right steps one event, End goes to the end
    await page.getByTestId("play").focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(position).toBe(`1 / ${steps} events`);
    expect(await pixels()).not.toBe(beforeDelete);
    // play to the end at the fastest speed
    await page.locator(".step-controls select").selectOption("10000");
    await page.getByTestId("play").click();
    // frames come as the emulator, on the same main thread, lets them: give them time
    await expect.poll(position, { timeout: 10_000 }).toBe(`${steps} / ${steps} events`);
    expect(await page.getByTestId("replay-discards").textContent()).toBe("4");
    await expect.poll(pixels).toBe(afterDelete);
    expect(await page.getByTestId("cost-so-far").textContent()).toMatch(/ so far of /);
  });

  it("shows the real kernel's discards live: 64 per cluster, then 4 batched for the same 4-run file", async () => {
    // step 1's "Run in VM" button makes and mounts the volume
    await labRunner(page, "exfat-discard")(0);
    await runInTerminal(page, "grep -c ' /mnt/x exfat' /proc/mounts");
    await runInTerminal(page, "fslab-trace start exfat/exfat_discard");
    const write4runs = "for i in 1 2 3 4; do dd if=/dev/zero bs=64K count=1 >> /mnt/x/frag 2>/dev/null; dd if=/dev/zero bs=4K count=1 >> /mnt/x/log 2>/dev/null; done; sync";
    await runInTerminal(page, write4runs);
    await runInTerminal(page, "echo 0 > /sys/module/exfat/parameters/batch_discard; rm /mnt/x/frag; sync");
    const count = () => page.getByTestId("kernel-discard-count").textContent().then(Number).catch(() => -1);
    await expect.poll(count, { timeout: 30_000 }).toBe(64);
    await runInTerminal(page, write4runs);
    await runInTerminal(page, "echo 1 > /sys/module/exfat/parameters/batch_discard; rm /mnt/x/frag; sync");
    await expect.poll(count, { timeout: 30_000 }).toBe(64 + 4);
    expect(await page.getByTestId("kernel-discards").textContent()).toMatch(/4 batched, 64 per cluster/);
    // each delete against the model's delete of the same file (its runs read off the kernel's clusters)
    for (const i of [0, 1]) await expect.poll(() => page.getByTestId(`kernel-delete-${i}`).getAttribute("data-match"), { timeout: 30_000 }).toBe("yes");
    expect(await page.getByTestId("kernel-delete-0").locator("td").nth(2).textContent()).toBe("4 runs: 16 + 16 + 16 + 16");
    // the same cluster grid as the model's, drawn from the kernel's events: the newest delete's 4 requests
    const grid = page.getByTestId("kernel-delete-grid");
    expect(await grid.getAttribute("data-requests")).toBe("4");
    expect(await grid.getByTestId("cluster-canvas").getAttribute("aria-label")).toMatch(/^Cluster heap: 64 of \d+ clusters in use/);
    const outlined = await grid.locator("rect.discard").count();
    expect(outlined).toBeGreaterThanOrEqual(4);
    expect(outlined).toBeLessThanOrEqual(8); // a run of 16 may wrap one row of 32
    await grid.getByLabel("delete").selectOption("0");
    await expect.poll(() => grid.getAttribute("data-requests")).toBe("64");
    expect(await grid.locator("rect.discard").count()).toBe(64);
  });
});

describe("exfat-empty-hint lab", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/lab/exfat-empty-hint`);
  });
  afterAll(async () => {
    await screenshot(page, "exfat-empty-hint-lab");
    await b.close();
  });

  it("the model view counts the entries each search examines, with and without the hint", async () => {
    const m = await loadCoreModule("exfat");
    const ops = Array.from({ length: 100 }, (_, i) => `+f${i + 1}`);
    const [hint, old] = [true, false].map((h) => dirRun(m, h, ops));
    await page.getByRole("button", { name: "Create 100 files" }).click();
    await expect.poll(() => page.getByTestId("examined-1").textContent()).toBe(String(hint.examined));
    expect(await page.getByTestId("examined-0").textContent()).toBe(String(old.examined));
    expect(hint.examined).toBe(300); // its own 3 entries per create
    // Linux 6.1: all the entries before it, and its own; and where the directory grows, the
    // free entries at its end (the hint 6.1 keeps for the new cluster) read once more: 2 at
    // the 43rd create, 1 at the 86th (128 entries a cluster)
    expect(old.examined).toBe(3 * (100 * 101) / 2 + 3);
  });

  it("a guess after the step's set-up Run (above the prediction) is not after measuring; after the kernel did what it counts it is", async () => {
    await page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
    await page.getByRole("button", { name: /^Next/ }).click(); // step 1 is read
    await page.locator('.lab-runner[data-step="1"]').waitFor({ timeout: 60_000 });
    const predict = page.locator('.lab-runner [data-testid="predict"]').first();
    const setUp = page.locator(".lab-runner .step > .vm-cmd > button").first();
    const source = page.getByTestId("check-source"); // what the step checks (its bounds would answer the prediction) waits for the guess
    expect(await source.textContent()).toMatch(/Shown once you have made the step's prediction/);
    expect(await source.textContent()).not.toMatch(/empty_entries_examined/);
    await setUp.click();
    // the page hidden and shown again while it runs: its lines are the set-up's, not a measurement
    await expect.poll(() => setUp.getAttribute("data-phase"), { interval: 50 }).toBe("typing");
    await tellHidden(page, true).then(() => tellHidden(page, false));
    await expect.poll(() => setUp.getAttribute("data-phase"), { timeout: 120_000, interval: 250 }).toBe("idle");
    await predict.locator("input").fill("610");
    await predict.getByRole("button", { name: "Record my prediction" }).click();
    await expect.poll(() => predict.getAttribute("data-answered")).toBe("1");
    expect(await predict.getByTestId("after-measuring").count()).toBe(0);
    await expect.poll(() => source.textContent()).toMatch(/empty_entries_examined/);
    // the next step's prediction adds up the searches after its run's trace_marker line: a create
    // after that line measures it (the guess once the page has its event: the hidden panel counts it)
    await page.getByTestId("outline-2").click();
    await page.locator('.lab-runner[data-step="2"]').waitFor({ timeout: 60_000 });
    const count = page.getByTestId("kernel-search-count"), searches = async () => ((await count.count()) ? Number(await count.textContent()) : 0);
    const before = await runInTerminal(page, "mkdir -p /mnt/d/dir; echo made").then(() => steady(searches)); // the directory first, on its own: its search (in the root) could stand for the create's
    await runInTerminal(page, 'echo "fslab: dir run" > /sys/kernel/tracing/trace_marker; : > /mnt/d/dir/early; echo made');
    await expect.poll(searches, { timeout: 30_000 }).toBeGreaterThan(before);
    await predict.locator("input").fill("55000");
    await predict.getByRole("button", { name: "Record my prediction" }).click();
    await expect.poll(() => predict.getByTestId("after-measuring").textContent().catch(() => ""), { timeout: 30_000 }).toMatch(/the kernel had already done it when you answered/);
  });
});

describe("write-path lab", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const rowsFor = (call: string) => page.locator(`[role="treeitem"][data-call="${call}"]`).count();
  const calls = (layer: string) => page.locator(`[data-testid="layer-table"] tr[data-layer="${layer}"] td`).nth(1).textContent().then(Number);

  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/lab/write-path`);
  });
  afterAll(async () => {
    await screenshot(page, "write-path-lab");
    await b.close();
  });

  it("shows a recorded buffered write ending in the page cache, opened the way down, and steps through it by keyboard", async () => {
    await page.getByTestId("write-path").getByRole("button", { name: "buffered write", exact: true }).click();
    await expect.poll(() => page.getByTestId("trace-source").textContent()).toMatch(/conv=notrunc/);
    expect(await rowsFor("generic_perform_write")).toBe(1);
    expect(await rowsFor("submit_bio")).toBe(0);
    expect(await calls("blk-mq")).toBe(0);
    expect(await calls("page cache")).toBeGreaterThan(0);
    // keyboard: generic_perform_write, a landmark with no landmark below it, is shown closed
    const row = page.locator('[role="treeitem"][data-call="generic_perform_write"]');
    const rows = await page.locator('[role="treeitem"]').count();
    await row.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => row.getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator('[role="treeitem"]').count()).toBeGreaterThan(rows);
    await page.keyboard.press("ArrowLeft"); // close it
    await expect.poll(() => row.getAttribute("aria-expanded")).toBe("false");
    await page.keyboard.press("ArrowLeft"); // to its caller
    const caller = page.locator('[role="treeitem"][aria-selected="true"]');
    expect(await caller.getAttribute("data-call")).toBe("ext4_buffered_write_iter");
  });

});

describe("cold boot", () => {
  it("boots our kernel from scratch on request, to a working shell", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/lab/exfat-discard`);
      await b.page.waitForSelector('[data-phase="ready"]', { timeout: 150_000 });
      await b.page.getByRole("button", { name: "Cold boot" }).click();
      // the kernel boots for seconds under one status ("Booting Linux"): its clock counts on
      await b.page.waitForSelector('[data-phase="booting"]', { timeout: 30_000 });
      // the clock and the phase read together: two reads raced the boot's end on a loaded machine
      // (the clock read 2 s more, and by the next read the shell was starting); -1 once it is not booting
      const seconds = () =>
        b.page.evaluate(() =>
          document.querySelector(".vm-status")?.getAttribute("data-phase") === "booting" ? Number(document.querySelector('[data-testid="vm-elapsed"]')?.textContent?.match(/(\d+) s/)?.[1]) : -1,
        );
      const first = await seconds();
      expect(first).toBeGreaterThanOrEqual(0);
      await expect.poll(seconds, { timeout: 5_000 }).toBeGreaterThanOrEqual(first + 1);
      await b.page.waitForSelector('[data-phase="ready"][data-start="cold"], [data-phase="failed"]', { timeout: 150_000 });
      expect(await b.page.locator(".vm-status").getAttribute("data-phase")).toBe("ready");
      expect(await runInTerminal(b.page, "uname -r")).toMatch(/^7\.2\.\d+/);
    } finally {
      await b.close();
    }
  });
});

describe("a VM that cannot start", () => {
  it.each([["the saved state", /state\.bin\.xz/], ["the kernel", /bzImage/], ["the emulator's core", /v86\.wasm\.gz/]])(
    "says so clearly when %s cannot be loaded",
    async (_what, file) => {
      const b = await launch();
      try {
        await b.page.route(file, (route) => route.fulfill({ status: 404, body: "gone" }));
        await b.page.goto(`${base()}#/lab/exfat-discard`);
        if (String(file).includes("bzImage")) {
          await b.page.waitForSelector('[data-phase="ready"]', { timeout: 150_000 });
          await b.page.getByRole("button", { name: "Cold boot" }).click();
        }
        await b.page.waitForSelector('[data-phase="failed"]', { timeout: 60_000 });
        expect(await b.page.locator(".vm-status").textContent()).toMatch(new RegExp(`Could not load .*${file.source}`));
      } finally {
        await b.close();
      }
    },
  );
});
