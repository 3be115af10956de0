// The course's frontmatter (order, difficulty, requires, layers) as lab-format.ts reads it, and
// what course.ts checks across a folder of labs, each error at its file:line.
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { LabFormatError, labErrorLines, parseLab } from "./lab-format";
import { courseErrors, courseGaps, courseOrder, keyLine, neighbours, type CourseLab } from "./course";
import { LAYER_IDS } from "./stack";

const lab = (fm: string, id = "x") => `---\nid: ${id}\ntitle: T ${id}\n${fm}\n---\n\n## One\n\n<!-- reading -->\n\nText.\n`;

function errorsOf(source: string, file = "labs/x/lab.md"): string[] {
  try {
    parseLab(source, [], file, "x");
  } catch (e) {
    expect(e).toBeInstanceOf(LabFormatError);
    return labErrorLines(e);
  }
  return [];
}

describe("the course's frontmatter", () => {
  it("reads order, difficulty, requires and layers", () => {
    const { meta } = parseLab(lab("order: 3\ndifficulty: advanced\nrequires: [write-path]\nlayers: [scheduler, block]"), [], "lab.md", "x");
    expect(meta).toMatchObject({ order: 3, difficulty: "advanced", requires: ["write-path"], layers: ["scheduler", "block"] });
  });

  it("defaults to no place, no difficulty, nothing required, no layer", () => {
    const { meta } = parseLab(lab(""), [], "lab.md", "x");
    expect(meta.order).toBeUndefined();
    expect(meta.difficulty).toBeUndefined();
    expect(meta.requires).toEqual([]);
    expect(meta.layers).toEqual([]);
  });

  it("names the file and line of each wrong key, all at once", () => {
    const errs = errorsOf(lab("order: 0\ndifficulty: hard\nrequires: [X Y, x]\nlayers: [vfs, kernel, vfs]"));
    expect(errs).toEqual([
      `labs/x/lab.md:4: "order" is the lab's place in the course: a whole number from 1, not 0`,
      `labs/x/lab.md:5: "difficulty" is one of introductory, intermediate, advanced, not "hard"`,
      `labs/x/lab.md:6: "requires" lists lab ids (folder names), and "X Y" is none`,
      `labs/x/lab.md:6: a lab cannot require itself ("x")`,
      `labs/x/lab.md:7: unknown layer "kernel" (the stack, top to bottom: ${LAYER_IDS.join(", ")})`,
      `labs/x/lab.md:7: layer "vfs" is listed twice`,
    ]);
  });

  it("refuses an order that is not a whole number, and requires that is not a list", () => {
    expect(errorsOf(lab("order: 2.5"))).toEqual([`labs/x/lab.md:4: "order" is the lab's place in the course: a whole number from 1, not 2.5`]);
    expect(errorsOf(lab('order: "1"'))[0]).toMatch(/^labs\/x\/lab\.md:4: "order" .* not "1"$/);
    expect(errorsOf(lab("requires: write-path"))).toEqual([`labs/x/lab.md:4: "requires" must be a list of strings`]);
    expect(errorsOf(lab("layers: vfs"))).toEqual([`labs/x/lab.md:4: "layers" must be a list of strings`]);
  });
});

function course(specs: Array<[id: string, fm: string]>): CourseLab[] {
  return specs.map(([id, fm]) => {
    const source = lab(fm, id);
    return { file: `labs/${id}/lab.md`, source, lab: parseLab(source, [], `labs/${id}/lab.md`, id) };
  });
}

