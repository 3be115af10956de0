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
import { parseLab, type LabStep } from "../web/src/labs/lab-format";
import { commandsOf, guestJudged } from "../web/src/labs/checks";
import { codeStepOf } from "../web/src/labs/code-grade";
import { parseGuess } from "../web/src/labs/predict";
import { asPrediction, judgeAnswer } from "../web/src/labs/question";
import { computeKey, keyImage, knownAnswers, type ModelKey } from "../web/src/labs/keys";
import { parseExport } from "../web/src/labs/report";
import { TOPICS, VIEW_IDS } from "../web/src/topics";
import { loadCoreModule } from "../web/src/shared/node-load";
import { actuals, answered, finalView, inView, shown } from "./walk-views";
const base = () => inject("baseUrl");
const labsDir = new URL("../labs/", import.meta.url);
const ids = readdirSync(labsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

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
async function answerQuestions(page: Page, step: LabStep, where: string): Promise<string[]> {
  const questions = page.locator('.lab-runner [data-testid="question"]');
  const qs = step.blocks.flatMap((b) => (b.kind === "question" ? [b.question] : []));
  expect(await questions.count()).toBe(qs.length);
  const actual: string[] = [];
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
    actual[k] = (await box.getAttribute("data-actual"))!;
    if (key !== null) {
      expect(await box.getAttribute("data-key"), `${where}: the key of "${q.question}"`).toBe(key);
      expect(await box.getAttribute("data-right"), `${where}: the key given as the answer to "${q.question}"`).toBe("1");
      continue;
    }
    if (fromDisk && !q.answer) {
      expect(await box.getAttribute("data-key"), `${where}: the key of "${q.question}", read from the disk`).toMatch(/\S/);
      continue;
    }
    expect(parseGuess(asPrediction(q), actual[k]), `${where}: this run's answer to "${q.question}"`).not.toHaveProperty("error");
    // a keyed question: the model's answer for this learner is what their kernel measured
    if (q.key) expect(judgeAnswer(q, actual[k], (await box.getAttribute("data-key"))!), `${where}: the model's key for "${q.question}" against the kernel's ${actual[k]}`).toBe(true);
  }
  return actual;
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
  if (id === "exfat-discard") {
    // the chain's runs up to the divergent request, with the kernel's request and the learner's
    const at = (await page.getByTestId("grade-result").textContent())!.match(/decision (\d+) of/)![1];
    const table = page.getByTestId("grade-moment").getByTestId("discard-moment");
    await table.waitFor({ timeout: 30_000 });
    expect(await table.locator(`tr.differs`).getAttribute("data-run")).toBe(at);
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
          // its questions' words wait for the pass: they could tell how the step is done
          expect(await page.getByTestId("question-hidden").count(), `${where}: questions shown before the challenge passed`).toBe(step.blocks.filter((x) => x.kind === "question").length);
          if (i + 1 < lab.steps.length) await page.getByTestId("skip").waitFor({ timeout: 10_000 }); // Next is done: it offers a skip
          expect(await page.locator(".lab-runner").getAttribute("data-step")).toBe(String(i));
          expect(await page.getByTestId(`outline-${i}`).textContent()).not.toMatch(/\(passed\)/);
        }
        const code = codeStepOf(step);
        if (code) {
          await walkCodeStep(page, code.solution, where, id);
          (answered[id] ??= [])[i] = await answerQuestions(page, step, where);
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
          (answered[id] ??= [])[i] = await answerQuestions(page, step, where);
        }
        await shown[id]?.[i]?.(page, lab);
        // FSLAB_WALK_SHOTS=1: each step as it passed, to look at (test-results/walk-<lab>-<step>.png)
        if (process.env.FSLAB_WALK_SHOTS) await screenshot(page, `walk-${id}-${i + 1}`);
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
