import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { parseLab, LabFormatError, BLOCK_TAGS, CODE_LANGUAGES, classifyFence, editDistance } from "./lab-format";
import { formatErrors } from "./format-errors";
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
    // a tag YAML does not know is the author's error, not a console warning and a plain string
    ["an unknown YAML tag", good.replace("title: A demo", "title: !x A demo"), 3, /frontmatter: YAML the lab format does not take: Unresolved tag: !x/],
    ["missing title", good.replace("title: A demo\n", ""), 1, /needs "title"/],
    ["unknown view", good.replace("[exfat-clusters]", "[no-such-view]"), 7, /unknown view "no-such-view"/],
    ["unclosed fence", good.replace("test -e /tmp\n```", "test -e /tmp"), 18, /never closed/],
    ["empty vm block", good.replace("echo hello", ""), 14, /empty vm block/],
    ["a block whose close is missing, before the next block", good.replace("echo hello\n```", "echo hello"), 14, /vm block opened here runs into line 17 \(```check\): is its closing ``` missing\?/],
    ["a learned block whose close is missing, before the next step", good.replace("```check\ntest -e /tmp\n```", "```check\ntest -e /tmp\n```\n\n```learned\nIt is there.\n\n## Second step\n\n```vm\nls\n```"), 22, /learned block opened here runs into line 25 \(## Second step\)/],
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
    expect(lab.meta).toEqual({ id: "bare", title: "Bare", summary: "", time: "about 10 min", topics: [], disks: [], views: [], requires: [], layers: [], files: [], seed: [] });
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
      // a step with nothing to check is marked as reading, so `fslab labs check` stays quiet
      expect(lab.warnings.map((w) => w.message)).toEqual([]);
    }
  });
});

/** good's step with one more fenced block after it (at line 22), and a vm block after that. */
const withFence = (info: string, body = "true") => `${good}\n\`\`\`${info}\n${body}\n\`\`\`\n\n\`\`\`vm\necho after\n\`\`\`\n`;
const FENCE_LINE = 22;
const errorsOf = (src: string) => formatErrors(() => parseLab(src, VIEW_IDS, "lab.md"));

describe("misspelled blocks", () => {
  it("places the extra fence where the tests expect it", () => {
    expect(parseLab(withFence("hint", "Look."), VIEW_IDS).steps[0].blocks.map((b) => [b.kind, b.line])).toContainEqual(["hint", FENCE_LINE]);
  });

  it.each([
    ["chek", "check"],
    ["hnit", "hint"],
    ["solutoin", "solution"],
    ["predcit", "predict"],
    ["expcet", "expect"],
    ["lerned", "learned"],
    ["Check", "check"],
    ["VM", "vm"],
    ["vm2", "vm"],
    ["hints", "hint"],
    ["chec k", "check"],
    ["{.check}", "check"],
    ["check-timeout=30", "check"],
  ])("```%s is an error naming its line: did you mean `%s`?", (info, tag) => {
    const errors = errorsOf(withFence(info));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^lab\\.md:${FENCE_LINE}: no block is called ".*": did you mean \`${tag}\`\\?`));
  });

  it.each(["sh", "bash", "text", "c", "console", "yaml", "json", "ini", "diff", "go", "vim", "Bash", "sh -x", "python3", "mermaid-ish", ""])(
    "```%s stays plain code, shown to the learner",
    (info) => {
      const lab = parseLab(withFence(info, "make && ./run"), VIEW_IDS, "lab.md");
      const b = lab.steps[0].blocks.find((x) => x.line === FENCE_LINE)!;
      expect(b.kind).toBe("markdown");
      expect(b.text).toContain("make && ./run");
    },
  );

  it("options a tag does not take stay errors", () => {
    expect(errorsOf(withFence("vm now"))).toEqual([`lab.md:${FENCE_LINE}: a vm fence takes nothing after its tag, not "now"`]);
    expect(errorsOf(withFence("check,timeout=3"))).toEqual([`lab.md:${FENCE_LINE}: a check fence takes only "timeout=<seconds>", not ",timeout=3"`]);
  });

  it("an indented fence of one of our blocks is an error: Markdown would show it as plain code", () => {
    const src = good.replace("Some text.", "1. First this:\n\n   ```check\n   test -e /tmp\n   ```");
    expect(errorsOf(src)).toEqual([`lab.md:14: a check block's fence starts the line, with no space before it (indented, it is shown as plain code)`]);
    expect(errorsOf(good.replace("Some text.", "1. First this:\n\n   ```sh\n   ls\n   ```"))).toEqual([]);
  });

  it("measures edits as Damerau–Levenshtein: a swap of neighbours is one", () => {
    expect(editDistance("check", "check")).toBe(0);
    expect(editDistance("chek", "check")).toBe(1);
    expect(editDistance("hnit", "hint")).toBe(1);
    expect(editDistance("solutoin", "solution")).toBe(1);
    expect(editDistance("predcit", "predict")).toBe(1);
    expect(editDistance("expcet", "expect")).toBe(1);
    expect(editDistance("ca", "abc")).toBe(2); // a swap, then an insertion between (OSA says 3)
    expect(editDistance("", "vm")).toBe(2);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  it("property: any mutation of a block name within two edits is refused, or read as one of our blocks or a declared language; never silently plain code", () => {
    const BODY: Record<string, string> = {
      vm: "echo hi",
      check: "true",
      expect: "- event: exfat_discard",
      hint: "Look in /tmp.",
      solution: "touch /tmp/x",
      predict: "question: How many?\nactual: echo 1",
      learned: "It did.",
    };
    const ch = fc.constantFrom(..."abcdehiklmnoprstuvxyzACHKMV0123456789-_.,:=;{}[]()#+*/ \t`~'\"é\u00a0ｃ\u2028");
    const edit = fc.oneof(
      fc.record({ op: fc.constant("insert" as const), at: fc.nat(), c: ch }),
      fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
      fc.record({ op: fc.constant("substitute" as const), at: fc.nat(), c: ch }),
      fc.record({ op: fc.constant("transpose" as const), at: fc.nat() }),
    );
    const mutate = (tag: string, edits: Array<{ op: string; at: number; c?: string }>) => {
      const s = [...tag];
      for (const e of edits) {
        const at = s.length ? e.at % (s.length + (e.op === "insert" ? 1 : 0)) : 0;
        if (e.op === "insert") s.splice(at, 0, e.c!);
        else if (!s.length) continue;
        else if (e.op === "delete") s.splice(at, 1);
        else if (e.op === "substitute") s[at] = e.c!;
        else if (s.length > 1) {
          const i = Math.min(at, s.length - 2);
          [s[i], s[i + 1]] = [s[i + 1], s[i]];
        }
      }
      return s.join("");
    };
    fc.assert(
      fc.property(fc.constantFrom(...BLOCK_TAGS), fc.array(edit, { minLength: 1, maxLength: 2 }), (tag, edits) => {
        const info = mutate(tag, edits);
        expect(editDistance(info, tag)).toBeLessThanOrEqual(2);
        // an empty info string is Markdown's plain code block, as every lab writes them
        fc.pre(info.trim() !== "");
        const src = withFence(info, BODY[tag]);
        let lab;
        try {
          lab = parseLab(src, VIEW_IDS, "lab.md");
        } catch (e) {
          expect(e).toBeInstanceOf(LabFormatError);
          // refused where the fence is (or where its block is found to be broken)
          expect((e as LabFormatError).errors.some((x) => x.line >= FENCE_LINE && x.line <= FENCE_LINE + 3), (e as Error).message).toBe(true);
          return;
        }
        const b = lab.steps[0].blocks.find((x) => x.line === FENCE_LINE);
        if (b && b.kind !== "markdown") return; // one of ours (```check with a space before it, say)
        const f = classifyFence(info);
        expect(f.kind, `"${info}" read as plain code`).toBe("code");
        expect(CODE_LANGUAGES as readonly string[], `"${info}" read as plain code without a declared language`).toContain(info.trim().split(/\s/)[0].toLowerCase());
      }),
      { numRuns: 3000 },
    );
  });
});

