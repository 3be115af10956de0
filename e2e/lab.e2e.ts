// The first slice end to end: the lab page boots our kernel to a shell, the terminal runs
// commands in it, and the exFAT view's numbers are the wasm model's.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { labRunner, launch, runInTerminal, screenshot } from "./browser";
import { loadCoreModule } from "../web/src/shared/node-load";
import { ExfatCore } from "../web/src/topics/exfat/exfat-core";
import { ExfatLab } from "../web/src/topics/exfat/exfat-scenario";
import { DiscardPolicy } from "../web/src/shared/events";
import { dirRun, runDirScript, LAB_SCENARIO } from "../web/src/topics/exfat/exfat-dir";
import { slotRuns } from "../web/src/topics/exfat/exfat-disk";
import { LAYOUTS, ext4WriteFile } from "../web/src/topics/ext4/ext4-core";

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
      // the state worker keeps the plain state once it has handed it over
      await expect
        .poll(() => b.page.evaluate(async () => (await (await caches.open("fslab-vm-state")).keys()).length), { timeout: 30_000 })
        .toBe(1);
      // and the page has kept it for offline use (keepLabOffline): a reload before that made the
      // next page keep it, and that keeping's request counted (a flake, before and at the
      // prompt: the page keeps its files once the guest is up)
      await expect
        .poll(() => b.page.evaluate(async () => (await (await caches.open("fslab-vm")).keys()).some((r) => /\/vm\/state\.bin\.xz/.test(r.url))), { timeout: 30_000 })
        .toBe(true);
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
    expect(await page.getByTestId("kernel-delete-0").locator("td").nth(2).textContent()).toBe("16 + 16 + 16 + 16");
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

  it("the kernel's searches are the model's, record for record, with the hint and without", async () => {
    await page.waitForSelector('[data-phase="ready"]', { timeout: 150_000 });
    const run = labRunner(page, "exfat-empty-hint");
    const verdict = () => page.getByTestId("model-verdict").getAttribute("data-hint").catch(() => null);
    await run(0); // make, mount, trace
    await runInTerminal(page, "grep -c ' /mnt/d exfat' /proc/mounts");
    await run(1); // the steps with empty_hint=1
    await expect.poll(verdict, { timeout: 120_000 }).toBe("1");
    // the step's expect block waits for this view's verdict: agree
    await expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 30_000 }).toBe("passed");
    // without the hint: a challenge step, no Run button: typed as a learner would
    await page.getByTestId("next").click();
    await page.locator('.lab-runner[data-step="2"]').waitFor();
    await runInTerminal(
      page,
      "echo 0 > /sys/module/exfat/parameters/empty_hint; echo 0 > /sys/module/exfat/parameters/empty_entries_examined; rm -rf /mnt/d/dir; mkdir /mnt/d/dir; " +
        "for i in $(seq 1 200); do : > /mnt/d/dir/f$i; done; for i in $(seq 3 3 200); do rm /mnt/d/dir/f$i; done; " +
        "for i in $(seq 201 260); do : > /mnt/d/dir/file-with-long-name-$i; done",
      120_000,
    );
    await expect.poll(verdict, { timeout: 120_000 }).toBe("0");
    expect(Number(await page.getByTestId("kernel-search-count").textContent())).toBeGreaterThanOrEqual(2 * 260);
  });

  it("reads the disk the kernel wrote through /mnt/host, with the entry sets where the model put them", async () => {
    const m = await loadCoreModule("exfat");
    // the last run was without the hint: where did the model put each name?
    const model = runDirScript(m, false, LAB_SCENARIO);
    model.dir.dispose();
    const run = labRunner(page, "exfat-empty-hint");
    await run(2); // stop the trace, hint back on, umount, copy to /mnt/host
    await runInTerminal(page, "ls /mnt/host/dir.img");
    await page.getByRole("button", { name: "Inspect dir.img" }).click();
    await expect.poll(() => page.getByTestId("disk-view").textContent().catch(() => ""), { timeout: 60_000 }).toMatch(/exFAT,/);
    expect(await page.getByTestId("disk-summary").textContent()).toMatch(/2 directories, 194 files/);
    const row = page.locator("tr", { hasText: "/dir/file-with-long-name-260" });
    expect(Number(await row.locator("td").nth(1).textContent())).toBe(model.slotOf.get("file-with-long-name-260"));
    // the disk drawn by the model's own cluster grid, its counts the inspector's
    const [, total, free] = (await page.getByTestId("disk-summary").textContent())!.match(/exFAT, (\d+) clusters .* (\d+) clusters free/)!;
    const grid = page.locator('[data-testid="disk-view"] [data-testid="cluster-canvas"]');
    expect(await grid.getAttribute("aria-label")).toBe(`Cluster heap: ${+total - +free} of ${total} clusters in use`);
    // the directory itself, slot by slot in the model's strip: the disk's slots are the model's
    const model2 = dirRun(m, false, LAB_SCENARIO);
    expect(await page.getByTestId("slots-disk").getAttribute("data-slots")).toBe(slotRuns(model2.slots));
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

  it("traces an O_DIRECT write in the guest: the writer's own call reaches mq-deadline and the loop driver", async () => {
    await page.waitForSelector('[data-phase="ready"]', { timeout: 150_000 });
    const run = labRunner(page, "write-path");
    await run(0); // the disk, mq-deadline
    await runInTerminal(page, "grep -c ' /mnt/wp ext4' /proc/mounts", 60_000);
    await run(1); // function_graph and the graph helper
    await runInTerminal(page, "cat /sys/kernel/tracing/current_tracer");
    await run(4); // O_DIRECT (the fsync step is a challenge: no Run button)
    await runInTerminal(page, "grep -c oflag=direct /mnt/host/write-path.trace", 60_000);
    await page.getByRole("button", { name: "Load the last trace" }).click();
    await expect.poll(() => page.getByTestId("trace-source").textContent(), { timeout: 30_000 }).toMatch(/guest's last trace: dd .*oflag=direct/);
    for (const call of ["iomap_dio_rw", "submit_bio", "dd_insert_requests", "dd_dispatch_request", "loop_queue_rq"])
      await expect.poll(() => rowsFor(call), { message: call }).toBeGreaterThanOrEqual(1);
    expect(await calls("scheduler")).toBeGreaterThan(0);
    expect(await calls("driver")).toBeGreaterThan(0);
    // the page is cross-origin isolated, so the guest's clock is fine enough to time calls
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    // a 100 µs clock would give 0 or 100+ µs; fine timing gives many calls between (the
    // shortest leaf calls can still read 0.0: the isolated clock ticks in a few µs)
    const times = await page.locator(".call-time").allTextContents();
    const between = times.filter((t) => /^\d+\.\d µs$/.test(t) && parseFloat(t) > 0 && parseFloat(t) < 100);
    expect(between.length, times.join(" ")).toBeGreaterThan(times.length / 4);
  });
});

describe("f2fs-clue lab", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/lab/f2fs-clue`);
  });
  afterAll(async () => {
    await screenshot(page, "f2fs-clue-lab");
    await b.close();
  });

  it("streams the kernel's free-NID scans and finds them the model's, record for record, upstream and lazy", async () => {
    await page.waitForSelector('[data-phase="ready"]', { timeout: 150_000 });
    const run = labRunner(page, "f2fs-clue");
    const match = (r: number) => page.getByTestId(`nid-run-${r}`).getAttribute("data-match").catch(() => null);
    await run(0); // the volume, the trace, the mount
    await runInTerminal(page, "grep -c ' /mnt/f f2fs' /proc/mounts", 60_000);
    await expect.poll(() => page.getByTestId("nid-verdict-0").textContent().catch(() => ""), { timeout: 30_000 }).toMatch(/So far the model's run under clue 0 \(1 of/);
    await run(1); // upstream: 4000, rm, 4000
    await runInTerminal(page, "cat /sys/fs/f2fs/loop5/clue", 240_000);
    await expect.poll(() => match(0), { timeout: 60_000 }).toBe("0");
    // lazy, on a fresh volume: a challenge step, no Run button: typed as a learner would
    await expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 60_000 }).toBe("passed");
    await page.getByTestId("next").click();
    await page.locator('.lab-runner[data-step="3"]').waitFor();
    await runInTerminal(
      page,
      "umount /mnt/f && mkfs.f2fs -q -f /dev/loop5 && mount -t f2fs -o background_gc=off /dev/loop5 /mnt/f && echo 4 > /sys/fs/f2fs/loop5/clue; " +
        "mkdir /mnt/f/a; for i in $(seq 1 4000); do : > /mnt/f/a/f$i; [ $((i % 500)) = 0 ] && sync; done; sync; " +
        "rm -rf /mnt/f/a; sync; echo 3 > /proc/sys/vm/drop_caches; " +
        "mkdir /mnt/f/b; for i in $(seq 1 4000); do : > /mnt/f/b/f$i; [ $((i % 500)) = 0 ] && sync; done; sync; cat /sys/fs/f2fs/loop5/clue",
      240_000,
    );
    await expect.poll(() => match(1), { timeout: 60_000 }).toBe("4");
    expect(await page.locator('[data-testid="nid-run-1"] tr.differs').count()).toBe(0);
    // the same strip for the kernel's scans and the model's: a bar per scan
    const strips = page.locator('[data-testid="nid-run-1"] [data-testid="nid-strip"]');
    expect(await strips.nth(0).getAttribute("data-scans")).toBe(await strips.nth(1).getAttribute("data-scans"));
    expect(await strips.nth(0).locator("rect").count()).toBe(Number(await strips.nth(0).getAttribute("data-scans")));
  });

  it("reads the NAT the kernel wrote through /mnt/host: valid NIDs per block are the model's", async () => {
    await labRunner(page, "f2fs-clue")(2); // stop the trace, unmount, copy the metadata area
    await runInTerminal(page, "ls -l /mnt/host/f2fs.img", 120_000);
    await page.getByRole("button", { name: "Inspect f2fs.img" }).click();
    await expect.poll(() => page.getByTestId("f2fs-disk").textContent(), { timeout: 60_000 }).toMatch(/valid NIDs in 512 NAT blocks/);
    expect(await page.getByTestId("f2fs-disk-summary").textContent()).toMatch(/^4002 valid NIDs .* the checkpoint's valid_node_count agrees/);
    expect(await page.getByTestId("f2fs-disk-verdict").getAttribute("data-differ")).toBe("0");
  });
});

describe("mq-deadline lab", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.goto(`${base()}#/lab/mq-deadline`);
  });
  afterAll(async () => {
    await screenshot(page, "mq-deadline-lab");
    await b.close();
  });

  it("follows the kernel's mq-deadline decisions live, each one the model's from the same lists, for two runs with their own tunables", async () => {
    await page.waitForSelector('[data-phase="ready"]', { timeout: 150_000 });
    const run = labRunner(page, "mq-deadline");
    const panel = page.getByTestId("kernel-deadline-live");
    await run(0); // null_blk, mq-deadline
    await runInTerminal(page, "cat /sys/block/nullb1/queue/iosched/read_expire", 60_000);
    await run(1); // the stream, load()
    await runInTerminal(page, "fslab-trace status", 30_000);
    await run(2); // load
    await runInTerminal(page, "cat /tmp/loads", 120_000);
    const summary = () => panel.getByTestId("kernel-dd-summary").textContent().catch(() => "");
    const attr = (name: string) => panel.getByTestId("kernel-dd-summary").getAttribute(name).catch(() => null);
    // the run has all arrived, and been judged whole, when the model's count is the panel's
    // (180 I/Os; a bio merged into a queued request makes one request fewer)
    const settled = async (run: number) => {
      if (!(await summary())!.startsWith(`Run ${run} (`)) return null;
      const [n, lists, same, judged] = await Promise.all(["data-dispatches", "data-lists-agree", "data-same", "data-judged"].map(attr));
      return Number(n) >= 170 && judged === n ? { dispatches: Number(n), listsAgree: Number(lists), same: Number(same) } : null;
    };
    await expect.poll(() => settled(1), { timeout: 90_000 }).not.toBeNull();
    const one = (await settled(1))!;
    expect(one).toEqual({ dispatches: one.dispatches, listsAgree: one.dispatches, same: one.dispatches });
    expect(await summary()).toMatch(/fifo_batch 16, writes_starved 2, read_expire 100 ms, write_expire 400 ms/);
    // following the newest: the last dispatch is shown
    expect(await panel.getByTestId("position").textContent()).toBe(`decision ${one.dispatches} of ${one.dispatches}`);
    // one count per panel: the view under the summary repeats none of its totals
    expect(await panel.getByTestId("dd-agreement").count()).toBe(0);
    expect(await panel.getByTestId("dd-moved").textContent()).toMatch(/^t = \d+\.\d\d ms into the run\. The kernel dispatched /);
    // step 4 is a challenge (no Run button): the learner's own commands, fifo_batch 1 and load again
    await page.getByTestId("outline-3").click();
    await page.locator('.lab-runner[data-step="3"]').waitFor();
    await page.getByTestId("predict").getByRole("button", { name: "No guess" }).click();
    await runInTerminal(page, "echo 1 > /sys/block/nullb1/queue/iosched/fifo_batch; load", 240_000);
    await runInTerminal(page, "cat /tmp/loads", 120_000);
    await expect.poll(() => settled(2), { timeout: 90_000 }).not.toBeNull();
    const two = (await settled(2))!;
    expect(two).toEqual({ dispatches: two.dispatches, listsAgree: two.dispatches, same: two.dispatches });
    expect(await summary()).toMatch(/fifo_batch 1, writes_starved 2/);
    // one line with the counts the step asks about, and the model's agreement over the same decisions
    const counts = panel.getByTestId("kernel-dd-summary");
    const forced = await counts.getAttribute("data-forced");
    expect(await counts.textContent()).toMatch(
      new RegExp(`^Run 2 \\(fifo_batch 1, .*\\), in one line: ${two.dispatches} dispatches on device \\d+,\\d+; writes forced ${forced} times; \\d+ reads taken because their deadline had passed; the model made ${two.dispatches} of the kernel's ${two.dispatches} decisions for the same reasons\\.$`),
    );
    // the step's prediction is answered with the kernel's count of the same dispatches
    await expect.poll(() => page.getByTestId("predict").getAttribute("data-actual"), { timeout: 45_000 }).toBe(forced);
    // with fifo_batch 1 no dispatch continues a batch beyond its first request
    expect(await panel.getByTestId("dd-batching").textContent()).toBe("1 of fifo_batch 1");
    // the first run is still there to step through
    await panel.getByLabel("run").selectOption("0");
    await expect.poll(summary).toMatch(new RegExp(`^Run 1 \\(fifo_batch 16, .*in one line: ${one.dispatches} dispatches`));
  });
});

