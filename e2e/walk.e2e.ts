// Every shipped lab walked to its end in the page, as a learner who takes each step's solution:
// predictions answered, the solution (or, in a step without one, its commands) run from its
// button, the step's checks passing in the guest, and the last step's view and text on screen.
// At each challenge step (every lab has one) Next is pressed first, as a learner clicking only
// Run, Next and "No guess" would: the step has no Run button, its check fails, the lab stays
// there, unpassed; then the solution finishes it, and the downloaded progress says each
// challenge was passed with the solution. One screenshot per lab, of its last step, in
// test-results/walk-<lab>.png.
//
// The walk also holds each lab's checks to what `fslab labs test` asks of them (the shipped
// labs are walked here, in the page, not a second time in Node):
//   - a step's checks fail as it opens, before its commands ran (else they check nothing);
//   - the step before's commands typed a second time, in a fresh login shell, leave them
//     failing too (a check that counts runs passes for a learner who repeats a step); then
//     "Reset this step" puts the machine back as the step began;
//   - each step's commands run in a fresh login shell (`cd; exec bash --login`), so a step
//     that leans on a variable or function of an earlier step's shell fails here;
//   - the kernel's answer to each prediction, and each question's, is one a learner could
//     give (a number, or one of the choices).
// "Fail" counts only a guest check or an event expectation (checks.ts guestJudged): a view's
// verdict fails at a step's start anyway.
//
// `npm test` walks the labs from every lane that has time left (bin/test.mjs): with
// FSLAB_WALK_CLAIMS set, a process walks a lab only if it claimed it first (a file of the lab's
// name made there with O_EXCL), and takes the labs longest walk first, so the short ones are
// left for the lanes that join late. Without it, every lab is walked here.
import { afterAll, describe, expect, inject, it } from "vitest";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS, checkNow, launch, screenshot, terminalText, typeLines } from "./browser";
import { parseLab, type Lab, type LabStep } from "../web/src/labs/lab-format";
import { commandsOf, guestJudged } from "../web/src/labs/checks";
import { codeStepOf } from "../web/src/labs/code-grade";
import { parseGuess } from "../web/src/labs/predict";
import { asPrediction, judgeAnswer } from "../web/src/labs/question";
import { computeKey, keyImage, knownAnswers, type ModelKey } from "../web/src/labs/keys";
import { parseExport } from "../web/src/labs/report";
import { TOPICS, VIEW_IDS } from "../web/src/topics";
import { loadCoreModule } from "../web/src/shared/node-load";
import { dirRun, runDirScript, labDirScenario } from "../web/src/topics/exfat/exfat-dir";
import { slotRuns } from "../web/src/topics/exfat/exfat-disk";
import { LAYOUTS, ext4WriteFile } from "../web/src/topics/ext4/ext4-core";

