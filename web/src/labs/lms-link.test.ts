// What the lab page tells an LMS (lms-link.ts) is what `fslab labs report` grades from the same
// progress: the score is the gradebook's score columns, each answered question an interaction
// with the learner's answer, their key and the verdict; the LMS's pointer reopens the learner's
// step and marks the steps it says passed; a pointer that is not this lab's is left alone, said.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseLab } from "./lab-format";
import { freshProgress } from "./progress";
import { gradebook, progressExport, reportRow } from "./report";
import { applyLms, reportToLms, type LmsLink } from "./lms-link";
import { suspendDataOf, type LmsReport } from "./scorm";
import { VIEW_IDS } from "../topics";

const source = readFileSync(new URL("../../../labs/sd-card/lab.md", import.meta.url), "utf8");
const lab = parseLab(source, VIEW_IDS, "labs/sd-card/lab.md", "sd-card");

/** a link whose session keeps what it was told */
const link = (suspend = ""): LmsLink & { told: LmsReport[] } => {
  const told: LmsReport[] = [];
  return { lab: "sd-card", version: "1.2", learnerId: "s-1001", learnerName: "", suspend, session: { report: (r) => void told.push(r), finish: () => undefined }, told };
};

describe("what the LMS is told", () => {
  it("is the score the gradebook gives the same progress, and each answered question", () => {
    const p = freshProgress("sd-card", "h", "g", lab.steps.map((s) => s.title));
    p.identity = "s-1001";
    p.steps[0].passedAt = 1;
    p.steps[1].passedAt = 2;
    p.steps[1].solutionShown = true; // passed with the solution: no point
    p.steps[2].passedAt = 3;
    const k = lab.steps[2].blocks.findIndex((b) => b.kind === "question");
    expect(k).toBeGreaterThanOrEqual(0);
    p.steps[2].questions = [{ question: "When the kernel reads *your* card's last 4 KiB, what address does its read command carry, in decimal?", answer: "212992", actual: "212992", key: "212992", right: true, at: 4 }];
    p.step = 3;
    const l = link();
    reportToLms(l, p, lab, 0, 60_000);
    const r = l.told[0];
    const csv = gradebook([reportRow("f", progressExport(p, lab.meta.title, 60_000, undefined, { steps: lab.steps, learner: "s-1001" }))]).csv.trim().split("\n");
    const col = (name: string) => csv[1].split(",")[csv[0].split(",").indexOf(`sd-card ${name}`)];
    expect([String(r.score.raw), String(r.score.max)]).toEqual([col("score"), col("score max")]);
    expect(r.score).toEqual({ raw: 3, max: lab.steps.filter((s) => !s.reading).length + 1 });
    expect(r.interactions).toEqual([{ id: "s3-q1", description: "When the kernel reads *your* card's last 4 KiB, what address does its read command carry, in decimal?", answer: "212992", expected: "212992", correct: true }]);
    expect(r.complete).toBe(false);
    expect(r.location).toBe("step-4");
    expect(JSON.parse(r.suspend)).toEqual({ v: 1, lab: "sd-card", step: 3, passed: [0, 1, 2] });
    expect(r.sessionSeconds).toBe(60);
  });

  it("the LMS's pointer reopens the learner's step; another lab's is left alone, and said", () => {
    const before = freshProgress("sd-card", "h", "g", lab.steps.map((s) => s.title));
    before.steps[0].passedAt = 1;
    before.steps[1].passedAt = 2;
    before.step = 2;
    const p = freshProgress("sd-card", "h", "g", lab.steps.map((s) => s.title));
    expect(applyLms(p, lab, link(suspendDataOf(before)))).toBe("Your LMS says you had reached step 3: the lab opens there.");
    expect([p.identity, p.step, p.steps.map((s) => !!s.passedAt)]).toEqual(["s-1001", 2, [true, true, false, false, false]]);
    const q = freshProgress("sd-card", "h", "g", lab.steps.map((s) => s.title));
    expect(applyLms(q, lab, link(suspendDataOf({ ...before, lab: "exfat-discard" })))).toMatch(/another lab's \("exfat-discard"\): it is left as it was/);
    expect([q.identity, q.step]).toEqual(["s-1001", 0]);
  });
});
