// Debian's Chromium through playwright-core (a downloaded browser never works here),
// with a fresh profile per launch.
import { expect } from "vitest";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { parseLab } from "../web/src/labs/lab-format";
import { VIEW_IDS } from "../web/src/topics";
import { leaveWhenAsked } from "./leave";

export const ARTIFACTS = new URL("../test-results/", import.meta.url).pathname;

/**
 * A fresh Chromium. The site's service worker is blocked unless `serviceWorkers` says "allow"
 * (the offline tests): with it, requests the worker serves would bypass page.route.
 */
export async function launch(opts: { serviceWorkers?: "allow" | "block"; width?: number } = {}): Promise<{ ctx: BrowserContext; page: Page; errors: string[]; csp: string[]; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "fslab-chromium-"));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    serviceWorkers: opts.serviceWorkers ?? "block",
    viewport: { width: opts.width ?? 1280, height: 900 },
    // No dynamic tier-up, and TurboFan for v86's hot core from the start. v86's JIT makes many
    // small wasm modules, and V8's second compile of the hot ones (TurboFan, on background
    // threads) took half a core more and made no walk faster (walk.e2e, two labs: 1.51 cores and
    // 115 s against 1.05 and 98 s), so nothing tiers up as it runs: --wasm-tier-up-filter lets
    // only function 0 (an import, never compiled) do so. v86's own core instead carries
    // compilation hints for its hot functions (web/src/vm/machine/v86-hints.ts), which V8 follows with
    // --wasm-compilation-hints: TurboFan for those alone, compiled in the background as the page
    // loads. The same guest commands in the page (bash loop, tmpfs, dd, ext4; 2026-11-28, 2
    // cores, a noisy machine): 40.5-48.2 s of Chromium's CPU, mean 44.6 of three runs, against
    // 46.5-49.6 s, mean 48.4 of four, on Liftoff alone (and 48.9 with these flags and a core
    // without hints); the page's load took no more CPU. Tried before and dropped (2026-11-28):
    // V8's default tiering, 75 s; --wasm-tiering-budget raised 10x and 100x, 77-84 s;
    // --no-liftoff, 78 s. The tests judge what the page does, not its speed; `npm run bench`
    // (bench/site.ts) keeps Chromium's defaults, as a learner's browser has them, and ignores the
    // hints' section there. Node lets V8 tier the core and gives the JIT's modules Liftoff only (node-vm.ts).
    args: ["--js-flags=--wasm-compilation-hints --wasm-tier-up-filter=0", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  leaveWhenAsked(ctx);
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  // uncaught errors in the page: printed, and kept for tests that expect none
  const errors: string[] = [];
  page.on("pageerror", (e) => {
    errors.push(e.message);
    console.error(`[page error] ${e.message}`);
  });
  // what the built site's Content-Security-Policy refused (Chromium reports each on the console)
  const csp: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
  });
  return {
    ctx,
    page,
    errors,
    csp,
    async close() {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Tell the page it is hidden (or shown again), as a browser does when its tab is left: headless
 * Chromium keeps every page visible (another tab brought to the front, a minimised window).
 */
export async function tellHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    if (hidden) Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    else delete (document as { visibilityState?: unknown }).visibilityState;
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The terminal's whole buffer as text (xterm.js keeps it; the DOM shows only the viewport). */
export async function terminalText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const t = (window as any).__fslabTerminal;
    const b = t.buffer.active;
    // a row xterm.js wrapped continues the line above it
    let text = "";
    for (let i = 0; i < b.length; i++) {
      const line = b.getLine(i);
      text += (i > 0 && !line?.isWrapped ? "\n" : "") + (line?.translateToString(!b.getLine(i + 1)?.isWrapped) ?? "");
    }
    return text;
  });
}

/**
 * Wait until the lab's machine is at its prompt. A machine that failed, or never got there, is
 * reported with the page's status line and the terminal's last lines: a hang seen only in a
 * whole-suite run (reload.e2e, two runs in five) must say where it stood.
 */
export async function waitReady(page: Page, timeout = 150_000): Promise<void> {
  const phase = await page
    .waitForSelector('.vm-status[data-phase="ready"], .vm-status[data-phase="failed"]', { timeout })
    .then((e) => e.getAttribute("data-phase"))
    .catch(() => "timeout");
  if (phase === "ready") return;
  const status = await page.locator(".vm-status").first().textContent().catch(() => "(no status)");
  const term = await terminalText(page).catch(() => "(no terminal)");
  throw new Error(`the machine is not ready (${phase} after at most ${timeout / 1000} s): ${status}\n--- terminal, last lines ---\n${term.trimEnd().split("\n").slice(-12).join("\n")}`);
}