const base = () => inject("baseUrl");
const labsDir = new URL("../labs/", import.meta.url);
const ids = readdirSync(labsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** What a learner presses in a view after a step's commands, as its text asks (lab, step index). */
const inView: Record<string, Record<number, (page: Page, lab: Lab) => Promise<void>>> = {
  "vfat-codepages": {
    2: async (page) => {
      await page.getByRole("button", { name: "Inspect vfat.img" }).click();
      await expect.poll(() => page.getByTestId("vfat-volume").getAttribute("data-verdict"), { timeout: 60_000 }).toBe("agree");
      expect(await page.getByTestId("vfat-verdict").textContent()).toMatch(/^✓ all \d+ entries in 3 directories are the model's/);
    },
  },
};

/**
 * What the lab's views show once a step passed (lab, step index): the kernel's records, streamed
 * or read off the disk it wrote, against the model's. Checked here, on the walk's own runs of the
 * steps' solutions, rather than by running the same guest work again in another file. The walk
 * also repeats a step's commands before resetting the next step, and a view keeps the records
 * of those repeats: the newest run is the step's own.
 */
const shown: Record<string, Record<number, (page: Page, lab: Lab) => Promise<void>>> = {
  "exfat-discard": {
    // the learner's own volume, copied before the delete: the inspector's runs of /frag, as the
    // view lists them, are the key of the step's prediction, and the kernel's discards matched them
    3: async (page) => {
      await page.getByRole("button", { name: "Inspect exfat.img" }).click();
      const row = page.locator('[data-testid="disk-view"] tr', { hasText: "/frag" });
      await row.waitFor({ timeout: 60_000 });
      const runs = (await row.locator("td").nth(3).textContent())!.split(", ").length;
      expect(String(runs), "the runs of /frag the inspector read on the learner's disk, against the kernel's batched discards").toBe(actuals["exfat-discard"][3][0]);
    },
  },
  "exfat-empty-hint": {
    // the kernel's searches are the model's, record for record, with the hint (1) and without (0)
    1: async (page) => {
      await expect.poll(() => page.getByTestId("model-verdict").getAttribute("data-hint").catch(() => null), { timeout: 120_000 }).toBe("1");
    },
    2: async (page, lab) => {
      await expect.poll(() => page.getByTestId("model-verdict").getAttribute("data-hint").catch(() => null), { timeout: 120_000 }).toBe("0");
      const creates = labDirScenario(lab.seed.values).filter((op) => op[0] === "+").length;
      expect(Number(await page.getByTestId("kernel-search-count").textContent())).toBeGreaterThanOrEqual(2 * creates);
    },
    // the disk the kernel wrote, read through /mnt/host: the entry sets where the model put them
    3: async (page, lab) => {
      const m = await loadCoreModule("exfat");
      // the last run was without the hint, of this learner's steps: where did the model put each name?
      const scenario = labDirScenario(lab.seed.values);
      const last = scenario.at(-1)!.slice(1);
      const model = runDirScript(m, false, scenario);
      const files = model.slotOf.size;
      model.dir.dispose();
      await page.getByRole("button", { name: "Inspect dir.img" }).click();
      await expect.poll(() => page.getByTestId("disk-view").textContent().catch(() => ""), { timeout: 60_000 }).toMatch(/exFAT,/);
      expect(await page.getByTestId("disk-summary").textContent()).toMatch(new RegExp(`2 directories, ${files} files`));
      const row = page.locator("tr", { hasText: `/dir/${last}` });
      expect(Number(await row.locator("td").nth(1).textContent())).toBe(model.slotOf.get(last));
      // the disk drawn by the model's own cluster grid, its counts the inspector's
      const [, total, free] = (await page.getByTestId("disk-summary").textContent())!.match(/exFAT, (\d+) clusters .* (\d+) clusters free/)!;
      const grid = page.locator('[data-testid="disk-view"] [data-testid="cluster-canvas"]');
      expect(await grid.getAttribute("aria-label")).toBe(`Cluster heap: ${+total - +free} of ${total} clusters in use`);
      // the directory itself, slot by slot in the model's strip: the disk's slots are the model's
      const model2 = dirRun(m, false, scenario);
      expect(await page.getByTestId("slots-disk").getAttribute("data-slots")).toBe(slotRuns(model2.slots));
    },
  },
  "ext4-lbs": {
    // 1 MiB of direct writes at three layouts and three sizes: every count is the model's
    1: async (page) => {
      await page.getByRole("button", { name: "Load the guest's measurements" }).click();
      const verdict = page.getByTestId("ext4-direct-verdict");
      await expect.poll(() => verdict.getAttribute("data-measured").catch(() => null), { timeout: 30_000 }).toBe("9");
      expect(await verdict.getAttribute("data-differ")).toBe("0");
      // the cell the lab is about: 4 KiB writes on 64 KiB blocks
      const lbs = ext4WriteFile(await loadCoreModule("ext4"), LAYOUTS[2], true, 1 << 20, 4096);
      expect(await page.locator('[data-cell="64k (LBS)/4096"]').textContent()).toBe(`${Math.round(((1 << 20) + lbs.zero_bytes) / 1024)} KiB`);
      expect(lbs.zero_bytes).toBe(7680 * 1024);
    },
  },
  "f2fs-clue": {
    // the mount's first scan, streamed: so far the model's
    1: async (page) => {
      await expect.poll(() => page.locator('[data-testid^="nid-verdict-"]').last().textContent().catch(() => ""), { timeout: 30_000 }).toMatch(/So far the model's run under clue 0 \(1 of/);
    },
    // upstream (4000, rm, 4000): the newest mount's scans are the model's under clue 0
    2: async (page) => {
      await expect.poll(() => page.locator('[data-testid^="nid-run-"]').last().getAttribute("data-match").catch(() => null), { timeout: 60_000 }).toBe("0");
    },
    // lazy, on a fresh volume: the model's under clue 4, and the same strip for kernel and model
    3: async (page) => {
      const run = page.locator('[data-testid^="nid-run-"]').last();
      await expect.poll(() => run.getAttribute("data-match").catch(() => null), { timeout: 60_000 }).toBe("4");
      expect(await run.locator("tr.differs").count()).toBe(0);
      const strips = run.getByTestId("nid-strip");
      expect(await strips.nth(0).getAttribute("data-scans")).toBe(await strips.nth(1).getAttribute("data-scans"));
      expect(await strips.nth(0).locator("rect").count()).toBe(Number(await strips.nth(0).getAttribute("data-scans")));
    },
    // the NAT the kernel wrote, read through /mnt/host: valid NIDs per block are the model's
    4: async (page, lab) => {
      await page.getByRole("button", { name: "Inspect f2fs.img" }).click();
      await expect.poll(() => page.getByTestId("f2fs-disk").textContent(), { timeout: 60_000 }).toMatch(/valid NIDs in 512 NAT blocks/);
      // the walker's own files, the root and /mnt/f/b
      const valid = Number(lab.seed.values.files) + 2;
      expect(await page.getByTestId("f2fs-disk-summary").textContent()).toMatch(new RegExp(`^${valid} valid NIDs .* the checkpoint's valid_node_count agrees`));
      expect(await page.getByTestId("f2fs-disk-verdict").getAttribute("data-differ")).toBe("0");
      // the step's question, keyed by the same disk as the page read it for the learner
      expect(await page.locator('.lab-runner [data-testid="question"]').getAttribute("data-key")).toBe(String(valid));
    },
  },
  "mq-deadline": {
    // the kernel's decisions followed live, each one the model's from the same lists
    2: async (page) => {
      const one = await ddRun(page, /fifo_batch 16, writes_starved 2, read_expire 100 ms, write_expire 400 ms/);
      const panel = page.getByTestId("kernel-deadline-live");
      // following the newest: the last dispatch is shown
      expect(await panel.getByTestId("position").textContent()).toBe(`decision ${one.dispatches} of ${one.dispatches}`);
      // one count per panel: the view under the summary repeats none of its totals
      expect(await panel.getByTestId("dd-agreement").count()).toBe(0);
      expect(await panel.getByTestId("dd-moved").textContent()).toMatch(/^t = \d+\.\d\d ms into the run\. The kernel dispatched /);
      ddFirst = one;
    },
    // fifo_batch 1 and load again: a run of its own, with its own tunables
    3: async (page) => {
      const two = await ddRun(page, /fifo_batch 1, writes_starved 2/);
      const panel = page.getByTestId("kernel-deadline-live");
      // one line with the counts the step asks about, and the model's agreement over the same decisions
      const counts = panel.getByTestId("kernel-dd-summary");
      const forced = await counts.getAttribute("data-forced");
      expect(await counts.textContent()).toMatch(
        new RegExp(`^Run ${two.run} \\(fifo_batch 1, .*\\), in one line: ${two.dispatches} dispatches on device \\d+,\\d+; writes forced ${forced} times; \\d+ reads taken because their deadline had passed; the model made ${two.dispatches} of the kernel's ${two.dispatches} decisions for the same reasons\\.$`),
      );
      // the step's prediction is answered with the kernel's count of the same dispatches
      expect(await page.getByTestId("predict").getAttribute("data-actual")).toBe(forced);
      // with fifo_batch 1 no dispatch continues a batch beyond its first request
      expect(await panel.getByTestId("dd-batching").textContent()).toBe("1 of fifo_batch 1");
      // the walk ran step 3's load a second time and put the machine back (above): the panel
      // says so, and this run starts from the state step 3's own run left, as the kernel did
      const one = ddFirst!;
      expect(two.run).toBe(one.run + 2);
      expect(await panel.getByTestId("dd-undone").textContent()).toMatch(new RegExp(`put back after run ${one.run + 1} .*run ${two.run} starts from the scheduler's state as run ${one.run} left it`));
      // step 3's run is still there to step through
      await panel.getByLabel("run").selectOption(String(one.run - 1));
      await expect.poll(() => counts.textContent()).toMatch(new RegExp(`^Run ${one.run} \\(fifo_batch 16, .*in one line: ${one.dispatches} dispatches`));
    },
  },
  "write-path": {
    // an O_DIRECT write traced in the guest: the writer's own call reaches mq-deadline and the loop driver
    5: async (page) => {
      const rowsFor = (call: string) => page.locator(`[role="treeitem"][data-call="${call}"]`).count();
      const calls = (layer: string) => page.locator(`[data-testid="layer-table"] tr[data-layer="${layer}"] td`).nth(1).textContent().then(Number);
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
    },
  },
};

/** mq-deadline's step 3 run (its number and dispatches), for step 4's look back at it */
let ddFirst: { run: number; dispatches: number } | undefined;

/**
 * The newest mq-deadline run in the live panel once it has all arrived and been judged whole
 * (the model's count is the panel's: 180 I/Os, a bio merged into a queued request makes one
 * fewer), with every decision the model's from the same lists, under the tunables given.
 */
async function ddRun(page: Page, tunables: RegExp): Promise<{ run: number; dispatches: number }> {
  const summary = page.getByTestId("kernel-deadline-live").getByTestId("kernel-dd-summary");
  const settled = async () => {
    const text = (await summary.textContent().catch(() => "")) ?? "";
    const run = Number(text.match(/^Run (\d+) \(/)?.[1]);
    if (!run || !tunables.test(text)) return null;
    const [n, lists, same, judged] = await Promise.all(["data-dispatches", "data-lists-agree", "data-same", "data-judged"].map((a) => summary.getAttribute(a).catch(() => null)));
    return Number(n) >= 170 && judged === n ? { run, dispatches: Number(n), listsAgree: Number(lists), same: Number(same) } : null;
  };
  await expect.poll(settled, { timeout: 90_000 }).not.toBeNull();
  const r = (await settled())!;
  // where they part, the panel says which decision and why: in the message
  const said = async () => (await page.getByTestId("kernel-deadline-live").textContent())!.replace(/\s+/g, " ").slice(0, 3000);
  expect(r, r.same === r.dispatches && r.listsAgree === r.dispatches ? "" : await said()).toEqual({ run: r.run, dispatches: r.dispatches, listsAgree: r.dispatches, same: r.dispatches });
  return { run: r.run, dispatches: r.dispatches };
}

/** The kernel's answer to each prediction, by lab and step, as the page recorded it on the step's pass. */
const actuals: Record<string, string[][]> = {};

/** What the last step's view shows once its button is pressed: checked per lab where it has one. */
const finalView: Record<string, (page: Page) => Promise<void>> = {
  "io-schedulers": async (page) => {
    await page.getByRole("button", { name: /Load the guest's runs/ }).click();
    // four patterns, sixteen runs each
    await expect.poll(async () => Number(await page.getByTestId("iosched-compare").getAttribute("data-runs")), { timeout: 60_000 }).toBe(64);
    // the view's winner at the questions' shape is the one the guest's runs.txt gave the predictions
    const caption = (disk: string, rw: string) => page.locator(`figure[data-disk="${disk}"][data-rw="${rw}"] figcaption`).textContent();
    expect(await caption("sd", "read")).toContain(`At 4 jobs × depth 4, the shape the lab's questions ask about, ${actuals["io-schedulers"][1][0]} moved the most.`);
    expect(await caption("ssd", "randread")).toContain(`${actuals["io-schedulers"][3][0]} moved the most.`);
  },
};

/**
 * Whether the step's checks a guest can judge failed in the result shown: some failing item
 * (check-failures' data-item, the item's place in runChecks' list) is one of them.
 */
async function guestFailed(page: Page, step: LabStep): Promise<boolean> {
  const judged = guestJudged(step);
  const failing = await page.locator('[data-testid="check-failures"] li').evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-item"))));
  return failing.some((k) => judged[k]);
}

/** A fresh login shell, as `fslab labs test` starts each step in (nothing of the earlier shells). */
const freshShell = (page: Page) => typeLines(page, "cd; exec bash --login", 60_000);

/** "Reset this step", until the machine is put back: the step's result is gone with what the commands did. */
async function resetStep(page: Page): Promise<void> {
  await page.getByTestId("reset-step").click();
  await expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 120_000 }).toBe("open");
  await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 120_000 }).not.toMatch(/Putting the machine back/);
}

/** Whether this process walks the lab: always, unless npm test shares the labs out between lanes. */
function claim(id: string): boolean {
  const claims = process.env.FSLAB_WALK_CLAIMS;
  if (!claims) return true;
  try {
    writeFileSync(join(claims, id), `${process.pid}\n`, { flag: "wx" });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false; // another lane's walk has it
    throw e;
  }
}

/** a key read from the learner's disk (keys.ts), which only the page (or a guest) can compute */
const KNOWN = knownAnswers(TOPICS);
const readsDisk = (key: ModelKey) => keyImage(key, KNOWN) !== null;

/** who walks the labs: the page draws a seeded lab's problem from this name, as the test does */
const WALKER = "walk-e2e";

/**
 * Each question about the learner's own run, answered once the step passed: the page measures
 * this run's answer, one a learner could give; a keyed one is the model's answer for this
 * learner, and the kernel's measured answer is held to it.
 */
async function answerQuestions(page: Page, step: LabStep, where: string): Promise<void> {
  const questions = page.locator('.lab-runner [data-testid="question"]');
  const qs = step.blocks.flatMap((b) => (b.kind === "question" ? [b.question] : []));
  expect(await questions.count()).toBe(qs.length);
  for (const [k, q] of qs.entries()) {
    const box = questions.nth(k);
    // the key alone answers it: the model's answer for this learner, given, is judged right (a
    // key read from the learner's disk is the page's to read: held by the lab's `shown` hook)
    const fromDisk = !!q.key && readsDisk(q.key);
    const key = !q.answer && q.key && !fromDisk ? await computeKey(TOPICS, q.key, loadCoreModule) : null;
    const answer = key ?? (q.choices ? q.choices[0] : "1");
    if (q.choices) await box.locator("select").selectOption(answer);
    else await box.locator("input").fill(answer);
    await box.getByRole("button", { name: "Answer" }).click();
    await expect.poll(() => box.getAttribute("data-answered"), { timeout: 60_000 }).toBe("1");
    const actual = (await box.getAttribute("data-actual"))!;
    if (key !== null) {
      expect(await box.getAttribute("data-key"), `${where}: the key of "${q.question}"`).toBe(key);
      expect(await box.getAttribute("data-right"), `${where}: the key given as the answer to "${q.question}"`).toBe("1");
      continue;
    }
    if (fromDisk && !q.answer) {
      expect(await box.getAttribute("data-key"), `${where}: the key of "${q.question}", read from the disk`).toMatch(/\S/);
      continue;
    }
    expect(parseGuess(asPrediction(q), actual), `${where}: this run's answer to "${q.question}"`).not.toHaveProperty("error");
    // a keyed question: the model's answer for this learner is what their kernel measured
    if (q.key) expect(judgeAnswer(q, actual, (await box.getAttribute("data-key"))!), `${where}: the model's key for "${q.question}" against the kernel's ${actual}`).toBe(true);
  }
}

/**
 * A code step as a learner meets it: the starter graded as it stands (it must not pass, and the
 * step stays open), which offers the reference; the reference put in the editor and graded:
 * it agrees with the kernel in every decision, and the step passes.
 */
async function walkCodeStep(page: Page, solution: string, where: string, id: string): Promise<void> {
  const box = page.getByTestId("code-step");
  await page.locator(".code-editor .cm-content").waitFor({ timeout: 30_000 });
  const graded = async (grades: number) => {
    await page.getByTestId("grade").click();
    await expect.poll(() => box.getAttribute("data-grades"), { timeout: 300_000, interval: 500 }).toBe(String(grades));
    return (await box.getAttribute("data-verdict"))!;
  };
  const before = Number(await box.getAttribute("data-grades"));
  expect(await graded(before + 1), `${where}: the starter, graded as it stands`).toBe("diverge");
  expect(await page.getByTestId("grade-result").textContent()).toMatch(/decision \d+ of \d+: your function chose otherwise/);
  expect(await page.locator(".lab-runner").getAttribute("data-passed")).toBe("0");
  // a grader with a view of its divergence (mq-deadline's) draws the divergent decision there
  if (id === "mq-deadline") {
    const at = (await page.getByTestId("grade-result").textContent())!.match(/decision (\d+) of/)![1];
    const moment = page.getByTestId("grade-moment");
    await expect.poll(() => moment.getByTestId("dd-verdict").getAttribute("data-same").catch(() => null), { timeout: 30_000 }).toBe("false");
    expect(await moment.getAttribute("data-at")).toBe(at);
    expect(await moment.getByTestId("dd-verdict").textContent()).toMatch(/^Your function, deciding from the same lists: .*They differ\./);
  }
  if (id === "exfat-empty-hint") {
    const moment = page.getByTestId("grade-moment");
    await moment.getByTestId("hint-moment").waitFor({ timeout: 30_000 });
    const said = (await page.getByTestId("grade-result").textContent())!;
    const kernel = said.match(/the kernel: (.*?)yours:/s)![1].replace(/\s+/g, " ").trim();
    expect((await moment.getByTestId("moment-kernel").textContent())!.trim()).toBe(kernel);
    expect(await moment.getByTestId("moment-yours").textContent()).not.toBe(kernel);
  }
  if (id === "f2fs-clue") {
    const at = Number((await page.getByTestId("grade-result").textContent())!.match(/decision (\d+) of/)![1]);
    const strips = page.getByTestId("grade-moment").getByTestId("nid-strip");
    await expect.poll(() => strips.count(), { timeout: 30_000 }).toBe(2);
    // both sides drawn up to the divergent scan
    expect(await strips.nth(0).getAttribute("data-scans")).toBe(String(at));
    expect(await strips.nth(1).getAttribute("data-scans")).toBe(String(at));
  }
  // the shot: the divergence as the learner reads it, and the view of it where there is one
  if (await page.getByTestId("grade-moment").count()) await page.getByTestId("grade-moment").scrollIntoViewIfNeeded();
  else await page.getByTestId("grade-result").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, `code-step-${id}.png`) }); // the first divergence, as a learner sees it
  await page.getByRole("button", { name: /^Show the reference function/ }).click();
  // the reference as the lab wrote it: its function's first line (the kernel's signature)
  const signature = solution.split("\n").find((l) => /^\w[\w\s*]*\(/.test(l))!;
  expect(await page.getByTestId("solution").textContent()).toContain(signature);
  await page.locator(".code-editor .cm-content").fill(solution);
  const verdict = await graded(before + 2);
  expect(verdict, `${where}: the reference, graded: ${await page.getByTestId("grade-result").textContent()}`).toBe("agree");
  expect(await page.getByTestId("grade-result").textContent()).toMatch(/agrees with your kernel in all \d+ decisions/);
  await expect.poll(() => page.locator(".lab-runner").getAttribute("data-passed"), { timeout: 30_000 }).toBe("1");
}

