// A learner's machine survives a reload at any moment: the built site, served under /course/
// by a plain static server, reloaded 0 and 1.5 s after step 1's check passed (the browser asks
// while the machine is being kept), 0, 0.5, 1 and 2 s after the page said it kept the machine
// as step 1 passed, and as long after Next (while step 2's start is being compressed and
// stored); once with the compressing worker ended in the middle of its work; and once from a
// store in the layout of an older version of the page; with a run in the live panel and lines in
// the terminal, which come back with the machine; after the page was left mid-step (hidden),
// whose machine comes back as it was left; and in a browser whose IndexedDB cannot be opened,
// where only the marks come back (from localStorage).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dialog, Page } from "playwright-core";
import { launch, runInTerminal, tellHidden, terminalText, waitReady } from "./browser";
import { serveUnderCourse, type CourseSite } from "./course-server";

const LAB = "exfat-discard";
const DELAYS = [0, 0.5, 1, 2];

describe("a reload at any moment brings back the learner's newest kept machine", () => {
  let site: CourseSite;
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const step = () => page.locator(".lab-runner").getAttribute("data-step");
  const vmStatus = () => page.locator(".vm-status").textContent();
  const ready = () => waitReady(page);
  const mounted = () => runInTerminal(page, "grep -c ' /mnt/x exfat' /proc/mounts || true");
  /** what a reload found, for the notes */
  const seen: string[] = [];

  /** Reload `seconds` after now, then wait for the restored machine's prompt. */
  const reloadAfter = async (seconds: number, what: string) => {
    if (seconds) await page.waitForTimeout(seconds * 1000); // the deliberate delay
    await page.reload();
    await ready();
    const status = (await vmStatus()) ?? "";
    seen.push(`${what}: ${status.replace(/\s+/g, " ").slice(0, 120)}`);
    return status;
  };

  /** The lab from its own saved machine, step 1 done until its pass is shown as kept. */
  const passStep1 = async () => {
    await page.getByTestId("start-over").click();
    await Promise.all([page.waitForEvent("load"), page.getByTestId("start-over").click()]);
    await ready();
    expect(await step()).toBe("0");
    await page.locator(".lab-runner .step > .vm-cmd > button").first().click();
    await expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 60_000 }).toBe("passed");
    await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 60_000 }).toMatch(/^Machine kept as step 1 passed/);
  };

  /** The restored machine holds what step 1 made, and the page offers no rerun of passed steps. */
  const holdsStep1 = async () => {
    expect(await page.getByTestId("rerun-passed").count()).toBe(0);
    expect(await page.getByTestId("outline-0").textContent()).toMatch(/passed/);
    expect(await mounted()).toBe("1");
  };

  beforeAll(async () => {
    site = await serveUnderCourse();
    b = await launch();
    page = b.page;
    await page.goto(`${site.url}#/lab/${LAB}`);
    await ready();
  });
  afterAll(async () => {
    await b?.close();
    site?.close();
    console.log(`reloads:\n  ${seen.join("\n  ")}`);
  });

  for (const d of DELAYS)
    it(`${d} s after the pass is shown as kept, and ${d} s after Next`, async () => {
      await passStep1();
      expect(await reloadAfter(d, `${d} s after the pass`)).toMatch(/restored your machine from step 1 \(kept as step 1 passed/);
      expect(await step()).toBe("0");
      await holdsStep1();

      await page.getByTestId("next").click();
      await expect.poll(step).toBe("1");
      // step 2's start is being saved, gzipped and stored: either machine holds step 1's work
      expect(await reloadAfter(d, `${d} s after Next`)).toMatch(/restored your machine from step (1 \(kept as step 1 passed|2 \(kept as step 2 began)/);
      expect(await step()).toBe("1");
      await holdsStep1();
    });

  it("a reload 0 and 1.5 s after the check passed: while the machine is being kept the browser asks first; once kept, it comes back", async () => {
    for (const d of [0, 1.5]) {
      await page.getByTestId("start-over").click();
      await Promise.all([page.waitForEvent("load"), page.getByTestId("start-over").click()]);
      await ready();
      await page.locator(".lab-runner .step > .vm-cmd > button").first().click();
      await expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 60_000 }).toBe("passed");
      if (d) await page.waitForTimeout(d * 1000); // the deliberate delay
      // the learner answers "Stay" if asked; a reload not asked for goes ahead
      let asked: (type: string) => void = () => undefined;
      const stay = (dialog: Dialog) => {
        void dialog.dismiss().catch(() => undefined);
        asked(dialog.type());
      };
      page.on("dialog", stay);
      let first: string;
      try {
        const loaded = page.waitForEvent("load", { timeout: 60_000 }).then(() => "load");
        await page.evaluate(() => setTimeout(() => location.reload(), 0));
        first = await Promise.race([new Promise<string>((r) => (asked = r)), loaded]);
      } finally {
        page.off("dialog", stay); // later dialogs (the tests after this) are answered "Leave"
      }
      seen.push(`reload ${d} s after the pass: ${first === "load" ? "not asked" : `asked (${first})`}`);
      if (d === 0) expect(first).toBe("beforeunload"); // the gzip and store take a second or more
      if (first !== "load") {
        expect(first).toBe("beforeunload");
        // stayed: the machine is kept, then a reload is not asked about
        await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 60_000 }).toMatch(/^Machine kept as step 1 passed/);
        expect(await reloadAfter(0, `reload once kept, ${d} s`)).toMatch(/restored your machine from step 1 \(kept as step 1 passed/);
      } else {
        await ready();
        expect(await vmStatus()).toMatch(/restored your machine from step 1 \(kept as step 1 passed/);
      }
      expect(await step()).toBe("0");
      await holdsStep1();
    }
  });

  it("Start over at once after a pass asks nothing: the machines being kept are thrown away anyway", async () => {
    await page.getByTestId("start-over").click();
    await Promise.all([page.waitForEvent("load"), page.getByTestId("start-over").click()]);
    await ready();
    await page.locator(".lab-runner .step > .vm-cmd > button").first().click();
    await expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 60_000 }).toBe("passed");
    const asked: string[] = [];
    const note = (d: Dialog) => void asked.push(d.type());
    page.on("dialog", note);
    try {
      await page.getByTestId("start-over").click();
      await Promise.all([page.waitForEvent("load"), page.getByTestId("start-over").click()]);
    } finally {
      page.off("dialog", note);
    }
    expect(asked).toEqual([]);
    await ready();
    expect(await step()).toBe("0");
  });

  it("Next and a reload in the same moment: the page opens on the step Next went to", async () => {
    await passStep1();
    // the click and the reload in one task of the page's: IndexedDB's write of the new step is
    // still under way as the page unloads (which aborts it); the journal in localStorage is not
    // (the store of step 2's start is under way: the browser asks, the test's browser answers
    // "Leave" (leave.ts), and the load may come before evaluate returns)
    const loaded = page.waitForEvent("load");
    await page.evaluate(() => {
      (document.querySelector('[data-testid="next"]') as HTMLButtonElement).click();
      setTimeout(() => location.reload(), 0);
    });
    await loaded;
    await ready();
    seen.push(`next and reload at once: ${((await vmStatus()) ?? "").replace(/\s+/g, " ").slice(0, 120)}`);
    expect(await step()).toBe("1");
    await holdsStep1();
  });

  it("the compressing worker ended in the middle of step 2's start: the machine kept as step 1 passed stands", async () => {
    /** what the page says within 30 s of the worker's close: the machine not kept, or kept after all */
    const endedOrKept = async (): Promise<"ended" | "kept" | "neither"> => {
      const until = Date.now() + 30_000;
      while (Date.now() < until) {
        if (/The machine could not be kept as step 2 began/.test((await page.getByTestId("lab-problem").textContent().catch(() => "")) ?? "")) return "ended";
        if (/^Machine kept as the step began/.test((await page.getByTestId("lab-status").textContent().catch(() => "")) ?? "")) return "kept";
        await page.waitForTimeout(100);
      }
      return "neither";
    };
    const compressing = () => page.evaluate(async () => (await navigator.locks.query()).held?.some((l) => l.name?.startsWith("fslab-gzip-")) ?? false);
    // the worker is ended while it compresses; one that finished first (a clean-clone run once
    // closed it between the lock seen and the close) is no such case: the lab is started over
    // and the case tried again, up to three times
    for (let attempt = 1; ; attempt++) {
      await passStep1();
      // a line entered after the pass: step 2's start is a machine of its own, gzipped (with
      // nothing entered, Next takes the one kept as step 1 passed, and no worker compresses)
      await runInTerminal(page, "true");
      const gzipper = page.waitForEvent("worker", { predicate: (w) => /gzip\.worker/.test(w.url()), timeout: 30_000 });
      await page.getByTestId("next").click();
      // step 2's start saved from the emulator and handed to a worker of its own, which holds a
      // lock of the page's while it compresses
      const worker = await gzipper;
      const ended = await expect
        .poll(compressing, { timeout: 30_000 })
        .toBe(true)
        .then(() => worker.evaluate(() => (self as unknown as { close(): void }).close()))
        .then(
          () => true,
          (e) => {
            // the worker gone before the close reached it, or before the lock was ever seen
            if (attempt < 3 && /has been closed|did not succeed in time/.test(String(e?.message ?? e) + String(e?.cause?.message ?? ""))) return false;
            throw e;
          },
        );
      if (!ended) continue;
      // the page learns it at once (the lock let go without an answer), and says what a reload
      // brings back; unless the worker finished between the lock seen and the close (a
      // clean-clone run once: step 2's start was kept), no such case either: tried again
      const outcome = await endedOrKept();
      if (outcome === "ended") break;
      if (outcome === "kept" && attempt < 3) continue;
      throw new Error(`after the worker was closed the page neither said the machine could not be kept nor kept it (${outcome})`);
    }
    expect(await page.getByTestId("lab-problem").textContent()).toMatch(
      /The machine could not be kept as step 2 began: the worker compressing it ended before it was done\. A reload brings back the machine kept before it\./,
    );
    expect(await reloadAfter(0, "worker ended mid-gzip")).toMatch(/restored your machine from step 1 \(kept as step 1 passed/);
    expect(await step()).toBe("1");
    await holdsStep1();
  });

  it("a version 1 store in the layout before heads (<lab>/step, <lab>/latest) is moved into the lab store, and a reset works over it", async () => {
    // the step 2 start taken after the last reload, stored
    await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 60_000 }).toMatch(/^Machine kept as the step began/);
    // rewritten as the page before heads kept it, in version 1's two stores: the progress, the
    // step's start and a newer "latest" (as if step 2 had passed). From a file of the site that
    // runs no script: no page holds the store while it is made again.
    await page.goto(`${site.url}fslab-embed.json`);
    const keys = await page.evaluate(
      (lab) =>
        new Promise<string[]>((resolve, reject) => {
          const req = indexedDB.open("fslab");
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const labs = req.result.transaction("labs").objectStore("labs");
            const got: Record<string, any> = {};
            const get = (key: string, then: () => void) => (labs.get(key).onsuccess = (e: any) => ((got[key] = e.target.result), then()));
            get(`${lab}/head`, () =>
              get(got[`${lab}/head`].step, () =>
                get(`${lab}/progress`, () => {
                  req.result.close();
                  const { kind: _p, ...progress } = got[`${lab}/progress`];
                  const { kind: _m, ...start } = got[got[`${lab}/head`].step];
                  const del = indexedDB.deleteDatabase("fslab");
                  del.onerror = () => reject(del.error);
                  del.onsuccess = () => {
                    const v1 = indexedDB.open("fslab", 1);
                    v1.onupgradeneeded = () => (v1.result.createObjectStore("progress"), v1.result.createObjectStore("snapshots"));
                    v1.onerror = () => reject(v1.error);
                    v1.onsuccess = () => {
                      const tx = v1.result.transaction(["progress", "snapshots"], "readwrite");
                      tx.objectStore("progress").put(progress, lab);
                      tx.objectStore("snapshots").put(start, `${lab}/step`);
                      tx.objectStore("snapshots").put({ ...start, savedAt: start.savedAt + 1 }, `${lab}/latest`);
                      tx.onerror = () => reject(tx.error);
                      tx.oncomplete = () => {
                        const all = v1.result.transaction("snapshots").objectStore("snapshots").getAllKeys();
                        all.onsuccess = () => (v1.result.close(), resolve(all.result as string[]));
                      };
                    };
                  };
                }),
              ),
            );
          };
        }),
      LAB,
    );
    expect(keys).toEqual([`${LAB}/latest`, `${LAB}/step`]);
    await page.goto(`${site.url}#/lab/${LAB}`);
    await ready();
    expect(await vmStatus()).toMatch(/restored your machine from step 2 \(kept as step 2 passed/);
    expect(await step()).toBe("1");
    await holdsStep1();
    const read = () =>
      page.evaluate(
        (lab) =>
          new Promise<{ head: unknown; keys: string[] }>((resolve) => {
            const req = indexedDB.open("fslab");
            req.onsuccess = () => {
              const labs = req.result.transaction("labs").objectStore("labs");
              const head = labs.get(`${lab}/head`);
              const keys = labs.getAllKeys(IDBKeyRange.bound(`${lab}/`, `${lab}/\uffff`));
              keys.onsuccess = () => resolve({ head: head.result ?? null, keys: (keys.result as string[]).sort() });
            };
          }),
        LAB,
      );
    // moved: one store, the two machines as records the head names
    const moved = await read();
    expect(moved.head).toMatchObject({ kind: "head", newestKind: "latest", newest: expect.stringMatching(/\/m\/\d+-v1-latest$/), step: expect.stringMatching(/\/m\/\d+-v1-step$/) });
    // the first write (a reset: the step's start is the newest again) drops the newer machine
    await page.getByTestId("reset-step").click();
    await expect.poll(() => page.getByTestId("lab-status").getAttribute("data-reset-ms"), { timeout: 30_000 }).not.toBeNull();
    const start = (moved.head as { step: string }).step;
    await expect.poll(async () => (await read()).head, { timeout: 30_000 }).toMatchObject({ newest: start, step: start, newestKind: "step" });
    expect((await read()).keys).toEqual([`${LAB}/head`, start, `${LAB}/progress`].sort());
    expect(await reloadAfter(0, "after a reset over the moved store")).toMatch(/restored your machine from step 2 \(kept as step 2 began/);
    await holdsStep1();
  });

  it("a machine kept with half a line typed into its shell comes back at a prompt", async () => {
    // the page keeps a machine whenever a step begins, even while the learner (or a test) is
    // typing a line: the half line, an unclosed quote in it, is in the kept shell; a restore's
    // bare newline ran it and bash waited for the rest ("> ") for good
    await page.getByTestId("start-over").click();
    await Promise.all([page.waitForEvent("load"), page.getByTestId("start-over").click()]);
    await ready();
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.type("echo 'half a line");
    await expect.poll(async () => (await terminalText(page)).trimEnd().endsWith("echo 'half a line"), { timeout: 30_000 }).toBe(true);
    // Next (the step's check fails) offers a skip; skipping begins step 2, and keeps the machine
    await page.getByTestId("next").click();
    await page.getByTestId("skip").click({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 60_000 }).toMatch(/^Machine kept as the step began/);
    const status = await reloadAfter(0, "half a line typed");
    expect(status).toMatch(/restored your machine from step 2/);
    // the half line was dropped, not run: no continuation prompt, and the shell takes a command
    expect((await terminalText(page)).split("\n").some((l) => l.startsWith("> "))).toBe(false);
    expect(await runInTerminal(page, "echo whole")).toContain("whole");
  });

  it("the live panel's runs and the terminal's lines come back with the machine, and the stream goes on with nothing counted lost", async () => {
    await page.getByTestId("start-over").click();
    await Promise.all([page.waitForEvent("load"), page.getByTestId("start-over").click()]);
    await ready();
    const panel = page.getByTestId("kernel-discards");
    const discards = async () => Number((await panel.getByTestId("kernel-discard-count").textContent({ timeout: 1000 }).catch(() => "")) || 0);
    // a delete streamed to the panel, on a volume of its own (step 1's check wants /mnt/x)
    const del = (f: string) => `dd if=/dev/zero of=/mnt/y/${f} bs=64K count=1 2>/dev/null && sync && rm /mnt/y/${f} && sync`;
    await runInTerminal(page, `truncate -s 16M /tmp/y.img && losetup /dev/loop3 /tmp/y.img && mkfs.exfat /dev/loop3 >/dev/null && mkdir -p /mnt/y && mount -o discard /dev/loop3 /mnt/y && fslab-trace start exfat/exfat_discard && ${del("a")}`, 60_000);
    await expect.poll(discards, { timeout: 30_000 }).toBeGreaterThan(0);
    const before = await discards();
    await runInTerminal(page, "echo printed-before-the-$((6 * 7))-reload");
    // step 1 passes, and the machine is kept with what the panel and the terminal hold
    await page.locator(".lab-runner .step > .vm-cmd > button").first().click();
    await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 60_000 }).toMatch(/^Machine kept as step 1 passed/);
    expect(await reloadAfter(0, "with a run in the live panel")).toMatch(/restored your machine from step 1 \(kept as step 1 passed/);
    await expect.poll(discards, { timeout: 30_000 }).toBe(before);
    expect(await terminalText(page)).toContain("printed-before-the-42-reload");
    // the guest's stream goes on from its next line: no gap counted as lost lines
    await runInTerminal(page, del("b"), 60_000);
    await expect.poll(discards, { timeout: 30_000 }).toBeGreaterThan(before);
    expect(await panel.textContent()).not.toMatch(/lost/);
    seen.push(`the live panel: ${before} discards before the reload, ${await discards()} after one more delete`);
  });

  it("a reset puts the kept start back and keeps nothing anew: the status line keeps the reset's time", async () => {
    await passStep1();
    await page.getByTestId("next").click();
    await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 60_000 }).toMatch(/^Machine kept as the step began/);
    // the page's own mark of each save (npm run bench snapshots reads it)
    const saves = () => page.evaluate(() => performance.getEntriesByName("fslab:snapshot-save").length);
    const before = await saves();
    for (const k of [1, 2]) {
      await runInTerminal(page, `echo reset-${k} > /tmp/reset.txt`);
      await page.getByTestId("reset-step").click();
      await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 60_000 }).toMatch(/^Reset in \d/);
      expect(await runInTerminal(page, "cat /tmp/reset.txt 2>/dev/null || echo none")).toContain("none");
      // (a new handle to the machine at each restore made the lab keep the step's start again,
      // 0.7 s of saving and compressing, and the line said that instead of the reset's time)
      expect(await saves(), `reset ${k}`).toBe(before);
      expect(await page.getByTestId("lab-status").textContent()).toMatch(/^Reset in \d/);
    }
  });

  it("a page left mid-step (hidden, its shell at the prompt) keeps its machine: a reload brings back what the step did, a reset still goes back to its start", async () => {
    await page.getByTestId("start-over").click();
    await Promise.all([page.waitForEvent("load"), page.getByTestId("start-over").click()]);
    await ready();
    await runInTerminal(page, "echo left-$((6 * 7)) > /tmp/left.txt && echo made-before-leaving");
    await tellHidden(page, true);
    await expect.poll(() => page.getByTestId("lab-status").getAttribute("data-snapshot-kind"), { timeout: 60_000 }).toBe("left");
    expect(await page.getByTestId("lab-status").textContent()).toMatch(/^Machine kept as you left the page: a reload brings it back/);
    expect(await reloadAfter(0, "left mid-step")).toMatch(/restored your machine from step 1 \(kept as you left the page in step 1/);
    expect(await step()).toBe("0");
    expect(await terminalText(page)).toContain("made-before-leaving");
    expect(await runInTerminal(page, "cat /tmp/left.txt")).toContain("left-42");
    // the step's start is the lab's own machine: a reset starts it again, without the file
    await page.getByTestId("reset-step").click();
    await ready();
    await expect.poll(() => runInTerminal(page, "cat /tmp/left.txt 2>/dev/null || echo no-file"), { timeout: 60_000 }).toContain("no-file");
  });

  it("a browser whose IndexedDB cannot be opened: the marks come back from local storage, and the page says the machine does not", async () => {
    // from the next page load on, indexedDB.open() throws, as Firefox's private windows did
    await b.ctx.addInitScript(() => {
      IDBFactory.prototype.open = () => {
        throw new DOMException("A mutation operation was attempted on a database that did not allow mutations.", "InvalidStateError");
      };
    });
    const storage =
      /The browser's storage \(IndexedDB\) could not be opened: A mutation operation was attempted on a database that did not allow mutations\. Your marks are kept in its local storage instead, but not your machine: after a reload the lab's own machine starts\./;
    /** the notices that say so: one, though the progress and the machine both met it */
    const said = async () => (await page.getByTestId("lab-notice").allTextContents()).filter((n) => storage.test(n)).length;
    await reloadAfter(0, "IndexedDB refused");
    await expect.poll(said, { timeout: 30_000, message: "one notice of the storage" }).toBe(1);
    expect(await step()).toBe("0"); // what IndexedDB held cannot be read
    await page.locator(".lab-runner .step > .vm-cmd > button").first().click();
    await expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 60_000 }).toBe("passed");
    await expect.poll(() => page.getByTestId("lab-problem").textContent().catch(() => ""), { timeout: 30_000 }).toMatch(storage);
    await page.getByTestId("next").click();
    await expect.poll(step).toBe("1");
    expect(await reloadAfter(0, "IndexedDB refused, after step 1 and Next")).not.toMatch(/restored your machine/);
    // the journal in localStorage kept the step and the pass; the machine is the lab's own, and the page offers step 1's commands
    expect(await step()).toBe("1");
    expect(await page.getByTestId("outline-0").textContent()).toMatch(/passed/);
    await expect.poll(said, { timeout: 30_000 }).toBe(1);
    expect(await mounted()).toBe("0");
    expect(await page.getByTestId("rerun-passed").count()).toBe(1);
    // the home page's course reads the same journal: the lab is started there too, not "not started"
    await page.goto(`${site.url}#/`);
    await expect.poll(() => page.getByTestId(`progress-${LAB}`).textContent().catch(() => ""), { timeout: 30_000 }).toMatch(/^1 of \d+ steps passed/);
  });
});
