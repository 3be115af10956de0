// A lab as a SCORM package in an LMS, in Chromium: the package `fslab export scorm` makes
// (unzipped, as an LMS serves it), beside a stand-in LMS page (e2e/scorm-lms/) that runs
// scorm-again, the JavaScript runtime LMS builders embed, and opens the lab in a window of its
// own or in a frame of its page. SCORM 1.2: the learner's ID from the LMS is their identity
// (their seeded card), steps passing and a question answered reach the LMS as status, score,
// interactions and a progress pointer; leaving finishes the session; the learner comes back in
// another browser and resumes at their step; finishing the lab completes it. SCORM 2004: the
// same session's values under 2004's names. The package opened without an LMS runs as the
// normal lab and says so; a --base package carries the session across two origins.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createServer, type Server } from "node:http";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, mkdirSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize } from "node:path";
import { unzipSync } from "fflate";
import type { Frame, Page } from "playwright-core";
import { labRunner, launch, pressCheck, runInTerminal } from "./browser";
import { parseLab } from "../web/src/labs/lab-format";
import { VIEW_IDS } from "../web/src/topics";

const REPO = new URL("..", import.meta.url).pathname;
const LAB = "sd-card";
const LEARNER = "s-1001";
const MIME: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm", ".svg": "image/svg+xml", ".png": "image/png", ".md": "text/markdown", ".xml": "application/xml" };

