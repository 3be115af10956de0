// The documents' lists of views, playgrounds and embeds are the manifests', and docs/labs.md's
// list of labs is the labs'.
import { readdirSync, existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOPICS } from "../../web/src/topics";
import { GENERATED_IN, generatedSections, labList, rewriteReadme, wrapItem } from "./readme-sections";
import { parseLab } from "../../web/src/labs/lab-format";
import { courseOrder } from "../../web/src/labs/course";

const doc = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
const LABS_DIR = new URL("../../labs/", import.meta.url);
const VIEWS = TOPICS.flatMap((t) => t.views.map((v) => v.id));
const LABS = readdirSync(LABS_DIR)
  .filter((d) => existsSync(new URL(`${d}/lab.md`, LABS_DIR)))
  .map((d) => ({ lab: parseLab(readFileSync(new URL(`${d}/lab.md`, LABS_DIR), "utf8"), VIEWS, `labs/${d}/lab.md`, d) }));

describe("the generated lists in docs/", () => {
  it("list the labs in labs/, the views and playgrounds the manifests declare (fslab readme rewrites them)", () => {
    const sections = generatedSections(TOPICS, LABS);
    expect(sections.views.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(TOPICS.flatMap((t) => t.views).length);
    expect(sections.playgrounds.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(TOPICS.flatMap((t) => t.playgrounds).length);
    for (const [file, names] of Object.entries(GENERATED_IN)) {
      const text = doc(file);
      expect(rewriteReadme(text, sections, names, file), `${file} is behind the manifests: npx fslab readme`).toBe(text);
    }
  });

  it("every section is in exactly one document, and the README links to each", () => {
    const placed = Object.values(GENERATED_IN).flat();
    expect([...placed].sort()).toEqual(Object.keys(generatedSections(TOPICS, LABS)).sort());
    const readme = doc("README.md");
    for (const file of Object.keys(GENERATED_IN)) expect(readme, `README.md links to ${file}`).toContain(`](${file})`);
  });

  it("a playground's entry carries its card's blurb, and a title's own question mark ends its sentence", () => {
    const items = generatedSections(TOPICS, LABS).playgrounds.replace(/\n {2}/g, " ").split("\n");
    for (const p of TOPICS.flatMap((t) => t.playgrounds)) {
      const item = items.find((l) => l.startsWith(`- \`#/play/${p.route}\`: `))!;
      expect(item).toContain(p.blurb);
      expect(item).not.toMatch(/[?!.]\. /);
    }
  });

  it("docs/labs.md lists every lab in the course's order, each with its title, summary, difficulty and time", () => {
    const items = labList(LABS);
    expect(items).toHaveLength(LABS.length);
    expect(LABS.length).toBeGreaterThan(1);
    courseOrder(LABS).forEach(({ lab }, i) => {
      expect(items[i]).toMatch(new RegExp(`^- \\[\`${lab.meta.id}\`\\]\\(\\.\\./labs/${lab.meta.id}/lab\\.md\\) `));
      expect(items[i]).toContain(lab.meta.title);
      expect(items[i]).toContain(lab.meta.summary.replace(/\s+/g, " "));
      expect(items[i]).toContain(`(${lab.meta.difficulty}, ${lab.meta.time})`);
    });
    const listed = doc("docs/labs.md").match(/<!-- generated:labs -->\n([^]*?)<!-- \/generated:labs -->/)![1];
    expect(listed.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(LABS.length);
  });

  it("refuses a document without a section's markers", () => {
    expect(() => rewriteReadme("# x\n", { views: "- a" })).toThrow(/no <!-- generated:views -->/);
  });
});

describe("the README and docs/", () => {
  it("the README opens with what fslab is, a screenshot, npm start and npm test by line 40, then a tour", () => {
    const lines = doc("README.md").split("\n");
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    const what = at(/^fslab is /);
    const shot = at(/^!\[[^\]]+\]\(docs\/[\w-]+\.png\)$/);
    const start = at(/^npm start\b/);
    const test = at(/^npm test\b/);
    const tour = at(/^## A short tour$/);
    expect(what).toBeGreaterThan(0);
    expect(shot).toBeGreaterThan(what);
    expect(start).toBeGreaterThan(shot);
    expect(test).toBeGreaterThan(shot);
    expect(Math.max(start, test)).toBeLessThan(40);
    expect(tour).toBeGreaterThan(test);
  });

  it("every relative link in the README and docs/ reaches a file, and its #anchor a heading there", () => {
    const files = ["README.md", ...readdirSync(new URL("../../docs/", import.meta.url)).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    // GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes
    const slug = (h: string) => h.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
    let links = 0;
    for (const file of files) {
      const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
      const text = doc(file).replace(/^(`{3,}|~{3,})[^]*?^\1/gm, ""); // not inside code blocks
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split("#");
        const to = path ? new URL(`../../${dir}${path}`, import.meta.url) : new URL(`../../${file}`, import.meta.url);
        expect(existsSync(to), `${file}: ${target}`).toBe(true);
        if (anchor) {
          const headings = readFileSync(to, "utf8").split("\n").filter((l) => /^#+ /.test(l)).map((l) => slug(l.replace(/^#+ /, "")));
          expect(headings, `${file}: ${target}`).toContain(anchor);
        }
        links++;
      }
    }
    expect(links).toBeGreaterThan(10);
  });
});

describe("wrapItem", () => {
  it("wraps at the width with a two-space indent, loses no word, and starts no line like a Markdown block", () => {
    const item = "- `rw` read | write | randread | randwrite | randrw, default randread; `bs` 4k | 64k | 1M, default 64k; - 1. # > + * | x";
    for (const width of [20, 24, 30, 41, 96]) {
      const lines = wrapItem(item, width).split("\n");
      expect(lines[0].startsWith("- ")).toBe(true);
      for (const l of lines.slice(1)) {
        expect(l).toMatch(/^ {2}\S/);
        expect(l.slice(2).split(" ")[0]).not.toMatch(/^([-+*>#|]|\d+[.)])$/);
      }
      // longer only where the words taken down with a "|" are (or one word is) longer
      for (const l of lines) if (!/[-+*>#|] \S+$/.test(l) && l.trim().includes(" ")) expect(l.length, `width ${width}: ${l}`).toBeLessThanOrEqual(width);
      expect(lines.map((l) => l.trim()).join(" ")).toBe(item);
    }
    expect(wrapItem("- short", 96)).toBe("- short");
  });
});