describe("a labs folder as a course", () => {
  it("holds a lab's closing link to the course's next lab, and the difficulty to rising", () => {
    const withLink = (id: string, fm: string, to: string): CourseLab => {
      const source = `---\nid: ${id}\ntitle: T ${id}\n${fm}\n---\n\n## One\n\n<!-- reading -->\n\nText; next, [the other](#/lab/${to}).\n`;
      return { file: `labs/${id}/lab.md`, source, lab: parseLab(source, [], `labs/${id}/lab.md`, id) };
    };
    const ok = [withLink("a", "order: 1\ndifficulty: introductory", "b"), withLink("b", "order: 2\ndifficulty: advanced", "a"), withLink("c", "order: 3\ndifficulty: advanced", "a")];
    expect(courseErrors(ok.slice(0, 2))).toEqual([]);
    expect(courseErrors(ok).map((e) => e.message)).toEqual(["labs/b/lab.md:12: the closing link leads to a, but the course's next lab is c (order 3): the last lab link of the last step is the learner's way on"]);
    const easier = [withLink("a", "order: 1\ndifficulty: advanced", "b"), withLink("b", "order: 2\ndifficulty: intermediate", "a")];
    expect(courseErrors(easier).map((e) => e.message)).toEqual(["labs/b/lab.md:5: difficulty intermediate comes after a's advanced (order 1): the course gets harder as it goes, never easier"]);
  });

  it("orders by order, then the labs without one by id", () => {
    const c = course([["b", "order: 2"], ["z", ""], ["a", ""], ["c", "order: 1"]]);
    expect(courseOrder(c).map((l) => l.lab.meta.id)).toEqual(["c", "b", "a", "z"]);
    expect(neighbours(c, "b")).toMatchObject({ index: 1, prev: { lab: { meta: { id: "c" } } }, next: { lab: { meta: { id: "a" } } } });
    expect(neighbours(c, "c").prev).toBeUndefined();
    expect(neighbours(c, "z").next).toBeUndefined();
    expect(neighbours(c, "nope").index).toBe(-1);
  });

  it("finds nothing wrong with prerequisites that come first", () => {
    expect(courseErrors(course([["a", "order: 1"], ["b", "order: 2\nrequires: [a]"], ["c", "requires: [a, b]"]]))).toEqual([]);
  });

  it("names a shared order, an unknown or later prerequisite, and a circle, at file:line", () => {
    const c = course([
      ["a", "order: 1\nrequires: [b]"],
      ["b", "order: 1\nrequires: [a]"],
      ["c", "order: 3\nrequires: [nowhere, d]"],
      ["d", "requires: []"],
    ]);
    expect(courseErrors(c).map((e) => e.message)).toEqual([
      "labs/a/lab.md:5: requires b, which the course puts after it (order 1, this lab's is 1): a prerequisite comes earlier",
      "labs/a/lab.md:5: the labs require each other in a circle: a → b → a",
      "labs/b/lab.md:4: order 1 is also a's (labs/a/lab.md:4): each lab needs its own place in the course",
      "labs/b/lab.md:5: requires a, which the course puts after it (order 1, this lab's is 1): a prerequisite comes earlier",
      "labs/c/lab.md:5: requires \"nowhere\", and there is no lab nowhere beside it (labs: a, b, c, d)",
      "labs/c/lab.md:5: requires d, which the course puts nowhere (it has no order): a prerequisite comes earlier",
    ]);
  });

  it("says what a lab lacks to have a place", () => {
    const [bare, full] = course([["a", ""], ["b", "order: 1\ndifficulty: introductory\nlayers: [vfs]"]]);
    expect(courseGaps(bare).map((g) => g.split(" ")[0])).toEqual(["order", "difficulty", "layers"]);
    expect(courseGaps(full)).toEqual([]);
    expect(keyLine(full.source, "layers")).toBe(6);
    expect(keyLine(full.source, "requires")).toBe(1);
  });

  it("the site's labs: one path through all, the write path first", () => {
    const dir = join(__dirname, "../../../labs");
    const labs: CourseLab[] = readdirSync(dir)
      .filter((d) => !d.startsWith("."))
      .map((d) => {
        const file = `labs/${d}/lab.md`;
        const source = readFileSync(join(dir, d, "lab.md"), "utf8");
        // the views are not what this test is about: every view id is taken as known
        const views = [...source.matchAll(/^views: \[(.*)\]$/gm)].flatMap((m) => m[1].split(/,\s*/));
        return { file, source, lab: parseLab(source, views, file, d) };
      });
    expect(courseErrors(labs)).toEqual([]);
    // the eight labs of the course's first version have their place (a new lab without one
    // comes after them, and labs check warns of it)
    for (const l of labs.filter((l) => l.lab.meta.order !== undefined)) expect(courseGaps(l), l.file).toEqual([]);
    expect(labs.filter((l) => l.lab.meta.order !== undefined).length).toBeGreaterThanOrEqual(8);
    const path = courseOrder(labs).map((l) => l.lab.meta.id);
    expect(path[0]).toBe("write-path");
    expect(new Set(path).size).toBe(labs.length);
    // every lab but the first is someone's next, and none is its own
    const nexts = labs.map((l) => neighbours(labs, l.lab.meta.id).next?.lab.meta.id).filter(Boolean);
    expect(new Set(nexts)).toEqual(new Set(path.slice(1)));
  });
});