describe("every error at once", () => {
  it("a lab with three mistakes reports all three, in line order, each with file:line", () => {
    const src = good.replace("time: 5 min", "tme: 5 min").replace("```vm", "```vn").replace("```check", "```check timeout=0");
    let e: LabFormatError | undefined;
    try {
      parseLab(src, VIEW_IDS, "labs/demo/lab.md", "demo");
    } catch (x) {
      e = x as LabFormatError;
    }
    expect(e).toBeInstanceOf(LabFormatError);
    expect(e!.errors.map((x) => [x.line, x.detail.slice(0, 30)])).toEqual([
      [5, 'unknown frontmatter key "tme" '],
      [14, 'no block is called "vn": did y'],
      [18, "a check's timeout is 1 to 600 "],
    ]);
    // the first error is the error itself; the message holds every one, a line each
    expect(e!.line).toBe(5);
    expect(e!.message.split("\n")).toEqual(e!.errors.map((x) => x.message));
    expect(e!.message.split("\n").every((l) => l.startsWith("labs/demo/lab.md:"))).toBe(true);
  });

  it("errors in the frontmatter and in several steps together", () => {
    const src = `---\ntitle: t\nviews: [nope]\nid: Bad\n---\n## One\n\`\`\`expect\n- count: 2\n\`\`\`\n## Two\n\`\`\`predict\nquestion: q\n\`\`\`\n## \n`;
    expect(errorsOf(src).map((m) => m.replace(/ \(known: .*/, ""))).toEqual([
      'lab.md:3: unknown view "nope"',
      'lab.md:4: id "Bad" must be lowercase letters, digits and dashes',
      "lab.md:8: expect: an expectation names an event: or a verdict:, one of the two",
      "lab.md:12: predict: actual: is a shell command written as text (actual: cat /sys/…), or event: and where: to count the kernel's events",
      "lab.md:14: a step heading needs a title",
      'lab.md:14: step "" is empty',
    ]);
  });
});

describe("steps with nothing to check", () => {
  const reading = good.replace("```check\ntest -e /tmp\n```\n", "") + "\n## Read this\n\n<!-- reading -->\n\nJust text.\n";
  it("warn, unless marked as reading; the mark is not shown", () => {
    const lab = parseLab(reading, VIEW_IDS, "lab.md");
    expect(lab.warnings.map((w) => w.message)).toEqual([
      'lab.md:10: step "First step" has nothing to check (no check, expect or predict block): add one, or mark a step the learner only reads with a line <!-- reading -->',
    ]);
    expect(lab.steps[1]).toMatchObject({ title: "Read this", reading: true, blocks: [{ kind: "markdown", text: "Just text." }] });
    expect(parseLab(good, VIEW_IDS).warnings).toEqual([]);
    expect(parseLab(good, VIEW_IDS).steps[0].reading).toBeUndefined();
  });

  it("a step marked as reading that has a check is an error", () => {
    expect(errorsOf(good.replace("Some text.", "<!-- reading -->\nSome text."))).toEqual([
      'lab.md:19: step "First step" is marked as reading (<!-- reading -->) but has a check block: remove one or the other',
    ]);
  });
});
