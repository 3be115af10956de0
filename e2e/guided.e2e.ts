// A learner in a guided lab, in Chromium with the guest in the page: checks run in the VM and
// say what is wrong, an expect block passes only once the kernel did it, the learner's step,
// marks and machine survive a reload, a step resets, and the progress file is the instructor's.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS, labRunner, launch, pressCheck, runInTerminal, screenshot, terminalText } from "./browser";
import { parseExport } from "../web/src/labs/report";
import { parseLab } from "../web/src/labs/lab-format";
import { VIEW_IDS } from "../web/src/topics";

/** the learner this test is: the page draws their problem from it (seed.ts), and so does the test */
const LEARNER = "guided-e2e";
const { pieces, piece_kib: pieceKib } = parseLab(readFileSync(new URL("../labs/exfat-discard/lab.md", import.meta.url), "utf8"), VIEW_IDS, "lab.md", "exfat-discard", { identity: LEARNER }).seed.values as Record<string, number>;

const base = () => inject("baseUrl");
const repo = new URL("..", import.meta.url).pathname;

/**
 * Change the page's IndexedDB as a damaged store or another build would have left it:
 * "damage" writes a malformed progress entry, "rebuild" marks every stored machine as
 * made by another guest build.
 */
function tamper(page: Page, what: "damage" | "rebuild"): Promise<void> {
  return page.evaluate(
    (what) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open("fslab");
        req.onsuccess = () => {
          // the lab store (web/src/labs/lab-store.ts): one store, each record of a kind
          const tx = req.result.transaction("labs", "readwrite");
          const store = tx.objectStore("labs");
          if (what === "damage") store.put({ kind: "progress", lab: "exfat-discard", step: "three", steps: 7 }, "exfat-discard/progress");
          else
            store.index("kind").openCursor("machine").onsuccess = (e: any) => {
              const c = e.target.result;
              if (!c) return;
              c.update({ ...c.value, guest: "000000000000-000000000000" });
              c.continue();
            };
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
    what,
  );
}

/** what the page measured, printed for the notes */
const measured: Record<string, string | null> = {};

describe("a guided lab, exfat-discard, walked as a learner", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const runner = () => page.locator(".lab-runner");
  const checkState = () => page.getByTestId("check-status").getAttribute("data-state");
  const ready = () => page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
  /** the machine as the open step began has been kept */
  const snapshotKept = async () => {
    const step = await runner().getAttribute("data-step");
    await expect.poll(() => page.getByTestId("lab-status").getAttribute("data-snapshot-step"), { timeout: 30_000 }).toBe(step);
    return page.getByTestId("lab-status");
  };

  beforeAll(async () => {
    b = await launch();
    page = b.page;
    await page.addInitScript((who) => localStorage.setItem("fslab-learner", who), LEARNER);
    await page.goto(`${base()}#/lab/exfat-discard`);
    await ready();
  });
  afterAll(async () => {
    await screenshot(page, "guided-lab");
    await b.close();
    console.log("measured:", JSON.stringify(measured));
  });

  it("shows one step with an outline, and a failing check says what is wrong in its own words", async () => {
    expect(await runner().getAttribute("data-step")).toBe("0");
    expect(await page.locator(".lab-outline").textContent()).toMatch(/Step 1 of 6/);
    expect(await page.locator(".lab-runner .step h2").count()).toBe(1);
    // the page's own checks have run and failed (nothing is done yet): no red "Not yet." for that
    await expect.poll(() => runner().getAttribute("data-auto-checks").then(Number), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await checkState()).toBe("open");
    await page.getByTestId("check").click();
    await expect.poll(checkState, { timeout: 30_000 }).toBe("failed");
    expect(await page.getByTestId("check-failures").textContent()).toBe("nothing of type exfat is mounted on /mnt/x yet");
    measured.checkRoundTripMs = await page.getByTestId("check-panel").getAttribute("data-round-trip-ms");
    // the check ran out of the learner's sight: nothing of it in the terminal
    expect(await runInTerminal(page, "history | grep -c 'noth[i]ng of type' || true")).toBe("0");
  });

  it("Reset on step 1 starts the lab's own machine again, and keeps no copy of it", async () => {
    // step 1 begins on the lab's saved machine: kept as it is, no save_state and no copy
    expect(await (await snapshotKept()).getAttribute("data-snapshot-bytes")).toBeNull();
    await runInTerminal(page, "touch /tmp/made-in-step-1");
    // the reset starts a new machine in a new terminal: type once its prompt is there (keys
    // typed while the old terminal goes are lost, and the rest of their line reaches the new one)
    const old = await page.evaluateHandle(() => (window as any).__fslabTerminal);
    await page.getByTestId("reset-step").click();
    await page.waitForFunction((t) => (window as any).__fslabTerminal !== t, old, { timeout: 90_000 });
    await expect.poll(async () => (await terminalText(page)).trimEnd(), { timeout: 90_000 }).toMatch(/fslab:[^\n]*#$/);
    expect(await runInTerminal(page, "ls /tmp/made-in-step-1 2>&1 || true")).toMatch(/No such file/);
    // nothing of the learner's machine was stored: a reload starts the lab's own again
    await page.reload();
    await ready();
    expect(await page.locator(".vm-status").textContent()).toMatch(/restored the saved machine/);
    expect(await runner().getAttribute("data-step")).toBe("0");
  });

  it("checks a step twice after a line, then not while nothing changes, and again once the learner enters a line", async () => {
    // each check runs in the guest and costs the page about 1.6 s of CPU (a learner reading
    // pays it): after a line, at 3 and 15 s, then every 2 minutes; at the pace before, every
    // 24 s at rest, the 40 s below held 4, and every 3 s, 13
    const checks = () => runner().getAttribute("data-auto-checks").then(Number);
    await runInTerminal(page, "true");
    const c0 = await checks();
    await page.waitForTimeout(40_000);
    // 3 s and 15 s after it; a third only if the line's prompt came late (a loaded machine)
    const resting = (await checks()) - c0;
    expect(resting).toBeGreaterThanOrEqual(2);
    expect(resting).toBeLessThanOrEqual(3);
    // a line entered: the next tick checks (the one at rest would come 80 s later)
    const c1 = await checks();
    await runInTerminal(page, "true");
    await expect.poll(checks, { timeout: 12_000, interval: 250 }).toBeGreaterThan(c1);
  });

  it("passes on its own once the learner has done the step, not while a command of theirs still runs", async () => {
    // the step's volume made and mounted, then the shell kept busy: a check beside a learner's
    // command could get in its way (a check's mount makes the command's mount of the same
    // volume fail), so neither the poll nor the Check button runs one until the prompt is back
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.type("truncate -s 64M /tmp/exfat.img && losetup /dev/loop0 /tmp/exfat.img && mkfs.exfat /dev/loop0 >/dev/null && mkdir -p /mnt/x && mount -o discard /dev/loop0 /mnt/x && echo mounted''-now && sleep 8\n");
    // at the end of a line, not alone on it: where the typed line fills its last row exactly,
    // xterm.js marks the row after it wrapped, and the text joins the output to the command
    // (it happened once, the terminal refitted to another width while the line was typed)
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/mounted-now$/m);
    await page.getByTestId("check").click();
    // the Check asked for waits, and says what for
    await expect.poll(() => page.getByTestId("check-waits").textContent()).toMatch(/once the command in the terminal has finished/);
    const seen = new Set<string | null>();
    for (let t = 0; t < 12; t++, await page.waitForTimeout(500)) seen.add(await checkState());
    expect(seen.has("passed")).toBe(false); // 6 s of the sleep: the step done, but not checked
    await expect.poll(checkState, { timeout: 30_000 }).toBe("passed");
    // the Check button (clicked, so focused) is gone: the keyboard is on the verdict
    expect(await page.getByTestId("check-status").evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await terminalText(page)).trimEnd()).toMatch(/fslab:[^\n]*#$/); // the shell is back at its prompt
    // the machine kept as the step passed is told as that, not as the step's start
    await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 30_000 }).toMatch(/^Machine kept as step 1 passed \(\d+\.\d MB in \d+\.\d s\)\.$/);
    expect(await page.getByTestId("check-waits").count()).toBe(0);
    expect(await page.getByTestId("outline-0").textContent()).toMatch(/passed/);
    const saves = () => page.evaluate(() => performance.getEntriesByName("fslab:snapshot-save").length);
    const savedBefore = await saves();
    await page.getByTestId("next").click();
    await expect.poll(() => runner().getAttribute("data-step")).toBe("1");
    // nothing entered since the pass: step 2's start is the machine kept as step 1 passed,
    // stored again as that, not saved from the emulator and gzipped a second time
    await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 30_000 }).toMatch(
      /^Machine kept as the step began: the machine kept as step 1 passed, with nothing entered since \(\d+\.\d MB\)\.$/,
    );
    expect(await saves()).toBe(savedBefore);
  });

  it("Reset this step removes what the step made and keeps what the earlier step made", async () => {
    measured.stepSnapshot = `${await (await snapshotKept()).getAttribute("data-snapshot-bytes")} B gzip (${await page.getByTestId("lab-status").getAttribute("data-raw-bytes")} B raw) in ${await page.getByTestId("lab-status").getAttribute("data-snapshot-ms")} ms`;
    await runInTerminal(page, "touch /mnt/x/made-in-step-2 && ls /mnt/x");
    await page.getByTestId("reset-step").click();
    await expect.poll(() => page.getByTestId("lab-status").getAttribute("data-reset-ms"), { timeout: 30_000 }).not.toBeNull();
    measured.resetMs = await page.getByTestId("lab-status").getAttribute("data-reset-ms");
    expect(await runInTerminal(page, "ls /mnt/x/made-in-step-2 2>&1; grep -c ' /mnt/x exfat' /proc/mounts")).toMatch(/No such file or directory\s+1$/);
  });

  it("a reload comes back to the same step, marks kept, on the learner's machine", async () => {
    await runInTerminal(page, "echo kept > /mnt/x/note");
    // a step passing stores the newest machine; without one, the step's start is what comes back
    await page.reload();
    await ready();
    measured.restoreFromIndexedDb = `read and unpacked in ${await page.locator(".lab-text").getAttribute("data-session-ms")} ms, then ${await page.locator(".vm-status").textContent()}`;
    // kept as step 2 began, and the status line says the note written since is not in it
    expect(measured.restoreFromIndexedDb).toMatch(/restored your machine from step 2 \(kept as step 2 began: commands run after that are not in it\)/);
    expect(await runner().getAttribute("data-step")).toBe("1");
    expect(await page.getByTestId("outline-0").textContent()).toMatch(/passed/);
    // the volume step 1 made and mounted is still there (the file made since the step opened is not)
    expect(await runInTerminal(page, "grep -c ' /mnt/x exfat' /proc/mounts; ls /mnt/x")).toMatch(/^1\s+log$|^1$/);
  });

  it("an expect block on kernel events passes only after the kernel did it", async () => {
    const run = labRunner(page, "exfat-discard");
    // step 2: the trace on, the 4-run file written
    await page.getByTestId("outline-1").click();
    await page.locator('.lab-runner[data-step="1"]').waitFor();
    await run(1);
    await runInTerminal(page, "ls /mnt/x/frag");
    await pressCheck(page);
    await expect.poll(checkState, { timeout: 60_000 }).toBe("passed");
    // step 3, a challenge: no Run button; its expect block waits for the kernel's discards
    await page.getByTestId("next").click();
    await page.locator('.lab-runner[data-step="2"]').waitFor();
    expect(await page.locator(".lab-runner .step > .vm-cmd > button").count()).toBe(0);
    // its prediction first, worked out before the delete: the old way's cost of this learner's file
    const oldWay = page.getByTestId("predict").first();
    await oldWay.getByRole("textbox").fill(String((pieces * pieceKib) / 4));
    await oldWay.getByRole("button", { name: "Record my prediction" }).click();
    await page.getByTestId("check").click();
    await expect.poll(() => page.getByTestId("check-failures").textContent().catch(() => ""), { timeout: 30_000 }).toMatch(new RegExp(`Wanted: at least ${pieces + 1} exfat_discard events with batched = 0; saw 0`));
    expect(await page.getByTestId("check-failures").textContent()).toMatch(/\/mnt\/x\/frag is still there/);
    await runInTerminal(page, "echo 0 > /sys/module/exfat/parameters/batch_discard; echo 0 > /sys/module/exfat/parameters/discard_calls; rm /mnt/x/frag; sync");
    await pressCheck(page);
    await expect.poll(checkState, { timeout: 60_000 }).toBe("passed");
    // guessed before the delete: an honest guess, and this learner's key
    await expect.poll(() => oldWay.getAttribute("data-actual"), { timeout: 45_000 }).toBe(String((pieces * pieceKib) / 4));
    expect(await oldWay.getAttribute("data-after-measuring")).toBeNull();
    // step 4's prediction is read off the volume's image: not yet made, the disk panel holds it, here too
    await runInTerminal(page, "cp /tmp/exfat.img /mnt/host/exfat.img");
    await page.getByRole("button", { name: "Inspect exfat.img" }).click();
    await page.getByTestId("disk-held").waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("disk-summary").count()).toBe(0);
    // step 4: what it teaches waits for the step to pass, and the delete for the prediction
    await page.getByTestId("next").click();
    await page.locator('.lab-runner[data-step="3"]').waitFor();
    const learned = page.getByTestId("learned");
    expect(await learned.getAttribute("data-shown")).toBe("0");
    const predict = page.getByTestId("predict");
    // the rewrite and the volume's copy come first (the prediction is read off that disk)
    const copy = page.locator(".lab-runner .step > .vm-cmd > button").nth(0);
    const del = page.locator(".lab-runner .step > .vm-cmd > button").nth(1);
    expect(await copy.isDisabled()).toBe(false);
    expect(await del.isDisabled()).toBe(true);
    // the lab's view would show the answer: out of sight (and of the keyboard) until the guess
    expect(await page.getByTestId("view-exfat-clusters").getAttribute("data-waiting")).toBe("1");
    expect(await page.getByTestId("view-waits").textContent()).toMatch(/opens once you have answered the prediction/);
    expect(await page.locator('[data-testid="view-exfat-clusters"] .view-wait-body').getAttribute("aria-hidden")).toBe("true");
    await predict.nth(0).getByRole("textbox").fill("lots");
    await predict.nth(0).getByRole("button", { name: "Record my prediction" }).click();
    expect(await predict.nth(0).getByRole("alert").textContent()).toMatch(/write a number/);
    // the learner measures first, typing the step's delete before guessing: the guess is then
    // marked as made after measuring, and the kernel's answer counts only what runs after it
    await runInTerminal(
      page,
      `for i in $(seq ${pieces}); do dd if=/dev/zero bs=${pieceKib}K count=1 >> /mnt/x/frag 2>/dev/null; dd if=/dev/zero bs=4K count=1 >> /mnt/x/log 2>/dev/null; done; sync; echo 1 > /sys/module/exfat/parameters/batch_discard; rm /mnt/x/frag; sync`,
    );
    await expect.poll(() => page.getByTestId("kernel-discards").textContent(), { timeout: 30_000 }).toMatch(new RegExp(`\\b${pieces} batched`));
    await predict.nth(0).getByRole("textbox").fill("16");
    await predict.nth(0).getByRole("button", { name: "Record my prediction" }).click();
    expect(await del.isDisabled()).toBe(false);
    // the view opens as the page next renders (an effect of the recorded prediction)
    await expect.poll(() => page.getByTestId("view-exfat-clusters").getAttribute("data-waiting")).toBe("0");
    // the form is gone: the keyboard is on what was recorded
    expect(await predict.nth(0).getByRole("status").evaluate((el) => el === document.activeElement && /You predicted 16/.test(el.textContent ?? ""))).toBe(true);
    await run(2); // written again, the volume copied to /mnt/host
    await run(3); // deleted batched
    // the newest delete is held to /frag's runs on the image copied before it, once inspected
    await expect.poll(() => page.getByTestId("kernel-discards").textContent(), { timeout: 30_000 }).toMatch(new RegExp(`\\b${2 * pieces} batched`));
    await pressCheck(page);
    // the image inspected in step 3 (no /frag in it), shown now that the prediction is made
    await expect.poll(() => page.getByTestId("check-failures").textContent().catch(() => ""), { timeout: 60_000 }).toMatch(/delete 3 freed clusters .*no file on the inspected exfat\.img holds exactly those/);
    await page.getByRole("button", { name: "Inspect exfat.img" }).click();
    await expect.poll(checkState, { timeout: 60_000 }).toBe("passed");
    expect(await learned.getAttribute("data-shown")).toBe("1");
    expect(await learned.textContent()).toMatch(/^What you learnedUp to Linux 6\.14.*one request per cluster the old way and one per run\s+the new way/s);
    // passing took the view's verdict as well: the model made each delete's requests (the old
    // way's, the learner's own batched delete before the guess, the step's), and the step's
    // covered /frag's runs as the disk held them
    for (const k of [0, 1, 2]) expect(await page.getByTestId(`kernel-delete-${k}`).getAttribute("data-match")).toBe("yes");
    expect(await page.getByTestId("kernel-delete-2").textContent()).toContain("/frag (");
    expect(await page.getByTestId("outline-3").textContent()).toMatch(/passed/);
    // once the step passed, the kernel's answer stands beside the guess (counted from its events)
    await expect.poll(() => predict.nth(0).getAttribute("data-actual"), { timeout: 45_000 }).toBe(String(pieces));
    expect(await predict.nth(0).textContent()).toMatch(new RegExp(`You predicted 16 requests\\. Made after measuring: .* The kernel: ${pieces} requests: further off than 10%`));
    // guessed after a delete of its own: marked, and the delete before the guess not counted
    expect(await predict.nth(0).getAttribute("data-after-measuring")).toBe("1");
    expect(await predict.nth(0).getByTestId("after-measuring").textContent()).toMatch(/Made after measuring: the kernel had already done it/);
    // this learner's numbers are on the page, and theirs alone
    expect(await page.getByTestId("seed-note").getAttribute("data-identity")).toBe(LEARNER);
    expect(await page.getByTestId("seed-note").textContent()).toContain(`pieces ${pieces}, piece_kib ${pieceKib}`);
  });

  it("downloads a progress file that fslab labs report reads", async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-progress").click()]);
    const file = join(ARTIFACTS, "exfat-discard-progress.json");
    await download.saveAs(file);
    const x = parseExport(readFileSync(file, "utf8"));
    if ("error" in x) throw new Error(x.error);
    expect(x.lab).toBe("exfat-discard");
    expect(x.steps.map((s) => s.result)).toEqual(["passed", "passed", "passed", "passed", "open", "open"]);
    expect(x.steps[0].attempts).toBeGreaterThanOrEqual(1);
    expect(x.steps[1].lastResult).toBe("pass");
    const r = spawnSync(process.execPath, [join(repo, "bin/fslab.mjs"), "labs", "report", file], { encoding: "utf8", cwd: repo });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/exfat-discard-progress\.json\s+exfat-discard\s+4\/6\s+0/);
    expect(r.stdout).not.toMatch(/another version/);
  });

  it("hints come one at a time and the solution on request, both recorded", async () => {
    await page.getByTestId("outline-0").click();
    await expect.poll(() => runner().getAttribute("data-step")).toBe("0");
    // a passed step opened again: the page keeps the open step's start only, so its start is
    // now the machine as the learner came back (step 4's), and the status says which a reset brings back
    await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 30_000 }).toMatch(/^Machine kept as you came back to the step: a reset brings back this one \(/);
    await page.getByRole("button", { name: "Show a hint (1 of 1)" }).click();
    expect(await page.getByTestId("hint").count()).toBe(1);
    await page.getByRole("button", { name: "Show the solution" }).click();
    expect(await page.getByTestId("solution").textContent()).toMatch(/mount -o discard/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-progress").click()]);
    const x = parseExport(readFileSync((await download.path())!, "utf8"));
    if ("error" in x) throw new Error(x.error);
    expect(x.steps[0]).toMatchObject({ hintsShown: 1, solutionShown: true });
    expect(b.errors).toEqual([]);
  });

  it("a damaged progress entry in IndexedDB is named, and the lab starts fresh", async () => {
    await tamper(page, "damage");
    await page.reload();
    await ready();
    expect(await page.getByTestId("lab-notice").first().textContent()).toMatch(/progress stored for this lab was damaged and could not be used: starting fresh/);
    expect(await runner().getAttribute("data-step")).toBe("0");
    await page.getByTestId("check").click();
    await expect.poll(checkState, { timeout: 30_000 }).not.toBe("open");
  });

  it("a browser that refuses storage says so, and the lab goes on", async () => {
    // Chromium at a quota below what the origin already uses: the next write of progress is
    // refused. (Snapshots are Blobs, which Chromium does not hold to the quota at write time, so
    // the same override does not make a snapshot fail; the page words that case the same way.)
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Storage.overrideQuotaForOrigin", { origin: new URL(base()).origin, quotaSize: 1_000_000 });
    try {
      // each move between steps writes the progress; the browser's count of what the origin
      // holds may lag the override on a loaded machine, so the first write can still pass:
      // move until one is refused (the page writes nothing at rest, so nothing else would)
      let k = 0;
      await expect
        .poll(
          async () => {
            await page.getByTestId(`outline-${1 - (k++ % 2)}`).click();
            return page.getByTestId("lab-problem").textContent().catch(() => "");
          },
          { timeout: 30_000, interval: 1000 },
        )
        .toMatch(/Your progress could not be saved: the browser refused the space \(its storage quota is full\)/);
      if (!(await page.locator('.lab-runner[data-step="1"]').count())) await page.getByTestId("outline-1").click();
      await snapshotKept();
      // the snapshot in memory still resets the step
      await runInTerminal(page, "touch /tmp/after-quota");
      await page.getByTestId("reset-step").click();
      await expect.poll(() => runInTerminal(page, "ls /tmp/after-quota 2>&1 || true"), { timeout: 30_000 }).toMatch(/No such file/);
    } finally {
      // put back even when the test fails: the next tests store machines
      await cdp.send("Storage.overrideQuotaForOrigin", { origin: new URL(base()).origin });
    }
  });

  it("a stored machine from another guest build is refused with the reason, and the passed steps' commands offered", async () => {
    await page.getByTestId("outline-0").click();
    await expect.poll(checkState, { timeout: 30_000 }).toBe("passed"); // step 1's volume is still mounted
    await page.getByTestId("outline-1").click();
    await snapshotKept();
    // as if the site had been rebuilt with another kernel since the learner's last visit
    await tamper(page, "rebuild");
    await page.reload();
    await ready();
    expect(await page.locator(".vm-status").textContent()).toMatch(/restored the saved machine/);
    expect(await page.getByTestId("lab-notice").first().textContent()).toMatch(
      /Your machine from step 2 cannot be restored here: it runs another build of the guest \(kernel and root filesystem 000000000000-000000000000, this page [0-9a-f]{12}-[0-9a-f]{12}\)\. The lab's own machine starts instead\./,
    );
    expect(await runInTerminal(page, "grep -c ' /mnt/x exfat' /proc/mounts || true")).toBe("0");
    await page.getByTestId("rerun-passed").click();
    await expect.poll(() => runInTerminal(page, "grep -c ' /mnt/x exfat' /proc/mounts || true"), { timeout: 60_000 }).toBe("1");
  });

  it("Start over clears the progress and the stored machine", async () => {
    await page.getByTestId("start-over").click();
    expect(await page.getByTestId("start-over").textContent()).toMatch(/Really start over/);
    await Promise.all([page.waitForEvent("load"), page.getByTestId("start-over").click()]);
    await ready();
    expect(await runner().getAttribute("data-step")).toBe("0");
    expect(await page.locator(".lab-outline").textContent()).toMatch(/0 passed/);
    expect(await page.locator(".vm-status").textContent()).toMatch(/restored the saved machine/);
    expect(await page.getByTestId("lab-notice").count()).toBe(0);
  });

  it("a step run out of order names the step to do first, in the lab's own words", async () => {
    await page.getByTestId("outline-1").click();
    await page.locator('.lab-runner[data-step="1"]').waitFor();
    await page.locator(".lab-runner .step > .vm-cmd > button").first().click();
    const msg = page.getByTestId("needs-earlier");
    await msg.waitFor({ timeout: 30_000 });
    expect(await msg.getAttribute("data-step")).toBe("0");
    expect(await msg.textContent()).toMatch(/build on step 1, “A volume that discards”, which is not done in this machine/);
    expect(await msg.textContent()).toMatch(/nothing of type exfat is mounted on \/mnt\/x yet/);
    expect(await runInTerminal(page, "test -e /mnt/x/frag && echo typed || echo untouched")).toBe("untouched");
    await msg.getByRole("button", { name: "Go to step 1" }).click();
    await page.locator('.lab-runner[data-step="0"]').waitFor();
  });

  it("a Run button waits for the learner's command, then types its block once, until the shell is back at its prompt", async () => {
    // pressed while a command of the learner's runs: typed then, the block would be its input
    await page.getByTestId("vm-terminal").click();
    await page.keyboard.type("sleep 5; echo slept''-now\n");
    const button = page.locator(".lab-runner .step > .vm-cmd button").first();
    await button.click();
    expect(await button.textContent()).toBe("Waiting for the shell…");
    // busy, and still holding the keyboard (a disabled button would drop it to the page's body)
    expect(await button.getAttribute("aria-disabled")).toBe("true");
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('.lab-runner .vm-cmd [role="status"]').textContent()).toMatch(/still running: this block is typed once it has finished/);
    await expect.poll(() => button.textContent(), { timeout: 30_000 }).toBe("Running…");
    expect(await terminalText(page)).toMatch(/^slept-now$/m);
    await expect.poll(() => button.textContent(), { timeout: 60_000 }).toBe("Run in VM");
    const text = await terminalText(page);
    expect(text.indexOf("truncate -s 64M")).toBeGreaterThan(text.search(/^slept-now$/m));
    expect(await page.locator('.lab-runner .vm-cmd [role="status"]').count()).toBe(0);
    expect(await runInTerminal(page, "grep -c ' /mnt/x exfat' /proc/mounts")).toBe("1");
  });

  it("moves between steps by keyboard, and focus follows to the step's heading", async () => {
    await expect.poll(checkState, { timeout: 30_000 }).toBe("passed"); // step 1's volume is mounted again
    await page.locator(".lab-outline p").click(); // out of the terminal
    await page.keyboard.press("Alt+Shift+ArrowRight");
    await expect.poll(() => runner().getAttribute("data-step")).toBe("1");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("step-title");
    await page.keyboard.press("Alt+Shift+ArrowLeft");
    await expect.poll(() => runner().getAttribute("data-step")).toBe("0");
  });

  it("kernel messages stay out of the shell and show in the kernel log panel", async () => {
    expect(await runInTerminal(page, "cut -f1 /proc/sys/kernel/printk")).toBe("1");
    await page.getByTestId("kernel-log").locator("summary").click();
    await expect.poll(() => page.getByTestId("kernel-log").locator("pre").textContent(), { timeout: 30_000 }).toMatch(/exFAT-fs|loop0|\[\s*\d+\.\d+\]/);
  });
});
