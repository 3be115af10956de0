// Labs as an instructor ships them: the built site reads labs/ at run time, so a lab folder
// copied into it and indexed with `fslab labs index` appears without a rebuild; a broken lab
// shows its own error and hides no other; a lab's text runs no script, whatever it holds.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { launch } from "./browser";

const base = () => inject("baseUrl");
const repo = new URL("..", import.meta.url).pathname;
const site = join(repo, "web/dist/labs");
const fslab = (...args: string[]) => spawnSync(process.execPath, [join(repo, "bin/fslab.mjs"), ...args], { encoding: "utf8", cwd: repo });

const EVIL = `---
title: "A lab whose text tries to run script"
summary: "<img src=x onerror=\\"window.__pwned='summary'\\">"
---
## Everything that could run

<script>window.__pwned = "script"</script>
<img src="x" onerror="window.__pwned = 'onerror'" alt="broken on purpose">
<a href="javascript:window.__pwned='raw-link'" data-testid="raw-link">a raw link</a>
[a Markdown link](javascript:window.__pwned='md-link')
<svg><script>window.__pwned = "svg"</script></svg>
<iframe src="javascript:window.__pwned='iframe'"></iframe>
<div onmouseover="window.__pwned='hover'" data-testid="hover">hover me</div>

A figure from another site, and a link to one, still work: ![fig](https://example.org/fig.png) [kernel.org](https://kernel.org/).

\`\`\`hint
<img src=x onerror="window.__pwned='hint'">
\`\`\`
`;

