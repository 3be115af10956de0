import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freshProgress } from "./progress";
import { parseExport, progressExport, reportCsv, reportRow, reportText, sha256Hex } from "./report";

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

  it("make one row per learner, marking another version of the lab", () => {
    const row = reportRow("ann.json", sample(), "b".repeat(64));
    expect(row).toMatchObject({ passed: 1, skipped: 1, steps: 2, attempts: 3, hints: 1, solutions: 1, minutes: 7, predicted: 2, near: 1 });
    expect(row.otherVersion).toBe(`lab file ${"a".repeat(12)}, this one ${"b".repeat(12)}`);
    expect(reportRow("ann.json", sample(), "a".repeat(64)).otherVersion).toBeUndefined();
    const text = reportText([row]).split("\n");
    expect(text[0]).toMatch(/^file\s+lab\s+passed\s+skipped\s+attempts/);
    expect(text[1]).toMatch(/^ann\.json\s+exfat-discard\s+1\/2\s+1\s+3\s+1\s+1\s+7\s+1\/2\s+2026-11-23 09:10\s+another version of the lab/);
    expect(reportCsv([row]).split("\n")[1]).toBe(`ann.json,exfat-discard,1,2,1,3,1,1,7,2,1,2026-11-23T09:10:00.000Z,lab file ${"a".repeat(12)}, this one ${"b".repeat(12)}`.replace(/,lab file (.*)$/, ',"lab file $1"'));
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
    expect(csv.stdout.split("\n")[0]).toBe("file,lab,passed,steps,skipped,attempts,hints,solutions,minutes,predicted,predictions_near,exported,other_version");
  });
});