/**
 * Whether one of the terminal's last `rows` lines is exactly `line`: a cheap look for a
 * command's end marker. terminalText joins all of xterm.js's 5000 lines of scrollback on the
 * page's thread, which is v86's too; polled every 100 ms while a long command runs, it slowed
 * the guest it waited for.
 */
async function tailHasLine(page: Page, line: string, rows = 200): Promise<boolean> {
  return page.evaluate(
    ([line, rows]) => {
      const b = (window as any).__fslabTerminal.buffer.active;
      for (let i = Math.max(0, b.length - rows); i < b.length; i++) if (b.getLine(i)?.translateToString(true) === line) return true;
      return false;
    },
    [line, rows] as const,
  );
}

let runs = 0;

/**
 * A new marker, and the command that prints it. The command is typed with the marker split by
 * quotes, so its echo on screen is never the marker's own line: only its output is.
 */
function newMarker(kind = "done"): { marker: string; echo: string } {
  const marker = `:fslab-${kind}-${++runs}:`;
  return { marker, echo: `echo '${marker.slice(0, 6)}''${marker.slice(6)}'` };
}

/**
 * Type a command into the guest's shell and wait until it has run, returning its output. The
 * command runs between the echoes of two markers, and its output is what the shell printed
 * between them: text typed ahead, an earlier prompt, or the typed line's echo (drawn again by
 * readline, or with a row overwritten; lab.e2e once read "" so, in one whole-suite run) is
 * never taken for it.
 */
export async function runInTerminal(page: Page, command: string, timeoutMs = 30_000): Promise<string> {
  const from = newMarker("from");
  const { marker, echo } = newMarker();
  await page.getByTestId("vm-terminal").click();
  await page.keyboard.type(`${from.echo}; ${command}; ${echo}\n`);
  const deadline = Date.now() + timeoutMs;
  // at a line's end, not a line of its own: a row that exactly fills the width can be marked
  // wrapped after a refit, and terminalText then joins the marker to the output before it
  const done = new RegExp(`${marker}$`, "m");
  const start = new RegExp(`${from.marker}$`, "m");
  for (;;) {
    // the whole buffer is read once the marker is in its tail
    const now = (await tailHasLine(page, marker)) ? await terminalText(page) : "";
    const end = now.search(done);
    if (end >= 0) {
      const out = now.slice(0, end);
      const begin = out.search(start);
      if (begin < 0) throw new Error(`"${command}" ran, but its start marker is not on the screen:\n${now.slice(-800)}`);
      return out.slice(begin + from.marker.length).replace(/^\n/, "").trim();
    }
    if (Date.now() > deadline) throw new Error(`"${command}" did not finish within ${timeoutMs} ms; terminal ends with:\n${(await terminalText(page)).slice(-500)}`);
    await page.waitForTimeout(100);
  }
}

/**
 * Lines typed into the guest's shell as they are (xterm.js's input(), as a paste of them would
 * be typed), then a line that echoes a marker; waits until the marker is printed, so until the
 * shell has run every line. Unlike runInTerminal, a block of many lines (a heredoc, a loop)
 * stays as written.
 */
export async function typeLines(page: Page, text: string, timeoutMs = 30_000): Promise<void> {
  const { marker, echo } = newMarker();
  const typed = `${text.replace(/\n*$/, "")}\n${echo}\n`;
  await page.evaluate((t) => (window as any).__fslabTerminal.input(t), typed);
  await expect
    .poll(() => tailHasLine(page, marker), { timeout: timeoutMs, interval: 250 })
    .toBe(true)
    .catch(async (e) => {
      throw new Error(`the lines did not finish within ${timeoutMs} ms:\n${text}\nterminal ends with:\n${(await terminalText(page)).slice(-800)}`, { cause: e });
    });
}

/**
 * The lab page shows one step at a time: `run(n)` clicks the n-th "Run in VM" of the whole lab
 * file (counted over all its steps, as the file reads), opening its step from the outline first
 * and answering any prediction the step still waits for with "No guess".
 */
