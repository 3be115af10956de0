import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freshProgress } from "./progress";
import { gradebook, parseExport, progressExport, reportRow, reportText, scoreOf, sha256Hex } from "./report";
import { parseLab, type LabStep } from "./lab-format";

const repo = fileURLToPath(new URL("../../../", import.meta.url));

function sample(lab = "exfat-discard", hash = "a".repeat(64)) {
  const p = freshProgress(lab, hash, "bc8c60861eae-219863fe30d8", ["A volume that discards", "Watch the kernel do it"]);
  p.startedAt = Date.UTC(2026, 10, 23, 9, 0);
  p.steps[0] = { ...p.steps[0], passedAt: Date.UTC(2026, 10, 23, 9, 5), attempts: 2, autoChecks: 7, hintsShown: 1, openMs: 300_000, lastResult: "pass", lastOutput: "" };
  p.steps[1] = {
    ...p.steps[1],
    skippedAt: Date.UTC(2026, 10, 23, 9, 9),
    attempts: 1,
    solutionShown: true,
    openMs: 120_000,
    lastResult: "fail",
    lastOutput: "FAIL: batch_discard is still 0",
    predictions: [
      { question: "batch_discard 0?", guess: "64", actual: "64", at: 1 },
      { question: "batch_discard 1?", guess: "16", actual: "4", at: 2 },
      null,
    ],
  };
  return progressExport(p, "exFAT: why deleting a big file used to take minutes", Date.UTC(2026, 10, 23, 9, 10));
}