/** `fslab export scorm` as an instructor runs it; the package unzipped as an LMS serves it, beside the stand-in LMS */
function packageSite(version: "1.2" | "2004", base?: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fslab-scorm-${version}-`));
  const zip = join(dir, "package.zip");
  const r = spawnSync(process.execPath, [join(REPO, "bin/fslab.mjs"), "export", "scorm", LAB, "--out", zip, "--version", version, ...(base ? ["--base", base] : [])], { cwd: REPO, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`fslab export scorm failed: ${r.stderr}`);
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(readFileSync(zip))))) {
    const to = join(dir, "pkg", name);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, bytes);
  }
  for (const f of ["lms.html", "lms.js"]) copyFileSync(join(REPO, "e2e/scorm-lms", f), join(dir, f));
  for (const f of ["scorm12.js", "scorm2004.js"]) copyFileSync(join(REPO, "node_modules/scorm-again/dist", f), join(dir, f));
  return dir;
}

function serve(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(root, path.endsWith("/") ? `${path}index.html` : path);
    try {
      if (!file.startsWith(root) || !statSync(file).isFile()) throw new Error("no file");
      res.writeHead(200, { "Content-Type": MIME[extname(file)] ?? "application/octet-stream" });
      res.end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })));
}

/** the stand-in LMS's page, and the lab it opens in a window of its own */
async function openInLms(b: Awaited<ReturnType<typeof launch>>, url: string, version: string, suspend = ""): Promise<{ lms: Page; sco: Page }> {
  const lms = b.page;
  await lms.goto(`${url}lms.html?v=${version}&learner=${LEARNER}&lab=${LAB}${suspend ? `&suspend=${encodeURIComponent(suspend)}` : ""}`);
  const [sco] = await Promise.all([lms.waitForEvent("popup"), lms.click("#launch")]);
  await sco.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
  return { lms, sco };
}

/** the lab in a frame (the helpers of browser.ts take a page): its first step's Run, then Check, passed */
async function passFirstStep(frame: Frame): Promise<void> {
  const run = frame.locator(".lab-runner .step > .vm-cmd > button").first();
  await run.click();
  await expect.poll(() => run.getAttribute("data-phase"), { timeout: 120_000 }).toBe("idle");
  // Check, pressed until the step passes: a press while the page's own check runs is not taken
  // (the button is aria-disabled), and a pass by that check removes the button (a clean-clone
  // run under load met both: a plain click waited 30 s on a button that then went away)
  const status = () => frame.getByTestId("check-status").getAttribute("data-state", { timeout: 5_000 }).catch(() => null);
  await expect
    .poll(
      async () => {
        if ((await status()) === "passed") return "passed";
        await frame.getByTestId("check").click({ timeout: 2_000 }).catch(() => undefined);
        return status();
      },
      { timeout: 120_000, interval: 1_000 },
    )
    .toBe("passed");
}

/** what the LMS kept at the last commit: its CMI, as scorm-again renders it */
const kept = (lms: Page) => lms.evaluate(() => (window as unknown as { lmsKept: Record<string, any> | null }).lmsKept);

const lab = parseLab(readFileSync(join(REPO, `labs/${LAB}/lab.md`), "utf8"), VIEW_IDS, `labs/${LAB}/lab.md`, LAB);
/** the steps to pass: a reading step has nothing to pass */
const toPass = lab.steps.filter((s) => !s.reading).length;
const solutionOf = (step: number) => lab.steps[step].blocks.find((x) => x.kind === "solution")!.text;

/**
 * The package served for a describe block: exported, unzipped beside the stand-in LMS, served
 * from its own origin; gone after the block. `base`: a --base package, the labs from that site.
 */
function servedPackage(version: "1.2" | "2004", base?: () => string): { url: string } {
  const served = { url: "" };
  let site = "";
  let server: Server | undefined;
  beforeAll(async () => {
    site = packageSite(version, base?.());
    const s = await serve(site);
    server = s.server;
    served.url = s.url;
  }, 120_000);
  afterAll(() => {
    server?.close();
    if (site) rmSync(site, { recursive: true, force: true });
  });
  return served;
}

describe("a lab as a SCORM 1.2 package in an LMS", () => {
  const http = servedPackage("1.2");

  let pointer = "";

  it("takes the learner from the LMS, and reports the steps, the score and the answers as they come", async () => {
    const b = await launch();
    try {
      const { lms, sco } = await openInLms(b, http.url, "1.2");
      // the LMS's learner is whose problem it is: the address of their card's last 4 KiB is the key `fslab labs key` gives them
      await expect.poll(() => sco.getByTestId("seed-note").getAttribute("data-identity"), { timeout: 30_000 }).toBe(LEARNER);
      expect(await sco.getByTestId("lms-notice").count()).toBe(0);
      const key = spawnSync(process.execPath, [join(REPO, "bin/fslab.mjs"), "labs", "key", LAB, "--learner", LEARNER, "--json"], { cwd: REPO, encoding: "utf8" });
      const expected: string = JSON.parse(key.stdout).answers.find((a: { kind: string; expected: string | null }) => a.kind === "question" && a.expected).expected;
      const run = labRunner(sco, LAB);
      await run(0);
      await pressCheck(sco);
      await expect.poll(() => sco.getByTestId("check-status").getAttribute("data-state"), { timeout: 60_000 }).toBe("passed");
      await expect.poll(async () => (await kept(lms))?.cmi?.core?.lesson_status, { timeout: 30_000 }).toBe("incomplete");
      await sco.getByTestId("next").click();
      await run(1);
      await pressCheck(sco);
      await expect.poll(() => sco.getByTestId("check-status").getAttribute("data-state"), { timeout: 90_000 }).toBe("passed");
      await sco.getByTestId("next").click();
      await sco.locator('.lab-runner[data-step="2"]').waitFor();
      // the challenge, worked out in the terminal; then the question about the learner's own card
      await runInTerminal(sco, solutionOf(2).replace(/\n/g, "; "), 60_000);
      await pressCheck(sco);
      await expect.poll(() => sco.getByTestId("check-status").getAttribute("data-state"), { timeout: 60_000 }).toBe("passed");
      const box = sco.locator('.lab-runner [data-testid="question"]').first();
      await box.locator("input").fill(expected);
      await box.getByRole("button", { name: "Answer" }).click();
      await expect.poll(() => box.getAttribute("data-answered"), { timeout: 60_000 }).toBe("1");
      // what the LMS holds: the pointer, the score, the interaction with the learner's key
      await expect.poll(async () => Object.keys((await kept(lms))?.cmi?.interactions ?? {}).length, { timeout: 30_000 }).toBeGreaterThan(0);
      const cmi = (await kept(lms))!.cmi;
      const suspend = JSON.parse(cmi.suspend_data);
      expect(suspend).toMatchObject({ v: 1, lab: LAB, step: 2, passed: [0, 1, 2] });
      expect(cmi.suspend_data.length).toBeLessThanOrEqual(4096);
      expect(cmi.core.lesson_location).toBe("step-3");
      expect(Number(cmi.core.score.raw)).toBe(4); // three steps passed alone, one question right
      expect(Number(cmi.core.score.max)).toBe(toPass + 1);
      const q = Object.values(cmi.interactions as Record<string, any>)[0];
      expect(q).toMatchObject({ id: "s3-q1", type: "fill-in", student_response: expected, result: "correct" });
      expect(q.correct_responses["0"].pattern).toBe(expected);
      expect(cmi.core.lesson_status).toBe("incomplete");
      pointer = cmi.suspend_data;
      // leaving the lab's window ends the session, with its time
      await sco.close({ runBeforeUnload: true });
      await expect.poll(() => lms.evaluate(() => (window as unknown as { lmsFinished?: boolean }).lmsFinished === true), { timeout: 30_000 }).toBe(true);
      expect((await kept(lms))!.cmi.core.session_time).toMatch(/^\d{2,4}:\d{2}:\d{2}/);
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 600_000);

  it("resumes at the learner's step in another browser, and finishing the lab completes it", async () => {
    expect(pointer, "the first test kept a pointer").not.toBe("");
    const b = await launch(); // a new profile: nothing of the first browser's
    try {
      const { lms, sco } = await openInLms(b, http.url, "1.2", pointer);
      await expect.poll(() => sco.locator(".lab-runner").getAttribute("data-step"), { timeout: 30_000 }).toBe("2");
      expect(await sco.getByTestId("lab-notice").allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/Your LMS says you had reached step 3/)]));
      // the machine lacks what the passed steps made: the page offers to redo it
      await sco.getByTestId("rerun-passed").click();
      await expect.poll(() => runInTerminal(sco, "ls /dev/mmcblk0 2>&1 || true"), { timeout: 120_000 }).toBe("/dev/mmcblk0");
      // the remaining steps, to the end
      const run = labRunner(sco, LAB);
      for (let step = 2; step < lab.steps.length; step++) {
        if ((await sco.locator(".lab-runner").getAttribute("data-step")) !== String(step)) {
          await sco.getByTestId(`outline-${step}`).click();
          await sco.locator(`.lab-runner[data-step="${step}"]`).waitFor();
        }
        const blocks = lab.steps[step].blocks;
        if (lab.steps[step].challenge) await runInTerminal(sco, solutionOf(step).replace(/\n/g, "; "), 120_000);
        else
          for (let k = 0, n = blocks.filter((x) => x.kind === "vm").length, before = lab.steps.slice(0, step).flatMap((s) => s.blocks).filter((x) => x.kind === "vm").length; k < n; k++) await run(before + k);
        if (blocks.some((x) => x.kind === "check" || x.kind === "expect")) {
          await pressCheck(sco);
          await expect.poll(() => sco.getByTestId("check-status").getAttribute("data-state"), { timeout: 120_000 }).toBe("passed");
        }
        if (step + 1 < lab.steps.length) await sco.getByRole("button", { name: /^Next/ }).click();
      }
      await expect
        .poll(async () => (await kept(lms))?.cmi?.core?.lesson_status, { timeout: 30_000 })
        .toMatch(/^(passed|failed)$/)
        .catch(async (e) => {
          throw new Error(`the LMS holds ${JSON.stringify((await kept(lms))?.cmi?.suspend_data)}; the outline: ${await sco.locator(".lab-outline").textContent()}`, { cause: e });
        });
      const cmi = (await kept(lms))!.cmi;
      const scaled = Number(cmi.core.score.raw) / Number(cmi.core.score.max);
      expect(cmi.core.lesson_status).toBe(scaled >= 0.8 ? "passed" : "failed");
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 900_000);

  it("in a frame of the LMS's page: the API found up the frames, a step reported", async () => {
    const b = await launch();
    try {
      const lms = b.page;
      await lms.goto(`${http.url}lms.html?v=1.2&learner=${LEARNER}&lab=${LAB}&frame=1`);
      await lms.click("#launch");
      await expect.poll(() => lms.frames().some((f) => f.url().includes("scorm=1.2")), { timeout: 30_000 }).toBe(true);
      const frame = lms.frames().find((f) => f.url().includes("scorm=1.2"))!;
      await frame.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
      await expect.poll(() => frame.getByTestId("seed-note").getAttribute("data-identity"), { timeout: 30_000 }).toBe(LEARNER);
      await passFirstStep(frame);
      await expect.poll(async () => JSON.parse((await kept(lms))?.cmi?.suspend_data || "{}").passed, { timeout: 30_000 }).toEqual([0]);
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 600_000);

  it("opened without an LMS, the package runs as the normal lab and says so", async () => {
    const b = await launch();
    try {
      await b.page.goto(`${http.url}pkg/index.html?scorm=1.2#/lab/${LAB}`);
      await b.page.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
      expect(await b.page.getByTestId("lms-notice").textContent()).toMatch(/opened outside an LMS .* nothing is reported/);
      expect(await runInTerminal(b.page, "echo fine")).toBe("fine");
    } finally {
      await b.close();
    }
  }, 300_000);
});