export function labRunner(page: Page, labId: string): (n: number) => Promise<void> {
  const lab = parseLab(readFileSync(new URL(`../labs/${labId}/lab.md`, import.meta.url), "utf8"), VIEW_IDS, `labs/${labId}/lab.md`, labId);
  const where: Array<[number, number]> = [];
  lab.steps.forEach((s, i) => s.blocks.filter((b) => b.kind === "vm").forEach((_, j) => where.push([i, j])));
  return async (n) => {
    if (!where[n]) throw new Error(`${labId} has ${where.length} vm blocks, not ${n + 1}`);
    const [step, k] = where[n];
    if ((await page.locator(".lab-runner").getAttribute("data-step")) !== String(step)) {
      await page.getByTestId(`outline-${step}`).click();
      await page.locator(`.lab-runner[data-step="${step}"]`).waitFor();
    }
    // predictions still open in the step lock its later Run buttons: answered "No guess" here
    // (the guided tests answer theirs before calling run)
    const open = page.locator('.lab-runner [data-testid="predict"][data-answered="0"]');
    while (await open.count()) await open.first().getByRole("button", { name: "No guess" }).click();
    const button = page.locator(".lab-runner .step > .vm-cmd > button").nth(k);
    await button.click();
    // the button waits for the shell, then checks the earlier steps in the guest (seconds on a
    // busy machine), then types (its phase says which, from the click on); a test that jumps
    // ahead past steps it did not do is told so, and goes on anyway
    await expect.poll(() => button.getAttribute("data-phase"), { timeout: 60_000 }).toMatch(/^(typing|idle)$/);
    const undone = page.getByTestId("needs-earlier");
    if (await undone.count()) await undone.getByRole("button", { name: "Run them anyway" }).click();
  };
}

/**
 * Press the open step's Check. The page also checks an open step on its own every few seconds,
 * so the step may have passed (and its Check gone) before the click: that is no failure.
 */
export async function pressCheck(page: Page): Promise<void> {
  await page
    .getByTestId("check")
    .click({ timeout: 10_000 })
    .catch(async (e) => {
      if ((await page.locator(".lab-runner").getAttribute("data-passed")) !== "1") throw e;
    });
}

/**
 * What `read` gives once it holds still: two reads `gapMs` apart, both not null and the same
 * (as JSON). For a figure that arrives in parts (a run's decisions streamed from the guest,
 * judged by the panel after each pause): a wait for "not null" alone can end mid-run, and a
 * second read after it can give another figure, or none.
 */
export async function steady<T>(read: () => Promise<T | null>, timeout = 90_000, gapMs = 1500): Promise<T> {
  const until = Date.now() + timeout;
  let last: T | null = null;
  for (;;) {
    const now = await read();
    if (now !== null && last !== null && JSON.stringify(now) === JSON.stringify(last)) return now;
    if (Date.now() > until) throw new Error(`no steady value within ${timeout / 1000} s: last read ${JSON.stringify(now)}`);
    last = now;
    await new Promise((r) => setTimeout(r, gapMs));
  }
}

/**
 * Check (or Next, which checks a step not passed) pressed, and the step's check-status once
 * that check has answered (a new data-at). A press while the page's own poll is checking is not
 * taken (the button is aria-disabled, and Check says "Checking…"), and the poll's failure is not
 * shown: so the press is made again until an answer comes. A pass by the poll ends it too: the
 * Check button goes, and "passed" is the answer.
 */
export async function checkNow(page: Page, by: "check" | "next" = "check", timeout = 240_000): Promise<"passed" | "failed"> {
  const status = page.getByTestId("check-status");
  const button = page.getByTestId(by);
  const before = await status.getAttribute("data-at");
  const deadline = Date.now() + timeout;
  for (;;) {
    if ((await status.getAttribute("data-state")) === "passed") return "passed";
    // a new data-at with no verdict ("open": the outcome cleared) is no answer: the press comes again
    const state = await status.getAttribute("data-state");
    if ((await status.getAttribute("data-at")) !== before && state !== "open") return state as "passed" | "failed";
    if (Date.now() > deadline) throw new Error(`no check answered within ${timeout / 1000} s: ${await status.textContent()}`);
    // pressed when no check runs; a check of the learner's waits for the shell's prompt
    if ((await button.getAttribute("aria-disabled").catch(() => "true")) !== "true") await button.click({ timeout: 5_000 }).catch(() => undefined);
    await page.waitForTimeout(500);
  }
}
