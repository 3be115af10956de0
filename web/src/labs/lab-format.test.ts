import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { parseLab, LabFormatError } from "./lab-format";
import { VIEW_IDS } from "../topics";

const good = `---
id: demo
title: A demo
summary: Shows the format.
time: 5 min
topics: [exfat]
views: [exfat-clusters]
---

## First step

Some text.

\`\`\`vm
echo hello
\`\`\`

\`\`\`check
test -e /tmp
\`\`\`
`;

function errorOf(src: string, folder?: string): LabFormatError {
  try {
    parseLab(src, VIEW_IDS, "lab.md", folder);
  } catch (e) {
    if (e instanceof LabFormatError) return e;
    throw e;
  }
  throw new Error("parsed without error");
}

describe("parseLab", () => {
  it("reads frontmatter, steps and their vm/check blocks with line numbers", () => {
    const lab = parseLab(good, VIEW_IDS, "lab.md", "demo");
    expect(lab.meta).toMatchObject({ id: "demo", title: "A demo", topics: ["exfat"], disks: [], views: ["exfat-clusters"] });
    expect(lab.steps).toHaveLength(1);
    expect(lab.steps[0].blocks.map((b) => [b.kind, b.line])).toEqual([["markdown", 12], ["vm", 14], ["check", 18]]);
    expect(lab.steps[0].blocks[1].text).toBe("echo hello");
  });

  it.each([
    ["no frontmatter", "## Step\ntext\n", 1, /YAML frontmatter/],
    ["unclosed frontmatter", "---\nid: x\n", 1, /no closing/],
    ["bad YAML", "---\nid: [x\n---\n## S\nt\n", 2, /not valid YAML/],
    ["missing title", good.replace("title: A demo\n", ""), 1, /needs "title"/],
    ["unknown view", good.replace("[exfat-clusters]", "[no-such-view]"), 7, /unknown view "no-such-view"/],
    ["unclosed fence", good.replace("test -e /tmp\n```", "test -e /tmp"), 18, /never closed/],
    ["empty vm block", good.replace("echo hello", ""), 14, /empty vm block/],
    ["text before first step", good.replace("## First step", "intro"), 10, /text before the first step/],
    ["a # heading", good.replace("## First step", "# First step"), 10, /use "## "/],
  ])("points at the line of: %s", (_name, src, line, msg) => {
    const e = errorOf(src);
    expect(e.line).toBe(line);
    expect(e.message).toMatch(msg);
    expect(e.message.startsWith(`lab.md:${line}: `)).toBe(true);
  });

  it("reads hint, solution, expect, learned and timed check blocks", () => {
    const src = good.replace(
      "```check\ntest -e /tmp\n```",
      "```check timeout=30\ntest -e /tmp\n```\n\n```hint\nLook in /tmp.\n```\n\n```solution\ntouch /tmp/x\n```\n\n```expect\n- event: exfat_discard\n  count: 2..\n- verdict: exfat-clusters\n```\n\n```learned\nIt cost **4** discards.\n```",
    );
    const blocks = parseLab(src, VIEW_IDS, "lab.md").steps[0].blocks;
    expect(blocks.map((b) => b.kind)).toEqual(["markdown", "vm", "check", "hint", "solution", "expect", "learned"]);
    expect(blocks[6]).toMatchObject({ kind: "learned", text: "It cost **4** discards." });
    expect(() => parseLab(src.replace("```learned", "```learned now"), VIEW_IDS, "lab.md")).toThrow(/a learned fence takes nothing after its tag/);
    expect(blocks[2]).toMatchObject({ kind: "check", timeout: 30 });
    expect(blocks[5]).toMatchObject({ kind: "expect", expect: [{ event: "exfat_discard", count: { min: 2 } }, { verdict: "exfat-clusters" }] });
    expect(parseLab(good, VIEW_IDS).steps[0].blocks[2]).toMatchObject({ timeout: 10 });
  });

  it("gives optional frontmatter keys defaults: id from the folder, time from the steps, empty lists", () => {
    const lab = parseLab("---\ntitle: Bare\n---\n## One\ntext\n## Two\ntext\n", VIEW_IDS, "lab.md", "bare");
    expect(lab.meta).toEqual({ id: "bare", title: "Bare", summary: "", time: "about 10 min", topics: [], disks: [], views: [] });
  });

  it.each([
    ["an unknown frontmatter key", good.replace("time: 5 min", "tme: 5 min"), 5, /unknown frontmatter key "tme"/],
    ["a bad check fence", good.replace("```check", "```check timeout=abc"), 18, /only "timeout=<seconds>"/],
    ["a check timeout out of range", good.replace("```check", "```check timeout=0"), 18, /1 to 600 seconds/],
    ["a bad expect line", good.replace("```check\ntest -e /tmp", "```expect\n- event: x\n- count: 2"), 20, /an event: or a verdict:/],
    ["a verdict of a view the lab does not show", good.replace("```check\ntest -e /tmp", "```expect\nverdict: exfat-dir"), 18, /does not show/],
    ["a bad time", good.replace("time: 5 min", "time: [5]"), 5, /"time" is minutes/],
  ])("points at the line of %s", (_name, src, line, msg) => {
    const e = errorOf(src);
    expect(e.message).toMatch(msg);
    expect(e.line).toBe(line);
  });

  it("rejects an id that does not match its folder", () => {
    expect(errorOf(good, "other").message).toMatch(/lab.md:2: id "demo" does not match its folder "other"/);
  });

  it("every lab in labs/ is valid, and names only views a topic manifest declares", () => {
    const root = new URL("../../../labs/", import.meta.url);
    const ids = readdirSync(root);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const lab = parseLab(readFileSync(new URL(`${id}/lab.md`, root), "utf8"), VIEW_IDS, `labs/${id}/lab.md`, id);
      expect(lab.steps.length).toBeGreaterThan(0);
    }
  });
});
