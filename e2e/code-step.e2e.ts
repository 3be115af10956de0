// A code step as a learner works on it (exfat-empty-hint's last step, the built site): a
// compile error marked at its line in the editor, said before any workload runs; the
// function kept through a reload; an edit made in the terminal read back with "Reload from the
// VM"; a function that
// never returns stopped and said so, the machine still usable; then, after a reload, the
// reference, graded warm against the run recorded at the first grade, passes the step. (walk.e2e grades every
// code step's starter and reference; this is the rest of what a learner meets.)
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { launch, runInTerminal, waitReady } from "./browser";

const LAB = "exfat-empty-hint";
const lab = readFileSync(new URL(`../labs/${LAB}/lab.md`, import.meta.url), "utf8");
const starter = lab.match(/```code file="\/root\/dir_hint.c"[^\n]*\n([\s\S]*?)\n```/)![1];
const reference = lab.slice(lab.indexOf("## Write the hint yourself")).match(/```solution\n([\s\S]*?)\n```/)![1];
// the step's index, counted from the lab's own step headings
const CODE_STEP = lab.split(/^## /m).slice(1).findIndex((step) => step.startsWith("Write the hint yourself"));

describe("a code step, as a learner works on it", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const box = () => page.getByTestId("code-step");
  const editor = () => page.locator(".code-editor .cm-content");
  /** "Compile and grade", and the verdict once the grade count went up */
  const grade = async (timeout = 240_000) => {
    const before = Number(await box().getAttribute("data-grades"));
    const t0 = Date.now();
    await page.getByTestId("grade").click();
    await expect.poll(() => box().getAttribute("data-grades"), { timeout, interval: 250 }).toBe(String(before + 1));
    return { verdict: (await box().getAttribute("data-verdict"))!, seconds: (Date.now() - t0) / 1000, text: (await page.getByTestId("grade-result").textContent())! };
  };
  const toCodeStep = async () => {
    if ((await page.locator(".lab-runner").getAttribute("data-step")) !== String(CODE_STEP)) await page.getByTestId(`outline-${CODE_STEP}`).click();
    await editor().waitFor({ timeout: 30_000 });
  };

  beforeAll(async () => {
    b = await launch({ width: 1440 });
    page = b.page;
    await page.goto(`${inject("baseUrl")}#/lab/${LAB}`);
    await waitReady(page);
    await toCodeStep();
  });
  afterAll(async () => {
    await b.close();
  });

  it("marks a compile error at its line, before any workload runs", async () => {
    await editor().fill(starter.replace("candi_empty->count++;", "candi_empty->count++ nope;"));
    const g = await grade(60_000);
    expect(g.verdict).toBe("compile");
    expect(g.text).toMatch(/dir_hint\.c:\d+: error: /);
    // the editor marks the line the compiler named
    await expect.poll(() => page.locator(".code-editor .cm-lintRange-error").allTextContents(), { timeout: 10_000 }).toEqual([expect.stringContaining("nope")]);
    expect(await page.locator(".code-editor .cm-lint-marker-error").count()).toBe(1);
  });

  it("keeps the function through a reload", async () => {
    await page.reload();
    await waitReady(page);
    await toCodeStep();
    expect(await editor().textContent()).toContain("count++ nope;");
  });

  it("reads an edit made in the terminal with Reload from the VM", async () => {
    // the restored machine may not have the file yet: the page puts the editor's text there as
    // the step opens, and never over a file the terminal made first (ensureGuestFile)
    await expect.poll(() => box().getAttribute("data-file-in"), { timeout: 60_000 }).toBe("1");
    await runInTerminal(page, `printf '%s\\n' '/* edited with the shell */' >> /root/dir_hint.c`);
    expect(await editor().textContent()).not.toContain("edited with the shell");
    await page.getByRole("button", { name: "Reload from the VM" }).click();
    // the read is two round trips through the guest's agent: seconds on a busy machine (expect.poll waits 1 s unless told)
    await expect.poll(() => editor().textContent(), { timeout: 30_000 }).toContain("/* edited with the shell */");
    expect(await page.getByTestId("code-note").textContent()).toMatch(/Read \/root\/dir_hint\.c from the guest/);
  });

  it("stops a function that never returns, says so, and leaves the machine usable", async () => {
    await editor().fill(starter.replace("(void)entry_type;", "(void)entry_type;\n\tfor (;;) {}"));
    const g = await grade();
    expect(g.verdict).toBe("crash");
    expect(g.text).toMatch(/your function did not return: the replay ran past 8 s, in create 1 \("f1"\)/);
    expect(await runInTerminal(page, "echo still here")).toContain("still here");
    // the workload was recorded by this grade: the next ones replay that run
    const again = await grade();
    expect(again.verdict).toBe("crash");
    expect(again.seconds).toBeLessThan(60); // the replay's 8 s and the build, on a machine twice as slow
  });

  it("passes the step with the reference after a reload, graded against the run recorded before it", async () => {
    // the run recorded above was kept in the lab store: a reload does not record it again
    await page.reload();
    await waitReady(page);
    await toCodeStep();
    await editor().fill(reference);
    await page.evaluate(() => {
      const w = window as unknown as { gradeSaid: string[] };
      w.gradeSaid = [];
      const button = document.querySelector('[data-testid="grade"]')!;
      new MutationObserver(() => w.gradeSaid.push(button.textContent ?? "")).observe(button, { childList: true, characterData: true, subtree: true });
    });
    const g = await grade();
    const said = await page.evaluate(() => (window as unknown as { gradeSaid: string[] }).gradeSaid);
    expect(said).toContain("Grading against your kernel's recorded run…");
    expect(said).not.toContain("Recording your kernel and grading…");
    expect(g.verdict, g.text).toBe("agree");
    expect(g.text).toMatch(/agrees with your kernel in all \d+ decisions/);
    console.log(`a warm grade in the page: ${g.seconds.toFixed(1)} s (the workload recorded at the first grade)`);
    await expect.poll(() => page.locator(".lab-runner").getAttribute("data-passed"), { timeout: 30_000 }).toBe("1");
  });
});