describe("a lab as a SCORM 2004 package in an LMS", () => {
  const http = servedPackage("2004");

  it("reports under 2004's names: learner_id, completion and success, the scaled score", async () => {
    const b = await launch();
    try {
      const { lms, sco } = await openInLms(b, http.url, "2004");
      await expect.poll(() => sco.getByTestId("seed-note").getAttribute("data-identity"), { timeout: 30_000 }).toBe(LEARNER);
      await labRunner(sco, LAB)(0);
      await pressCheck(sco);
      await expect.poll(() => sco.getByTestId("check-status").getAttribute("data-state"), { timeout: 60_000 }).toBe("passed");
      await expect.poll(async () => (await kept(lms))?.cmi?.completion_status, { timeout: 30_000 }).toBe("incomplete");
      const cmi = (await kept(lms))!.cmi;
      expect(cmi.success_status).toBe("unknown");
      expect(Number(cmi.score.raw)).toBe(1);
      expect(Number(cmi.score.scaled)).toBeCloseTo(1 / (toPass + 1), 3);
      expect(JSON.parse(cmi.suspend_data)).toMatchObject({ lab: LAB, step: 0, passed: [0] });
      expect(cmi.location).toBe("step-1");
      expect(await sco.getByTestId("lms-notice").count()).toBe(0);
      await sco.close({ runBeforeUnload: true });
      await expect.poll(() => lms.evaluate(() => (window as unknown as { lmsFinished?: boolean }).lmsFinished === true), { timeout: 30_000 }).toBe(true);
      expect((await kept(lms))!.cmi.session_time).toMatch(/^PT\d+H\d+M[\d.]+S$/);
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 600_000);
});

describe("a SCORM package that loads the lab from the instructor's hosted site (--base)", () => {
  // the hosted site is the e2e's own (another origin than the LMS's); the package holds only its launch page
  const http = servedPackage("1.2", () => inject("baseUrl"));

  it("carries the session over messages: the learner, a passed step, the finish", async () => {
    const b = await launch();
    try {
      const lms = b.page;
      await lms.goto(`${http.url}lms.html?v=1.2&learner=${LEARNER}&lab=${LAB}&launcher=1`);
      const [sco] = await Promise.all([lms.waitForEvent("popup"), lms.click("#launch")]);
      await expect.poll(() => sco.frames().some((f) => f.url().includes("scorm=bridge")), { timeout: 30_000 }).toBe(true);
      const frame = sco.frames().find((f) => f.url().includes("scorm=bridge"))!;
      expect(new URL(frame.url()).origin).not.toBe(new URL(http.url).origin);
      await frame.waitForSelector('.vm-status[data-phase="ready"]', { timeout: 150_000 });
      await expect.poll(() => frame.getByTestId("seed-note").getAttribute("data-identity"), { timeout: 30_000 }).toBe(LEARNER);
      expect(await frame.getByTestId("lms-notice").count()).toBe(0);
      await passFirstStep(frame);
      await expect.poll(async () => (await kept(lms))?.cmi?.core?.lesson_status, { timeout: 30_000 }).toBe("incomplete");
      const cmi = (await kept(lms))!.cmi;
      expect(JSON.parse(cmi.suspend_data)).toMatchObject({ lab: LAB, step: 0, passed: [0] });
      expect(Number(cmi.core.score.raw)).toBe(1);
      await sco.close({ runBeforeUnload: true });
      await expect.poll(() => lms.evaluate(() => (window as unknown as { lmsFinished?: boolean }).lmsFinished === true), { timeout: 30_000 }).toBe(true);
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 600_000);
});