describe("every lab, walked through its solutions", () => {
  // the browser opens with the first lab this process claims (a lane that joins late may get none)
  let b: Awaited<ReturnType<typeof launch>> | undefined;
  let page: Page;
  afterAll(async () => {
    await b?.close();
  });

  it("ships ten labs", () => expect(ids.length).toBe(10));

  // the walk is one learner, named to the page before it opens, so a seeded lab's problem here
  // is the page's (seed.ts)
  const labs = ids.map((id) => ({ id, lab: parseLab(readFileSync(new URL(`${id}/lab.md`, labsDir), "utf8"), VIEW_IDS, `labs/${id}/lab.md`, id, { identity: WALKER }) }));
  // the longest walk first (`walk:`, recorded by labs test): what is left at the end is short
  labs.sort((x, y) => (y.lab.meta.walk ?? 0) - (x.lab.meta.walk ?? 0) || x.id.localeCompare(y.id));
  for (const { id, lab } of labs) {
    // a lab's commands take their time (io-schedulers' fio runs, minutes), and the walk here
    // runs the step before's again, as `fslab labs test` does: beside npm test's other lanes, on
    // a slow day, it took up to 2.6 times the walk a lab records (`walk:`, from labs test;
    // write-path 158 s for 62 s, 2026-11-28). Eight times that, so a machine twice as slow still
    // passes; never under 240 s
    const timeout = Math.max(240_000, (lab.meta.walk ?? 0) * 8000);
    it(`${id}: every step passes after its solution, and the last step ends the lab`, async (ctx) => {
      if (!claim(id)) return ctx.skip();
      const browser = (b ??= await launch({ width: 1440 }));
      page = browser.page;
      await page.addInitScript((who) => localStorage.setItem("fslab-learner", who), WALKER);
      expect(lab.steps.some((s) => s.challenge), "a step the learner does alone").toBe(true);
      await page.goto(`${base()}#/lab/${id}`);
      await page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
      for (const [i, step] of lab.steps.entries()) {
        expect(await page.locator(".lab-runner").getAttribute("data-step")).toBe(String(i));
        const open = page.locator('.lab-runner [data-testid="predict"][data-answered="0"]');
        while (await open.count()) await open.first().getByRole("button", { name: "No guess" }).click();
        const hasSolution = step.blocks.some((x) => x.kind === "solution");
        const judged = guestJudged(step).some(Boolean);
        const where = `step ${i + 1}, "${step.title}"`;
        if (judged && !step.challenge) {
          // its checks fail as it opens: else they check nothing (a challenge's Next shows it below)
          expect(await checkNow(page), `${where} passes its checks as it opens, before its commands ran`).toBe("failed");
          expect(await guestFailed(page, step), `${where}: only a view's verdict fails as it opens`).toBe(true);
        }
        // the step before done twice, as a learner who repeats it: the checks still fail. Then
        // the machine is put back as this step began, and the walk goes on from there.
        const prev = lab.steps.slice(0, i).findLastIndex((s) => commandsOf(s).length > 0);
        if (judged && prev >= 0) {
          await freshShell(page);
          for (const b of commandsOf(lab.steps[prev])) await typeLines(page, b.text, 600_000);
          const twice = `${where} passes its checks once step ${prev + 1}'s commands ran a second time, without its own: they count runs, not the outcome`;
          expect(await checkNow(page), twice).toBe("failed");
          expect(await guestFailed(page, step), twice).toBe(true);
          await resetStep(page);
        }
        // each shortcut the author wrote down (a `shortcut` block: the outcome made the wrong
        // way): typed into the shell, the step's checks must still fail; then the step is reset
        for (const sc of step.blocks.filter((x) => x.kind === "shortcut")) {
          await freshShell(page);
          await typeLines(page, sc.text, 120_000);
          expect(await checkNow(page), `${where} passes its checks after the shortcut at line ${sc.line}: ${sc.text.split("\n")[0]}`).toBe("failed");
          await resetStep(page);
        }
        await freshShell(page);
        if (step.challenge) {
          // Run, Next and "No guess" cannot get past it: no Run button, and Next checks (the
          // learner's own check, failing: only then is a challenge's solution offered) and stays
          expect(await page.locator(".lab-runner .step > .vm-cmd > button").count()).toBe(0);
          // pressed again if the page's poll was checking as it was pressed (then it is not taken)
          expect(await checkNow(page, "next", 60_000), `${where}: Next passes a challenge before its commands ran`).toBe("failed");
          // a challenge judged by a view alone (dd-divergence's: the verdict must be a disagreement) fails on its verdict
          if (judged) expect(await guestFailed(page, step), `${where}: only a view's verdict fails as it opens`).toBe(true);
          if (i + 1 < lab.steps.length) await page.getByTestId("skip").waitFor({ timeout: 10_000 }); // Next is done: it offers a skip
          expect(await page.locator(".lab-runner").getAttribute("data-step")).toBe(String(i));
          expect(await page.getByTestId(`outline-${i}`).textContent()).not.toMatch(/\(passed\)/);
        }
        const code = codeStepOf(step);
        if (code) {
          await walkCodeStep(page, code.solution, where, id);
          await answerQuestions(page, step, where);
          await shown[id]?.[i]?.(page, lab);
          if (i + 1 < lab.steps.length) {
            await page.getByRole("button", { name: /^Next/ }).click();
            await page.locator(`.lab-runner[data-step="${i + 1}"]`).waitFor({ timeout: 150_000 });
          }
          continue;
        }
        if (hasSolution) await page.getByRole("button", { name: "Show the solution" }).click();
        const buttons = hasSolution ? page.locator('[data-testid="solution"] button') : page.locator(".lab-runner .step > .vm-cmd > button");
        const n = await buttons.count();
        for (let k = 0; k < n; k++) {
          const button = buttons.nth(k);
          await button.click();
          // steps are taken in order: nothing should be missing
          expect(await page.getByTestId("needs-earlier").count()).toBe(0);
          // waiting for the shell, checking the earlier steps, typing: done when idle again
          await expect.poll(() => button.getAttribute("data-phase"), { timeout: 240_000, interval: 500 }).toBe("idle");
        }
        await inView[id]?.[i]?.(page, lab);
        if (step.blocks.some((x) => x.kind === "check" || x.kind === "expect")) {
          await expect
            .poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 120_000, interval: 500 })
            .toBe("passed")
            .catch(async (e) => {
              // say which step and what its check said, not only that it did not pass: a check
              // asked for shows what failed (the page's own checks keep their failures quiet)
              await checkNow(page, "check", 60_000).catch(() => undefined);
              const said = `${await page.getByTestId("check-status").textContent()} ${await page.getByTestId("check-failures").textContent().catch(() => "")}`;
              throw new Error(`step ${i + 1}, "${step.title}": ${said}\n${(await terminalText(page)).trimEnd().slice(-1500)}`, { cause: e });
            });
          // each prediction gets the kernel's answer beside it once the step passes, one a
          // learner could have given
          const predicts = page.locator('.lab-runner [data-testid="predict"]');
          const asked = step.blocks.flatMap((b) => (b.kind === "predict" ? [b.predict] : []));
          expect(await predicts.count()).toBe(asked.length);
          const got: string[] = [];
          for (const [k, p] of asked.entries()) {
            await expect.poll(() => predicts.nth(k).getAttribute("data-actual"), { timeout: 60_000 }).not.toBe("");
            const actual = (await predicts.nth(k).getAttribute("data-actual"))!;
            expect(parseGuess(p, actual), `${where}: the kernel's answer to "${p.question}"`).not.toHaveProperty("error");
            // a keyed prediction: the model's answer for this learner is what their kernel did
            // (a key read from the learner's disk is held by the lab's disk view, in `shown`)
            if (p.key && !readsDisk(p.key)) expect(await computeKey(TOPICS, p.key, loadCoreModule), `${where}: the model's key for "${p.question}" against the kernel`).toBe(actual);
            got.push(actual);
          }
          (actuals[id] ??= [])[i] = got;
          await answerQuestions(page, step, where);
        }
        await shown[id]?.[i]?.(page, lab);
        if (i + 1 < lab.steps.length) {
          await page.getByRole("button", { name: /^Next/ }).click();
          await page.locator(`.lab-runner[data-step="${i + 1}"]`).waitFor({ timeout: 150_000 });
        }
      }
      await finalView[id]?.(page);
      // the ending: what was learned, a playground and (all but one) another lab
      const text = page.locator(".lab-runner .step");
      expect(await text.locator('a[href^="#/play/"]').count()).toBeGreaterThan(0);
      expect(await text.locator('a[href^="#/lab/"]').count()).toBeGreaterThan(0);
      // the terminal stays in view while the learner reads the end of the lab's text
      await text.locator('a[href^="#/play/"]').last().scrollIntoViewIfNeeded();
      const box = (await page.getByTestId("vm-terminal").boundingBox())!;
      const height = page.viewportSize()!.height;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      // a reading step (<!-- reading -->) at the end has nothing to pass
      const checked = lab.steps.filter((x) => !x.reading).length;
      expect(await page.locator(".lab-outline").textContent()).toMatch(new RegExp(`(${lab.steps.length}|${checked}) passed|all`));
      // the whole page from its top: scrolled, the sticky terminal would be drawn mid-page
      await page.evaluate(() => scrollTo(0, 0));
      await screenshot(page, `walk-${id}`);
      // the progress the learner downloads: each challenge passed, with the solution
      if (!(await page.getByTestId("learner").count())) page.once("dialog", (d) => void d.accept("walk e2e"));
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-progress").click()]);
      const x = parseExport(readFileSync((await download.path())!, "utf8"));
      if ("error" in x) throw new Error(x.error);
      const challenges = lab.steps.flatMap((s, i) => (s.challenge ? [i] : []));
      expect(challenges.map((i) => [x.steps[i].challenge, x.steps[i].result, x.steps[i].solutionShown])).toEqual(challenges.map(() => [true, "passed", true]));
      expect(browser.errors).toEqual([]);
    }, timeout);
  }
});
