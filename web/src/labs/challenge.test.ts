// The format's challenge steps, FAIL hints and questions from the learner's run: what an author
// writes, and every mistake named at its line.
import { describe, expect, it } from "vitest";
import { parseLab } from "./lab-format";
import { formatErrors } from "./format-errors";
import { readFileSync } from "node:fs";
import { judgeAnswer, parseQuestion, toleranceText } from "./question";
import { unansweredKeys } from "./step-answers";
import { freshProgress } from "./progress";
import { ANSWERS, VIEW_IDS } from "../topics";
import { nextHint } from "./hints";

const F = "```";
const lab = (steps: string) => `---\ntitle: T\n---\n\n${steps}`;
const SET_UP = `## Set up\n\n${F}vm\nmkdir -p /tmp/x\n${F}\n\n${F}check\ntest -d /tmp/x || { echo "FAIL: no /tmp/x"; exit 1; }\n${F}\n\n`;
// line 14 on: the challenge step
const CHALLENGE = `## Do it alone

<!-- challenge -->

Make /tmp/x/flag say 1.

${F}check
[ -e /tmp/x/flag ] || { echo "FAIL: there is no /tmp/x/flag yet"; exit 1; }
[ "$(cat /tmp/x/flag)" = 1 ] || { echo "FAIL: /tmp/x/flag says $(cat /tmp/x/flag), not 1"; exit 1; }
${F}

${F}hint fail="no /tmp/x/flag yet"
Which command makes a file?
${F}

${F}hint fail='not 1'
What does echo write?
${F}

${F}hint
A general hint.
${F}

${F}solution
echo 1 > /tmp/x/flag
${F}

${F}question
question: How many bytes is your flag?
unit: bytes
answer: stat -c %s /tmp/x/flag
tolerance: 1
${F}
`;

const errors = (src: string): string[] => formatErrors(() => parseLab(src, [], "lab.md"));

