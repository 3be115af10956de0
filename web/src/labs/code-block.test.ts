// The lab format's code steps (code-block.ts): what a code block needs around it, and the
// compiler's messages read back to their lines.
import { describe, expect, it } from "vitest";
import { parseLab } from "./lab-format";
import { formatErrors } from "./format-errors";
import { codeStepOf, compileMessages } from "./code-grade";
import { GRADERS, VIEW_IDS } from "../topics";

const fence = "```";
const lab = (step: string) => `---
id: demo
title: A demo
summary: Shows a code step.
topics: [block]
---

## Write it
${step}
`;
const code = (info = 'file="/root/f.c" grader="blk.dd-dispatch"') => `${fence}code ${info}\nint f(void) { return 0; }\n${fence}\n`;
const workload = `${fence}workload\nfio --name=x\n${fence}\n`;
const solution = `${fence}solution\nint f(void) { return 1; }\n${fence}\n`;

const errors = (src: string): string[] => formatErrors(() => parseLab(src, VIEW_IDS, "lab.md", undefined, { graders: GRADERS }));

describe("a code step", () => {
  it("reads the file, the grader, the starter, its workload and its reference", () => {
    const l = parseLab(lab(code() + workload + solution), VIEW_IDS, "lab.md", undefined, { graders: GRADERS });
    const c = codeStepOf(l.steps[0])!;
    expect(c.code).toEqual({ file: "/root/f.c", grader: "blk.dd-dispatch", starter: "int f(void) { return 0; }\n" });
    expect(c.workload).toBe("fio --name=x");
    expect(c.solution).toBe("int f(void) { return 1; }\n");
    expect(l.warnings).toEqual([]); // a code step has something to check: its grade
  });

  it("needs a workload and a solution beside it, and one code block", () => {
    expect(errors(lab(code() + solution))).toEqual([expect.stringMatching(/lab\.md:9: a code block needs a workload block/)]);
    expect(errors(lab(code() + workload))).toEqual([expect.stringMatching(/a code block needs a solution block/)]);
    expect(errors(lab(code() + code() + workload + solution))[0]).toMatch(/has a code block already \(line 9\)/);
    expect(errors(lab(workload + "```check\ntrue\n```\n"))[0]).toMatch(/a workload block is what a code step's grading runs/);
    expect(errors(lab(code() + workload + solution + "```check\ntrue\n```\n```shortcut\ntrue\n```\n"))[0]).toMatch(/a code step's outcome is its grade/);
  });

  it("refuses a check or an expect block beside the code, which the page would never run", () => {
    const e = errors(lab(code() + workload + solution + "```check\ntrue\n```\n```expect\n- event: block_rq_issue\n```\n"));
    expect(e).toEqual([expect.stringMatching(/its check block would never run/), expect.stringMatching(/its expect block would never run/)]);
  });

  it("refuses a bad file, an unknown grader and stray options, at the fence's line", () => {
    expect(errors(lab(code('file="root/f.c" grader="blk.dd-dispatch"')))[0]).toMatch(/^lab\.md:9: code: file= is the learner's C file/);
    expect(errors(lab(code('file="/root/my file.c" grader="blk.dd-dispatch"')))[0]).toMatch(/file= is/);
    expect(errors(lab(code('file="/root/f.c"')))[0]).toMatch(/grader= names a topic's grader/);
    expect(errors(lab(code('file="/root/f.c" grader="blk.nope"') + workload + solution))[0]).toMatch(new RegExp(`no topic declares a grader "blk.nope" \\(known: ${GRADERS.map((g) => g.id).join(", ").replace(/\./g, "\\.")}\\)`));
    expect(errors(lab(code('file="/root/f.c" grader="blk.dd-dispatch" lang="c"')))[0]).toMatch(/no option lang/);
    expect(errors(lab(code("file=/root/f.c")))[0]).toMatch(/a code fence takes file=/);
  });
});

describe("compileMessages", () => {
  it("reads tcc's FILE:LINE messages, lines only for the learner's file", () => {
    const log = [
      "/root/dd_dispatch.c:12: warning: assignment makes integer from pointer without a cast",
      "In file included from /root/dd_dispatch.c:2:",
      "include/fslab/blk.h:40: error: ';' expected (got \"}\")",
      "/root/dd_dispatch.c:31: error: 'nxt' undeclared",
      "tcc: error: undefined symbol 'helper'",
    ].join("\n");
    expect(compileMessages(log, "/root/dd_dispatch.c")).toEqual([
      { line: 12, severity: "warning", message: "assignment makes integer from pointer without a cast" },
      { line: null, severity: "error", message: "include/fslab/blk.h:40: ';' expected (got \"}\")" },
      { line: 31, severity: "error", message: "'nxt' undeclared" },
      { line: null, severity: "error", message: "undefined symbol 'helper'" },
    ]);
  });
});
