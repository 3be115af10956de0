// What keeping and putting back a lab's machine costs in the page (npm run bench snapshots):
// for each lab of labs/ whose step 1 is taken through its solution (snapshotLabs()), step 1
// taken as a learner takes it (its solution from the page's buttons), a line entered, then Next,
// which keeps the machine as step 2 begins (v86's save_state, gzipped in a worker, stored in IndexedDB:
// web/src/labs/LabRunner.tsx), then "Reset this step" and a command typed at once, answered by
// the restored shell. Times from the page's own measures (fslab:snapshot-save, -gzip, -gunzip,
// -restore).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { REPO, withBuiltSite } from "./site";
import { lineShown } from "./page-load";
import { parseLab, type Lab } from "../web/src/labs/lab-format";
import { courseOrder } from "../web/src/labs/course";
import { loadTopics } from "../web/src/topics/node-index";

export interface SnapshotCost {
  lab: string;
  /** the step whose start was kept (0-based) */
  step: number;
  /** save_state on the page's thread, while the guest is paused for it, ms */
  saveMs: number;
  /** gzip in the worker, ms (the guest runs meanwhile) */
  gzipMs: number;
  rawBytes: number;
  storedBytes: number;
  /** "Reset this step": the click to a command's answer from the restored shell, ms */
  resetMs: number;
  /** NaN when the step's machine was still in memory (no gunzip) */
  gunzipMs: number;
  restoreMs: number;
}

const measure = (page: Page, name: string) =>
  page.evaluate(`performance.getEntriesByName(${JSON.stringify(name)}).at(0)?.duration ?? NaN`) as Promise<number>;

async function runStep(page: Page): Promise<void> {
  const open = page.locator('.lab-runner [data-testid="predict"][data-answered="0"]');
  while (await open.count()) await open.first().getByRole("button", { name: "No guess" }).click();
  await page.getByRole("button", { name: "Show the solution" }).click();
  const buttons = page.locator('[data-testid="solution"] button');
  for (let k = 0; k < (await buttons.count()); k++) {
    await buttons.nth(k).click();
    // the button reads "Running…" until the shell is back at its prompt
    for (let t = 0; (await buttons.nth(k).textContent()) === "Running…"; t += 200) {
      if (t > 240_000) throw new Error(`${await buttons.nth(k).textContent()}: still running after 4 min`);
      await page.waitForTimeout(200);
    }
  }
  await page.waitForSelector('[data-testid="check-status"][data-state="passed"]', { timeout: 120_000 });
}

/** When (performance.now() in the page) the shell answered a command typed through xterm.js at once. */
async function answeredAt(page: Page, token: string): Promise<number> {
  await page.evaluate(`window.__fslabTerminal.input("echo ${token}-$((6 * 7))\\r", true)`);
  return lineShown(page, `${token}-42`, 30_000);
}

/** a lab whose step 1 runStep() can take: its solution's buttons, then its check, and a step 2 to begin */
export const takesStepOne = (lab: Lab): boolean => {
  const s = lab.steps[0];
  return lab.steps.length > 1 && !s.challenge && s.blocks.some((b) => b.kind === "solution") && s.blocks.some((b) => b.kind === "check" || b.kind === "expect");
};

/** The labs measured: every lab of `dir` (labs/) that takesStepOne(), in the course's order. */
export async function snapshotLabs(dir = `${REPO}labs/`): Promise<string[]> {
  const views = (await loadTopics()).flatMap((t) => t.views.map((v) => v.id));
  const labs = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`${dir}${d.name}/lab.md`))
    .map((d) => ({ lab: parseLab(readFileSync(`${dir}${d.name}/lab.md`, "utf8"), views, `labs/${d.name}/lab.md`, d.name) }));
  return courseOrder(labs)
    .filter((l) => takesStepOne(l.lab))
    .map((l) => l.lab.meta.id);
}

export async function snapshotCosts(labs?: string[]): Promise<SnapshotCost[]> {
  labs ??= await snapshotLabs();
  return withBuiltSite(async ({ base, browser }) => {
    const out: SnapshotCost[] = [];
    for (const lab of labs) {
      const ctx = await browser();
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      await page.goto(`${base}#/lab/${lab}`);
      await page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
      await runStep(page);
      // a line entered after the pass, as a learner who looks around: step 2's start is then a
      // machine of its own, saved and gzipped (with nothing entered, Next reuses the machine
      // kept as step 1 passed: web/src/labs/useStepMachine.ts)
      await answeredAt(page, "looked");
      // the measures of the step-2 snapshot only: the ones before were the lab's first
      await page.evaluate(() => performance.clearMeasures());
      await page.getByRole("button", { name: /^Next/ }).click();
      await page.waitForSelector('[data-testid="lab-status"][data-snapshot-step="1"]', { timeout: 120_000 });
      const status = page.getByTestId("lab-status");
      const saveMs = await measure(page, "fslab:snapshot-save");
      const gzipMs = await measure(page, "fslab:snapshot-gzip");
      const rawBytes = Number(await status.getAttribute("data-raw-bytes"));
      const storedBytes = Number(await status.getAttribute("data-snapshot-bytes"));
      const t0 = (await page.evaluate("performance.now()")) as number;
      await page.getByTestId("reset-step").click();
      await page.waitForSelector('[data-testid="lab-status"][data-reset-ms]', { timeout: 60_000 });
      const answered = await answeredAt(page, `reset`);
      out.push({ lab, step: 1, saveMs, gzipMs, rawBytes, storedBytes, resetMs: answered - t0, gunzipMs: await measure(page, "fslab:snapshot-gunzip"), restoreMs: await measure(page, "fslab:snapshot-restore") });
      await ctx.close();
    }
    return out;
  });
}