describe("labs read by the built site at run time", () => {
  let b: Awaited<ReturnType<typeof launch>>;
  const index = readFileSync(join(site, "index.json"), "utf8");
  beforeAll(async () => {
    b = await launch();
  });
  afterAll(async () => {
    await b.close();
    for (const d of ["copied-lab", "evil", "broken"]) rmSync(join(site, d), { recursive: true, force: true });
    writeFileSync(join(site, "index.json"), index);
  });

  it("the home page shows the built site's labs from their cards: it loads no lab parser", async () => {
    const scripts: string[] = [];
    const seen = (r: { url(): string }) => /\.js$/.test(r.url()) && scripts.push(r.url().replace(/.*\//, ""));
    b.page.on("request", seen);
    try {
      await b.page.goto(`${base()}#/`);
      await b.page.reload(); // the list is read once per page load
      await b.page.locator('[data-lab="exfat-discard"] a').first().waitFor();
      await b.page.waitForLoadState("networkidle");
    } finally {
      b.page.off("request", seen);
    }
    expect(scripts.length).toBeGreaterThan(2);
    expect(scripts.filter((s) => /^(course-parse|registry|lab-format)-/.test(s))).toEqual([]);
    // nor in any chunk it loads: yaml's and marked's own strings are in none of them
    const parsers = scripts.filter((s) => /YAMLParseError|marked\(\): input parameter is undefined or null/.test(readFileSync(join(repo, "web/dist/assets", s), "utf8")));
    expect(parsers).toEqual([]);
    const cards = JSON.parse(index).cards;
    expect(Object.keys(cards).sort()).toEqual(JSON.parse(index).labs);
    // the summary drawn from the card's inline Markdown
    expect(await b.page.locator('[data-lab="exfat-discard"] .course-summary').textContent()).toMatch(/^Delete a file on an exFAT volume mounted with -o discard/);
  });

  it("a lab folder copied into the site and indexed appears without a rebuild; a broken one shows its error beside the others", async () => {
    cpSync(join(repo, "labs/exfat-discard"), join(site, "copied-lab"), { recursive: true });
    const src = readFileSync(join(site, "copied-lab/lab.md"), "utf8")
      .replace("id: exfat-discard", "id: copied-lab")
      .replace(/title: .*/, 'title: "A lab copied into the site"')
      .replace(/summary: >\n(  .*\n)+/, "summary: Deletes a file with `batch_discard` at *0*, then at 1.\n")
      .replace(/^order: .*\n/m, ""); // a copy outside the course: the shipped lab keeps its place
    writeFileSync(join(site, "copied-lab/lab.md"), src);
    mkdirSync(join(site, "broken"));
    writeFileSync(join(site, "broken/lab.md"), "---\ntitle: Broken\ncolour: blue\n---\n## S\ntext\n\n```chek\nexit 1\n```\n");
    const r = fslab("labs", "index", site);
    expect(r.status).toBe(1); // the broken lab is listed, and named, with every error
    expect(r.stderr).toMatch(/broken\/lab\.md:3: unknown frontmatter key "colour"/);
    expect(r.stderr).toMatch(/broken\/lab\.md:8: no block is called "chek": did you mean `check`\?/);
    expect(JSON.parse(readFileSync(join(site, "index.json"), "utf8")).labs).toEqual(expect.arrayContaining(["copied-lab", "broken", "exfat-discard"]));
    await b.page.goto(`${base()}#/`);
    await b.page.reload(); // the list is read once per page load
    await b.page.locator('[data-lab="copied-lab"] a[href="#/lab/copied-lab"]').waitFor();
    expect(await b.page.locator('[data-lab="copied-lab"] a[href="#/lab/copied-lab"]').textContent()).toBe("A lab copied into the site");
    expect(await b.page.locator('[data-lab="broken"]').textContent()).toMatch(/labs\/broken\/lab\.md:3: unknown frontmatter key "colour"/);
    // every error, one item each
    expect(await b.page.locator('[data-lab="broken"] li').allTextContents()).toEqual([
      expect.stringMatching(/^labs\/broken\/lab\.md:3: unknown frontmatter key "colour"/),
      expect.stringMatching(/^labs\/broken\/lab\.md:8: no block is called "chek": did you mean `check`\?/),
    ]);
    // the summary's inline Markdown, rendered
    expect(await b.page.locator('[data-lab="copied-lab"] .course-summary code').textContent()).toBe("batch_discard");
    expect(await b.page.locator('[data-lab="copied-lab"] .course-summary em').textContent()).toBe("0");
    // the shipped labs and the two copied in
    const shipped = readdirSync(join(repo, "labs")).filter((d) => existsSync(join(repo, "labs", d, "lab.md"))).length;
    expect(await b.page.locator("[data-lab]").count()).toBe(shipped + 2);
    // edited in place after the index was written: its card no longer matches the text, and the page parses the lab
    writeFileSync(join(site, "copied-lab/lab.md"), src.replace('title: "A lab copied into the site"', 'title: "A lab edited in the site"'));
    const parser = b.page.waitForRequest((r) => /\/course-parse-[\w-]+\.js$/.test(r.url()));
    await b.page.reload();
    await parser;
    await expect.poll(() => b.page.locator('[data-lab="copied-lab"] a[href="#/lab/copied-lab"]').textContent(), { timeout: 30_000 }).toBe("A lab edited in the site");
    writeFileSync(join(site, "copied-lab/lab.md"), src);
    await b.page.reload();
    await b.page.locator('[data-lab="copied-lab"] a[href="#/lab/copied-lab"]').click();
    await b.page.locator(".lab-runner").waitFor();
    expect(await b.page.locator(".lab-text h1").textContent()).toBe("A lab copied into the site");
  });

  it("a lab whose text carries <script>, event handlers and javascript: links runs none of them", async () => {
    mkdirSync(join(site, "evil"), { recursive: true });
    writeFileSync(join(site, "evil/lab.md"), EVIL);
    fslab("labs", "index", site);
    const page = b.page;
    await page.goto(`${base()}#/`);
    await page.reload(); // the list is read once per page load
    await page.locator('[data-lab="evil"] a').waitFor();
    // its summary's tag is not drawn on the home page (the card drops raw HTML)
    expect(await page.locator('[data-lab="evil"] .course-summary img').count()).toBe(0);
    await page.locator('[data-lab="evil"] a').click();
    await page.locator(".lab-runner .step").waitFor();
    await page.getByRole("button", { name: /Show a hint/ }).click();
    await page.getByTestId("hover").hover();
    const links = page.locator(".lab-runner .step a");
    for (let i = 0; i < (await links.count()); i++) {
      const href = await links.nth(i).getAttribute("href");
      if (href && !href.startsWith("https:")) await links.nth(i).click({ timeout: 2000 }).catch(() => undefined);
    }
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as any).__pwned ?? null)).toBeNull();
    const step = page.locator(".lab-runner .step");
    expect(await step.locator("script, iframe").count()).toBe(0);
    expect(await step.locator("[onerror], [onmouseover], [onclick]").count()).toBe(0);
    expect(await step.locator('a[href^="javascript:"]').count()).toBe(0);
    // what is safe is kept: the figure and the link to another site
    expect(await step.locator('img[src="https://example.org/fig.png"]').count()).toBe(1);
    expect(await step.locator('a[href="https://kernel.org/"]').count()).toBe(1);
    expect(b.errors).toEqual([]);
  });

  it("an author previews a lab.md from their own disk, errors named by file and line", async () => {
    const page = b.page;
    await page.goto(`${base()}#/`);
    await page.getByTestId("preview-file").setInputFiles({ name: "draft.md", mimeType: "text/markdown", buffer: Buffer.from("---\ntitle: My draft\n---\n## One\nHello from my disk.\n") });
    await expect.poll(() => page.locator(".lab-text h1").textContent().catch(() => "")).toBe("My draft");
    expect(await page.locator(".lab-runner .step").textContent()).toMatch(/Hello from my disk/);
    // its one step has nothing to check: the author is told, as labs check would
    expect(await page.getByTestId("lab-warnings").locator("li").allTextContents()).toEqual([
      'draft.md:4: step "One" has nothing to check (no check, expect or predict block): add one, or mark a step the learner only reads with a line <!-- reading -->',
    ]);
    await page.goto(`${base()}#/`);
    await page.getByTestId("preview-file").setInputFiles({ name: "draft.md", mimeType: "text/markdown", buffer: Buffer.from("---\ntitle: My draft\n---\n# One\n") });
    await expect.poll(() => page.locator(".error").first().textContent().catch(() => "")).toMatch(/draft\.md:4: use "## " for step headings/);
    // a site's lab shows no warnings to its learners
    await page.goto(`${base()}#/lab/exfat-discard`);
    await page.locator(".lab-text h1").waitFor();
    expect(await page.getByTestId("lab-warnings").count()).toBe(0);
  });
});