describe("progress files", () => {
  it("round-trip: each step's result, times, attempts, hints, solution and check output", () => {
    const x = sample();
    const back = parseExport(JSON.stringify(x));
    expect(back).toEqual(x);
    expect(x.steps.map((s) => s.result)).toEqual(["passed", "skipped"]);
    expect(x.steps[1]).toMatchObject({ solutionShown: true, lastOutput: "FAIL: batch_discard is still 0", skippedAt: "2026-11-23T09:09:00.000Z" });
    expect(x.steps[1].predictions).toEqual([
      { question: "batch_discard 0?", guess: "64", actual: "64" },
      { question: "batch_discard 1?", guess: "16", actual: "4" },
    ]);
  });

  it("count the open step's time up to the download, not only its closed visits", () => {
    const p = freshProgress("exfat-discard", "a".repeat(64), "g", ["One", "Two"]);
    p.steps[0].openMs = 60_000; // closed: counted already
    p.steps[1].openMs = 5_000; // an earlier visit; open again now, for 10.4 s
    const x = progressExport(p, "t", Date.UTC(2026, 0, 1), { step: 1, ms: 10_400 });
    expect(x.steps.map((s) => s.openSeconds)).toEqual([60, 15]);
    // a step just opened has seconds too, not 0
    const q = freshProgress("exfat-discard", "a".repeat(64), "g", ["One"]);
    expect(progressExport(q, "t", 0, { step: 0, ms: 10_000 }).steps[0].openSeconds).toBe(10);
    expect(progressExport(q, "t", 0).steps[0].openSeconds).toBe(0);
  });

  it.each([
    ["not json", /not JSON/],
    ['{"format":"other"}', /not a progress file of format fslab-progress\/1/],
    [JSON.stringify({ ...sample(), lab: 3 }), /"lab" is missing/],
    [JSON.stringify({ ...sample(), steps: [{ title: "x", result: "done" }] }), /step 1 is not a step record/],
    [JSON.stringify({ ...sample(), steps: sample().steps.map((s) => ({ ...s, predictions: [{ question: "q", guess: 3 }] })) }), /step 1's predictions are not a list/],
  ])("refuse %s with the reason", (text, msg) => {
    const r = parseExport(text);
    expect("error" in r && r.error).toMatch(msg);
  });

  it("make one row per file, marking another version of the lab", () => {
    const row = reportRow("ann.json", sample(), "b".repeat(64));
    expect(row).toMatchObject({ learner: null, passed: 1, alone: 1, withSolution: 0, skipped: 1, steps: 2, attempts: 3, hints: 1, solutions: 1, minutes: 7, predicted: 2, near: 1, questions: 0 });
    expect(row.otherVersion).toBe(`lab file ${"a".repeat(12)}, this one ${"b".repeat(12)}`);
    expect(reportRow("ann.json", sample(), "a".repeat(64)).otherVersion).toBeUndefined();
    const text = reportText([row]).split("\n");
    expect(text[0]).toMatch(/^learner\s+file\s+lab\s+passed\s+skipped\s+alone\s+with solution\s+challenges alone\s+attempts\s+hints\s+minutes\s+predictions near\s+questions right/);
    expect(text[1]).toMatch(/^-\s+ann\.json\s+exfat-discard\s+1\/2\s+1\s+1\s+0\s+-\s+3\s+1\s+7\s+1\/2\s+-\s+-\s+2026-11-23 09:10\s+another version of the lab/);
  });

  it("carry the learner's name, each challenge step, each question judged, and read them back", () => {
    const F = "```";
    const lab = parseLab(
      `---\ntitle: T\n---\n\n## Set up\n\n${F}vm\ntrue\n${F}\n\n${F}check\ntrue\n${F}\n\n## Alone\n\n<!-- challenge -->\n\nDo it.\n\n${F}check\ntrue\n${F}\n\n${F}solution\ntrue\n${F}\n\n` +
        `${F}question\nquestion: How many?\nanswer: cat /n\n${F}\n\n${F}question\nquestion: Which?\nchoices: [a, b]\nanswer: cat /w\n${F}\n`,
      [],
    );
    const p = freshProgress("t", "a".repeat(64), "g", ["Set up", "Alone"]);
    p.steps[0].passedAt = 1;
    p.steps[1] = { ...p.steps[1], passedAt: 2, solutionShown: true, questions: [{ question: "How many?", answer: "7", actual: "9", right: false, at: 3 }], questionTries: [2] };
    const x = progressExport(p, "T", 0, undefined, { steps: lab.steps, learner: "  s1234 Ann  " });
    expect(x.learner).toBe("s1234 Ann");
    expect(x.steps[0].challenge).toBeUndefined();
    expect(x.steps[1]).toMatchObject({
      challenge: true,
      questions: [
        { question: "How many?", answer: "7", actual: "9", right: false, tries: 2 },
        { question: "Which?", answer: null, actual: null, right: false, tries: 0 },
      ],
    });
    expect(parseExport(JSON.stringify(x))).toEqual(x);
    expect(reportRow("f.json", x)).toMatchObject({ learner: "s1234 Ann", alone: 1, withSolution: 1, challenges: 1, challengesAlone: 0, questions: 2, questionsRight: 0 });
    expect(parseExport(JSON.stringify({ ...x, learner: "" }))).toEqual({ error: '"learner" is not a name' });
    expect(parseExport(JSON.stringify({ ...x, steps: [x.steps[0], { ...x.steps[1], questions: [{ question: "q", answer: 7 }] }] }))).toMatchObject({ error: expect.stringMatching(/step 2's questions are not a list/) });
    // no name given: none in the file
    expect(progressExport(p, "T", 0, undefined, { steps: lab.steps }).learner).toBeUndefined();
  });

  it("make a gradebook: one row per learner, one column group per lab, the newest file of each", () => {
    const file = (learner: string | undefined, lab: string, at: number, passed: boolean, solution = false) => {
      const p = freshProgress(lab, "a".repeat(64), "g", ["One", "Two"]);
      if (passed) p.steps[0] = { ...p.steps[0], passedAt: 1, solutionShown: solution };
      p.steps[1].skippedAt = 2;
      return reportRow(`${learner ?? "anon"}-${lab}-${at}.json`, progressExport(p, lab, at, undefined, { learner }));
    };
    const rows = [file("bob", "mq-deadline", 5, true, true), file("ann", "exfat-discard", 1, false), file("ann", "exfat-discard", 9, true), file("ann", "mq-deadline", 3, true), file(undefined, "mq-deadline", 4, true)];
    const g = gradebook(rows);
    const lines = g.csv.trim().split("\n");
    const groups = (lab: string) => ["passed alone", "passed with solution", "skipped", "steps", "questions right", "questions", "code agrees", "code steps", "code last failure", "score", "score max"].map((c) => `${lab} ${c}`);
    expect(lines[0]).toBe(["learner", ...groups("exfat-discard"), ...groups("mq-deadline")].join(","));
    // the score: a step passed alone, a question right, a code step agreeing, of the steps, questions and code steps
    expect(lines.slice(1)).toEqual([
      "(no name: anon-mq-deadline-4.json),,,,,,,,,,,,1,0,1,2,0,0,0,0,,1,2",
      "ann,1,0,1,2,0,0,0,0,,1,2,1,0,1,2,0,0,0,0,,1,2",
      "bob,,,,,,,,,,,,0,1,1,2,0,0,0,0,,0,2",
    ]);
    // ann's older exfat-discard file is not in the gradebook, and the report says so
    expect(g.dropped.map((r) => r.file)).toEqual(["ann-exfat-discard-1.json"]);
  });

  it("fslab labs report reads a class's folder: the current lab's hash, another version marked, a bad file named", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fslab-report-"));
    const hash = await sha256Hex(readFileSync(join(repo, "labs/exfat-discard/lab.md"), "utf8"));
    writeFileSync(join(dir, "ann.json"), JSON.stringify(sample("exfat-discard", hash)));
    writeFileSync(join(dir, "bob.json"), JSON.stringify(sample("exfat-discard", "c".repeat(64))));
    writeFileSync(join(dir, "eve.json"), "{ not json");
    mkdirSync(join(dir, "sub"));
    const r = spawnSync(process.execPath, [join(repo, "bin/fslab.mjs"), "labs", "report", dir], { encoding: "utf8", cwd: repo });
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/ann\.json\s+exfat-discard\s+1\/2/);
    expect(lines[1]).not.toMatch(/another version/);
    expect(lines[2]).toMatch(/bob\.json.*another version of the lab \(lab file cccccccccccc/);
    expect(r.stderr).toMatch(/eve\.json: not JSON/);
    expect(r.stderr).toMatch(/2 progress files, 1 for another version of its lab, 1 unreadable/);
    const csv = spawnSync(process.execPath, [join(repo, "bin/fslab.mjs"), "labs", "report", "--csv", join(dir, "ann.json")], { encoding: "utf8", cwd: repo });
    expect(csv.status).toBe(0);
    expect(csv.stdout.split("\n")[0]).toBe("learner,exfat-discard passed alone,exfat-discard passed with solution,exfat-discard skipped,exfat-discard steps,exfat-discard questions right,exfat-discard questions,exfat-discard code agrees,exfat-discard code steps,exfat-discard code last failure,exfat-discard score,exfat-discard score max");
    expect(csv.stdout.split("\n")[1]).toBe(`(no name: ${join(dir, "ann.json")}),1,0,1,2,0,0,0,0,,1,2`);
    expect(csv.stderr).toMatch(/1 file without the learner's name or ID: each is its own learner, named by its file/);
  });
});

describe("a seeded lab's report", () => {
  /** a progress file for exfat-discard's keyed question (step 5), answered `answer`, for `identity` */
  const QUESTION = "Had you made `scattered` the same way but 8 KiB at a time, with 4 KiB of the other file still between two appends, how many discard requests would its delete cost with `batch_discard` at 1?";
  const fileFor = (learner: string, identity: string, answer: string, right: boolean) => {
    const title = "A file batching cannot help";
    const p = freshProgress("exfat-discard", "a".repeat(64), "g", [title]);
    p.identity = identity;
    p.steps[0] = { ...p.steps[0], passedAt: 1, questions: [{ question: QUESTION, answer, actual: answer, right, at: 1 }], questionTries: [1] };
    return progressExport(p, "exfat-discard", 5, undefined, { learner, steps: [{ title, line: 1, blocks: [{ kind: "question", text: "", line: 1, question: { question: QUESTION, tolerance: { abs: 0 }, line: 1 } }] }] });
  };

  it("fslab labs report grades each learner against their own key, and marks answers copied across different problems", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fslab-report-seed-"));
    const key = (who: string) => {
      const r = spawnSync(process.execPath, [join(repo, "bin/fslab.mjs"), "labs", "key", "exfat-discard", "--learner", who, "--json"], { encoding: "utf8", cwd: repo });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout).answers.find((a: { kind: string }) => a.kind === "question").expected as string;
    };
    const [ann, bob] = [key("ann"), key("bob")];
    expect(ann).not.toBe(bob); // their problems differ
    // ann answered her key (her file even says wrong: the report does not trust it); bob copied ann's
    writeFileSync(join(dir, "ann.json"), JSON.stringify(fileFor("ann", "ann", ann, false)));
    writeFileSync(join(dir, "bob.json"), JSON.stringify(fileFor("bob", "bob", ann, true)));
    const r = spawnSync(process.execPath, [join(repo, "bin/fslab.mjs"), "labs", "report", dir], { encoding: "utf8", cwd: repo });
    expect(r.status, r.stderr).toBe(0);
    const line = (who: string) => r.stdout.split("\n").find((l) => l.startsWith(who))!;
    expect(line("ann")).toMatch(/\s1\/1\s/);
    expect(line("bob")).toMatch(/\s0\/1\s/);
    expect(line("bob")).toMatch(/same answers as ann, whose problem differs/);
    expect(line("ann")).toMatch(/same answers as bob, whose problem differs/);
  });

  it("marks a prediction made after measuring", () => {
    const p = freshProgress("exfat-discard", "a".repeat(64), "g", ["One"]);
    p.steps[0].predictions = [{ question: "How many?", guess: "5", actual: "5", at: 1, afterMeasuring: true }];
    const x = progressExport(p, "T", 2);
    expect(parseExport(JSON.stringify(x))).toEqual(x);
    expect(reportText([reportRow("f.json", x)])).toMatch(/1 prediction made after measuring/);
  });
});

describe("a code step", () => {
  it("is counted in the report and the gradebook: agreeing at its last grade, and the grades it took", () => {
    const p = freshProgress("mq-deadline", "a".repeat(64), "g", ["One", "Two", "Three"]);
    const last = (kind: "agree" | "diverge") => ({ kind, lines: [], at: 1, messages: [] });
    p.steps[1].code = { text: "int f(void) { return 1; }", grades: 3, last: last("diverge"), lastFailure: "decision 5 of 9: your function chose otherwise" };
    p.steps[2].code = { text: "int g(void) { return 2; }", grades: 2, last: last("agree"), lastFailure: "g.c:1: error: 'x' undeclared" };
    const x = progressExport(p, "mq-deadline", 5, undefined, { learner: "ann" });
    expect(parseExport(JSON.stringify(x))).toEqual(x);
    const row = reportRow("ann.json", x);
    expect(row).toMatchObject({ code: 2, codeAgreed: 1, codeGrades: 5 });
    expect(reportText([row])).toMatch(/code agrees[\s\S]*1\/2 \(5 grades\)/);
    // the last failing grade of each, though step 3's function agrees now
    expect(reportText([row])).toMatch(/last failing grade: step 2: decision 5 of 9: your function chose otherwise; step 3: g\.c:1: error: 'x' undeclared/);
    expect(gradebook([row]).csv.trim().split("\n")[1]).toBe("ann,0,0,0,3,0,0,1,2,step 2: decision 5 of 9: your function chose otherwise; step 3: g.c:1: error: 'x' undeclared,1,5");
    // a code record that is not one is refused by name
    const bad = JSON.parse(JSON.stringify(x));
    bad.steps[1].code.grades = "3";
    expect(parseExport(JSON.stringify(bad))).toEqual({ error: "step 2's code is not the learner's text, grades, verdict and last failure" });
  });
});

describe("the last hint", () => {
  it("is marked in the file and the report when opened", () => {
    const p = freshProgress("x", "a".repeat(64), "g", ["One", "Two"]);
    p.steps[0].hintsSeen = [1];
    p.steps[0].hintsShown = 1;
    p.steps[1].hintsSeen = [0];
    p.steps[1].hintsShown = 1;
    const hint = (text: string) => ({ kind: "hint" as const, text, line: 1 });
    const steps = [
      { title: "One", line: 1, blocks: [hint("idea"), hint("the command")] },
      { title: "Two", line: 2, blocks: [hint("idea"), hint("where to look"), hint("the command")] },
    ];
    const x = progressExport(p, "T", 3, undefined, { steps });
    expect(x.steps.map((s) => s.lastHint ?? false)).toEqual([true, false]);
    expect(parseExport(JSON.stringify(x))).toEqual(x);
    expect(reportText([reportRow("f.json", x)])).toMatch(/last hint opened in 1 step/);
  });
});

describe("a progress file from anywhere", () => {
  it("is read or refused with a reason, never thrown on, and what is read makes a report row", () => {
    const base = () => {
      const p = freshProgress("mq-deadline", "a".repeat(64), "g", ["One", "Two"]);
      p.steps[1].code = { text: "int f(void) { return 1; }", grades: 1, last: { kind: "diverge", lines: ["decision 1 of 2"], at: 1 }, lastFailure: "decision 1 of 2" };
      return JSON.parse(JSON.stringify(progressExport(p, "mq-deadline", 5, undefined, { learner: "ann" })));
    };
    const paths = [["steps", 1, "code"], ["steps", 1, "code", "grades"], ["steps", 1, "code", "verdict"], ["steps", 1, "code", "lastFailure"], ["steps", 0, "questions"], ["steps", 0], ["steps"], ["learner"]];
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue(), (path, value) => {
        const x = base();
        let o = x;
        for (const k of path.slice(0, -1)) o = o[k];
        o[path[path.length - 1]] = value;
        const r = parseExport(JSON.stringify(x));
        if ("error" in r) expect(r.error).toMatch(/\w/);
        else expect(() => reportText([reportRow("f.json", r)])).not.toThrow();
      }),
      { numRuns: 400 },
    );
  });

  it("leaves a reading step out of the steps to pass, and so out of the score", () => {
    const p = freshProgress("x", "a".repeat(64), "g", ["One", "Two", "Read"]);
    p.steps[0].passedAt = 1;
    p.steps[1].passedAt = 2;
    const steps = [{ title: "One", blocks: [] }, { title: "Two", blocks: [] }, { title: "Read", blocks: [], reading: true }] as unknown as LabStep[];
    const row = reportRow("f", progressExport(p, "X", 3, undefined, { steps }));
    expect([row.passed, row.steps]).toEqual([2, 2]);
    expect(scoreOf(row)).toEqual({ raw: 2, max: 2 });
    expect(parseExport(JSON.stringify({ ...progressExport(p, "X", 3, undefined, { steps }), steps: [{ ...progressExport(p, "X", 3).steps[0], reading: "yes" }] }))).toEqual({ error: "step 1's reading is not true or false" });
  });
});