describe("challenge steps", () => {
  it("read: the mark, FAIL hints with their text, the question with its answer's source", () => {
    const { steps } = parseLab(lab(SET_UP + CHALLENGE), [], "lab.md");
    expect(steps[0].challenge).toBeUndefined();
    expect(steps[1].challenge).toBe(true);
    const hints = steps[1].blocks.filter((b) => b.kind === "hint");
    expect(hints.map((h) => h.kind === "hint" && h.fail)).toEqual(["no /tmp/x/flag yet", "not 1", undefined]);
    const q = steps[1].blocks.find((b) => b.kind === "question");
    expect(q?.kind === "question" && q.question).toMatchObject({ unit: "bytes", answer: { command: "stat -c %s /tmp/x/flag" }, tolerance: { abs: 1 } });
    expect(q?.line).toBe(42);
  });

  it("refuse a challenge with a Run button, without a check or without a solution, each at its line", () => {
    const withVm = CHALLENGE.replace("Make /tmp/x/flag say 1.", `Make it.\n\n${F}vm\necho 1 > /tmp/x/flag\n${F}`);
    expect(errors(lab(SET_UP + withVm))).toEqual([expect.stringMatching(/^lab\.md:21: step "Do it alone" is a challenge \(<!-- challenge -->\): it has no Run buttons, so no vm block/)]);
    const bare = `## Alone\n\n<!-- challenge -->\n\nDo it.\n\n${F}hint\nThink.\n${F}\n`;
    expect(errors(lab(bare))).toEqual([
      expect.stringMatching(/^lab\.md:5: step "Alone" is a challenge \(<!-- challenge -->\) but has no check or expect block/),
      expect.stringMatching(/^lab\.md:5: step "Alone" is a challenge \(<!-- challenge -->\) but has no solution block: the page offers it after a failed check, and fslab labs test runs it/),
    ]);
    expect(errors(lab(`## R\n\n<!-- reading -->\n<!-- challenge -->\n\n${CHALLENGE.split("<!-- challenge -->")[1]}`))).toEqual([
      expect.stringMatching(/^lab\.md:5: step "R" is marked both as reading and as a challenge/),
      expect.stringMatching(/^lab\.md:\d+: step "R" is marked as reading \(<!-- reading -->\) but has a check block/),
    ]);
    expect(errors(lab(`<!-- challenge -->\n\n${SET_UP}`))).toEqual([expect.stringMatching(/^lab\.md:5: a challenge mark before the first step/)]);
    expect(errors(lab(SET_UP.replace("## Set up\n", "## Set up\n<!-- challenge -->\n<!-- Challenge -->\n")))).toContainEqual(expect.stringMatching(/^lab\.md:7: this step is already marked as a challenge/));
  });

  it("refuse a FAIL hint whose text no FAIL: line of the step prints, and a malformed hint option", () => {
    expect(errors(lab(SET_UP + CHALLENGE.replace('fail="no /tmp/x/flag yet"', 'fail="fifo_batch"')))).toEqual([
      'lab.md:26: hint fail="fifo_batch": no FAIL: line of this step\'s checks contains that text, so the hint would never be offered',
    ]);
    // the text is matched in the FAIL: lines, whatever its case, not elsewhere in the check
    expect(errors(lab(SET_UP + CHALLENGE.replace('fail="no /tmp/x/flag yet"', 'fail="There is NO"')))).toEqual([]);
    expect(errors(lab(SET_UP + CHALLENGE.replace('fail="no /tmp/x/flag yet"', 'fail="cat /tmp/x/flag)" = 1')))).toHaveLength(1);
    expect(errors(lab(SET_UP + CHALLENGE.replace('fail="no /tmp/x/flag yet"', "fail=nothing")))).toEqual([
      expect.stringMatching(/^lab\.md:26: a hint fence takes only fail="<text of a FAIL: line>"/),
    ]);
    expect(errors(lab(SET_UP + CHALLENGE.replace('fail="no /tmp/x/flag yet"', 'fail=" "')))).toEqual([expect.stringMatching(/^lab\.md:26: hint fail="": give a piece/)]);
    const noFails = `## S\n\n${F}check\ntest -e /x\n${F}\n\n${F}hint fail="x"\nh\n${F}\n`;
    expect(errors(lab(noFails))).toEqual([expect.stringMatching(/lab\.md:11: .*\(the step's checks print no FAIL: line\)$/)]);
  });

  it("refuse a question in a step with nothing to say when its run is done, and a malformed one at its line", () => {
    const q = `## Q\n\n<!-- reading -->\n\n${F}question\nquestion: How many?\nanswer: cat /x\n${F}\n`;
    expect(errors(lab(q))).toEqual([expect.stringMatching(/^lab\.md:9: a question is answered from the learner's run once the step passes: step "Q" needs a check or expect block/)]);
    const bad = (body: string) => errors(lab(SET_UP + CHALLENGE.replace("tolerance: 1", body)));
    expect(bad("tolerance: lots")).toEqual([expect.stringMatching(/^lab\.md:46: question: tolerance: is a number \(2: the answer give or take 2\) or a percentage/)]);
    expect(bad("tolerance: 100%")).toEqual([expect.stringMatching(/^lab\.md:46: question: tolerance: 100% would take almost any answer/)]);
    expect(bad("actual: cat /x")).toEqual([expect.stringMatching(/^lab\.md:46: question: a question's right answer is written after answer:, not actual:/)]);
    expect(errors(lab(SET_UP + CHALLENGE.replace("answer: stat -c %s /tmp/x/flag\n", "")))).toEqual([expect.stringMatching(/^lab\.md:43: question: answer: says where the right answer comes from.*never a constant/)]);
    expect(errors(lab(SET_UP + CHALLENGE.replace("answer: stat -c %s /tmp/x/flag", "answer: { command: cat /x }")))).toEqual([
      expect.stringMatching(/^lab\.md:45: question: answer: takes event:, where:, since: and sum: .* not command:; a shell command is written as text after answer: itself/),
    ]);
    expect(errors(lab(SET_UP + CHALLENGE.replace("```question", "```questoin")))).toEqual([expect.stringMatching(/^lab\.md:42: no block is called "questoin": did you mean `question`\?/)]);
  });
});

describe("questions judged against the learner's own run", () => {
  const q = (yaml: string) => {
    const r = parseQuestion(yaml);
    if ("error" in r) throw new Error(r.error);
    return r.question;
  };

  it("judge a number within its tolerance: exact by default, give or take N, or within a percentage", () => {
    const exact = q("question: n?\nanswer: cat /n\n");
    expect(toleranceText(exact)).toBe("exactly");
    expect(judgeAnswer(exact, "12", "12")).toBe(true);
    expect(judgeAnswer(exact, "13", "12")).toBe(false);
    const two = q("question: n?\nanswer: cat /n\ntolerance: 2\n");
    expect([judgeAnswer(two, "10", "12"), judgeAnswer(two, "9", "12"), judgeAnswer(two, "14", "12")]).toEqual([true, false, true]);
    const pct = q("question: n?\nanswer:\n  event: exfat_discard\ntolerance: 10%\n");
    expect(toleranceText(pct)).toBe("within 10%");
    expect([judgeAnswer(pct, "90", "100"), judgeAnswer(pct, "89", "100"), judgeAnswer(pct, "0", "0"), judgeAnswer(pct, "1", "0")]).toEqual([true, false, true, false]);
  });

  it("judge each learner against their own run: the same answer is right for one run and wrong for another", () => {
    const starved = q("question: How many times were writes forced?\nanswer:\n  event: dd_dispatch_request\n  where: { because: starved }\ntolerance: 1\n");
    expect(judgeAnswer(starved, "7", "7")).toBe(true);
    expect(judgeAnswer(starved, "7", "3")).toBe(false);
  });

  it("judge a choice by its exact text, and refuse a tolerance beside choices", () => {
    const c = q("question: Which?\nchoices: [reads, writes]\nanswer: cat /w\n");
    expect(judgeAnswer(c, "writes", "writes")).toBe(true);
    expect(judgeAnswer(c, "reads", "writes")).toBe(false);
    expect(parseQuestion("question: Which?\nchoices: [a, b]\nanswer: cat /w\ntolerance: 1\n")).toMatchObject({ error: expect.stringMatching(/tolerance: goes with a number/), line: 4 });
  });
});

describe("figures a view holds back until the question asking for them is answered", () => {
  it("name every keyed question not answered yet, in any step, and none once each is", () => {
    const src = readFileSync(new URL("../../../labs/f2fs-clue/lab.md", import.meta.url), "utf8");
    const clue = parseLab(src, VIEW_IDS, "labs/f2fs-clue/lab.md", "f2fs-clue", { answers: ANSWERS });
    const p = freshProgress("f2fs-clue", "h", "g", clue.steps.map((s) => s.title));
    const models = () => unansweredKeys(clue.steps, p).map((k) => k.model);
    // the keyed predictions too, until each is made
    expect(models()).toEqual(["f2fs.create-nat-scans", "f2fs.nids-scanned", "f2fs.run-nids-scanned", "f2fs.valid-nids"]);
    // "The NAT on disk" answered (right or wrong: a keyed question stands once answered)
    const nat = clue.steps.findIndex((s) => s.title === "The NAT on disk");
    p.steps[nat].questions = [{ question: "q", answer: "1", actual: "", key: "9", right: false, at: 1 }];
    expect(models()).toEqual(["f2fs.create-nat-scans", "f2fs.nids-scanned", "f2fs.run-nids-scanned"]);
    // a prediction made (before any measurement or after) holds its figure no longer
    for (const [i, s] of clue.steps.entries())
      if (s.blocks.some((b) => b.kind === "predict")) p.steps[i].predictions = s.blocks.filter((b) => b.kind === "predict").map(() => ({ question: "q", guess: "1", at: 1 }));
    expect(models()).toEqual(["f2fs.create-nat-scans"]);
    // with the block's parameters, as the lab's templates filled them in
    const asked = clue.steps.flatMap((s) => s.blocks).flatMap((b) => (b.kind === "question" && b.question.key?.model === "f2fs.create-nat-scans" ? [b.question.key] : []));
    const askedIn = clue.steps.findIndex((s) => s.blocks.some((b) => b.kind === "question" && b.question.key?.model === "f2fs.create-nat-scans"));
    expect(unansweredKeys(clue.steps, p)).toEqual([{ model: "f2fs.create-nat-scans", params: asked[0].params, step: askedIn + 1 }]);
    // a question without a key holds nothing: its answer is the learner's own run
    const plain = parseLab(lab(`${SET_UP}${F}question\nquestion: n?\nanswer: cat /n\n${F}\n`), [], "lab.md");
    expect(unansweredKeys(plain.steps, freshProgress("t", "h", "g", plain.steps.map((s) => s.title)))).toEqual([]);
  });
});

describe("hints that answer a FAIL line", () => {
  const { steps } = parseLab(lab(SET_UP + CHALLENGE), [], "lab.md");
  const step = steps[1];

  it("offer the hint for the FAIL line the learner got, before the general one; none for a line not printed", () => {
    expect(nextHint(step, [], [])).toBe(2); // no failure yet: only the general hint
    expect(nextHint(step, [], ["there is no /tmp/x/flag yet"])).toBe(0);
    expect(nextHint(step, [0], ["there is no /tmp/x/flag yet"])).toBe(2);
    expect(nextHint(step, [], ["/tmp/x/flag says 2, NOT 1"])).toBe(1);
    expect(nextHint(step, [1, 2], ["there is no /tmp/x/flag yet"])).toBe(0);
    expect(nextHint(step, [0, 2], ["there is no /tmp/x/flag yet"])).toBeNull();
  });
});

describe("a prediction in a challenge step", () => {
  it("needs no vm block after it: the learner's own commands are the measurement", () => {
    const withPredict = CHALLENGE.replace("Make /tmp/x/flag say 1.", `Make /tmp/x/flag say 1.\n\n${F}predict\nquestion: How many bytes?\nactual: stat -c %s /tmp/x/flag\n${F}`);
    expect(errors(lab(SET_UP + withPredict))).toEqual([]);
    // elsewhere it still does
    const plain = SET_UP.replace("## Set up\n", `## Set up\n\n${F}predict\nquestion: n?\nactual: cat /n\n${F}\n`).replace(`${F}vm\nmkdir -p /tmp/x\n${F}\n`, "");
    expect(errors(lab(plain))).toEqual([expect.stringMatching(/^lab\.md:7: a predict block comes before the measurement it asks about/)]);
  });
});