describe("ext4-lbs lab", () => {
  it("measures 1 MiB of direct writes at three layouts and three sizes in the guest: every count is the model's", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${base()}#/lab/ext4-lbs`);
      await b.page.waitForSelector('[data-phase="ready"]', { timeout: 150_000 });
      const run = labRunner(b.page, "ext4-lbs");
      await run(0); // three volumes
      await runInTerminal(b.page, "grep -c ' /mnt/lbs ext4' /proc/mounts", 60_000);
      await run(1); // measure
      await runInTerminal(b.page, "wc -l < /mnt/host/ext4-direct.txt", 120_000);
      await b.page.getByRole("button", { name: "Load the guest's measurements" }).click();
      const verdict = b.page.getByTestId("ext4-direct-verdict");
      await expect.poll(() => verdict.getAttribute("data-measured").catch(() => null), { timeout: 30_000 }).toBe("9");
      expect(await verdict.getAttribute("data-differ")).toBe("0");
      // the cell the lab is about: 4 KiB writes on 64 KiB blocks
      const m = await loadCoreModule("ext4");
      const lbs = ext4WriteFile(m, LAYOUTS[2], true, 1 << 20, 4096);
      expect(await b.page.locator('[data-cell="64k (LBS)/4096"]').textContent()).toBe(`${Math.round(((1 << 20) + lbs.zero_bytes) / 1024)} KiB`);
      expect(lbs.zero_bytes).toBe(7680 * 1024);
      await screenshot(b.page, "ext4-lbs-lab");
    } finally {
      await b.close();
    }
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
      const seconds = () => b.page.getByTestId("vm-elapsed").textContent().then((t) => Number(t?.match(/(\d+) s/)?.[1]));
      const first = await seconds();
      await expect.poll(seconds, { timeout: 5_000 }).toBeGreaterThanOrEqual(first + 2);
      expect(await b.page.locator(".vm-status").getAttribute("data-phase")).toBe("booting");
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
