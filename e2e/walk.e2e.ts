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
import { checkNow, launch, screenshot, terminalText, typeLines } from "./browser";
import { parseLab, type LabStep } from "../web/src/labs/lab-format";
import { commandsOf, guestJudged } from "../web/src/labs/checks";
import { parseGuess } from "../web/src/labs/predict";
import { asPrediction } from "../web/src/labs/question";
import { parseExport } from "../web/src/labs/report";
import { VIEW_IDS } from "../web/src/topics";

const base = () => inject("baseUrl");
const labsDir = new URL("../labs/", import.meta.url);
const ids = readdirSync(labsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** What a learner presses in a view after a step's commands, as its text asks (lab, step index). */
const inView: Record<string, Record<number, (page: Page) => Promise<void>>> = {
  "vfat-codepages": {
    2: async (page) => {
      await page.getByRole("button", { name: "Inspect vfat.img" }).click();
      await expect.poll(() => page.getByTestId("vfat-volume").getAttribute("data-verdict"), { timeout: 60_000 }).toBe("agree");
      expect(await page.getByTestId("vfat-verdict").textContent()).toMatch(/^✓ all \d+ entries in 3 directories are the model's/);
    },
  },
};

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

describe("every lab, walked through its solutions", () => {
  // the browser opens with the first lab this process claims (a lane that joins late may get none)
  let b: Awaited<ReturnType<typeof launch>> | undefined;
  let page: Page;
  afterAll(async () => {
    await b?.close();
  });

  it("ships nine labs", () => expect(ids.length).toBe(9));

  const labs = ids.map((id) => ({ id, lab: parseLab(readFileSync(new URL(`${id}/lab.md`, labsDir), "utf8"), VIEW_IDS, `labs/${id}/lab.md`, id) }));
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
          await page.getByTestId("reset-step").click();
          // put back: the step's result is gone with what the commands did
          await expect.poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 120_000 }).toBe("open");
          await expect.poll(() => page.getByTestId("lab-status").textContent(), { timeout: 120_000 }).not.toMatch(/Putting the machine back/);
        }
        await freshShell(page);
        if (step.challenge) {
          // Run, Next and "No guess" cannot get past it: no Run button, and Next checks (the
          // learner's own check, failing: only then is a challenge's solution offered) and stays
          expect(await page.locator(".lab-runner .step > .vm-cmd > button").count()).toBe(0);
          // pressed again if the page's poll was checking as it was pressed (then it is not taken)
          expect(await checkNow(page, "next", 60_000), `${where}: Next passes a challenge before its commands ran`).toBe("failed");
          expect(await guestFailed(page, step), `${where}: only a view's verdict fails as it opens`).toBe(true);
          if (i + 1 < lab.steps.length) await page.getByTestId("skip").waitFor({ timeout: 10_000 }); // Next is done: it offers a skip
          expect(await page.locator(".lab-runner").getAttribute("data-step")).toBe(String(i));
          expect(await page.getByTestId(`outline-${i}`).textContent()).not.toMatch(/\(passed\)/);
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
        await inView[id]?.[i]?.(page);
        if (step.blocks.some((x) => x.kind === "check" || x.kind === "expect")) {
          await expect
            .poll(() => page.getByTestId("check-status").getAttribute("data-state"), { timeout: 120_000, interval: 500 })
            .toBe("passed")
            .catch(async (e) => {
              // say which step and what its check said, not only that it did not pass
              const said = await page.getByTestId("check-status").textContent();
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
            got.push(actual);
          }
          (actuals[id] ??= [])[i] = got;
          // each question about the learner's own run, answered: the page measures this run's
          // answer, and it is one a learner could give
          const questions = page.locator('.lab-runner [data-testid="question"]');
          const qs = step.blocks.flatMap((b) => (b.kind === "question" ? [b.question] : []));
          expect(await questions.count()).toBe(qs.length);
          for (const [k, q] of qs.entries()) {
            const box = questions.nth(k);
            if (q.choices) await box.locator("select").selectOption(q.choices[0]);
            else await box.locator("input").fill("1");
            await box.getByRole("button", { name: "Answer" }).click();
            await expect.poll(() => box.getAttribute("data-answered"), { timeout: 60_000 }).toBe("1");
            const actual = (await box.getAttribute("data-actual"))!;
            expect(parseGuess(asPrediction(q), actual), `${where}: this run's answer to "${q.question}"`).not.toHaveProperty("error");
          }
        }
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
