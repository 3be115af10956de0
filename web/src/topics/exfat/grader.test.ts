// The exfat-empty-hint code step's grader on a trace our kernel wrote: the step's workload for
// learner "learner-b" (150 files, one in 3 removed, 40 long names), recorded as the page records
// it (labs/code-grade.ts recordWorkload). The replay program is built here by the host's C
// compiler from the grader's own sources (the guest's tcc builds the same files in a lab), with
// the reference, the lab's starter, five mutants of the reference and two more plausible mistakes
// in the learner's place.
import { describe, expect, it } from "vitest";
import { HintTraceError, hintRun, setEmptyHint } from "./grader";
import { gradedStep, itCatchesMutants } from "../../shared/grade-native";

const { text, starter, input, run, grade } = gradedStep(setEmptyHint, new URL("../../../../labs/exfat-empty-hint/lab.md", import.meta.url), new URL("./traces/exfat-hint-grade.trace.gz", import.meta.url));


describe("the exFAT empty-hint grader", () => {
  it("reads the run's operations and each create's searches from the trace", () => {
    const ctx = hintRun(text);
    expect(ctx.dentriesPerClu).toBe(128);
    const creates = ctx.ops.filter((o) => o.op === "c");
    expect(creates).toHaveLength(150 + 6 + 40 + 14);
    expect(ctx.ops.filter((o) => o.op === "r")).toHaveLength(50);
    expect(ctx.ops.filter((o) => o.op === "l")).toEqual([{ op: "l", name: "f149", create: 148 }]);
    expect(input.decisions).toBe(creates.length);
    expect(input.stdin.split("\n")[0]).toBe(`fslab-exfat-hint 1 128 ${ctx.ops.length}`);
    // the first create of all: the whole first cluster is the hint, and the set goes at 0
    expect(creates[0]).toMatchObject({ name: "f1", entries: 3, searches: [[3, 0, 0]] });
  });

  it("agrees with the kernel in every create when the function is the kernel's", () => {
    const v = grade(setEmptyHint.reference);
    expect(v).toEqual({ kind: "agree", decisions: 210, notJudged: 0 });
  });

  it("parts from the kernel at the first create with the lab's starter (Linux 6.1's rule)", () => {
    const v = grade(starter);
    expect(v.kind).toBe("diverge");
    if (v.kind !== "diverge") return;
    expect(v.at).toBe(1);
    expect(v.kernel).toBe("from the hint, entry 0: 3 examined, room at entry 0");
    expect(v.yours).toMatch(/^from the hint, entry 128: 0 examined, no room/);
    expect(v.inputs[1]).toBe("the directory: 128 entries (1 cluster of 128): 0-127 unused");
  });

  it("catches a hint kept whatever it points at: the lookup that goes round after a found name", () => {
    // rule 1 as "a hint exists": the same on every lookup from entry 0, wrong on the one that
    // starts past f149 and comes round to the early holes after the end's hint was set
    const kept = setEmptyHint.reference.replace(" && ei->hint_femp.eidx <= dentry", "");
    expect(kept).not.toBe(setEmptyHint.reference);
    const v = grade(kept);
    expect(v.kind).toBe("diverge");
    if (v.kind !== "diverge") return;
    expect(v.at).toBe(151); // g1, the first create after the lookup
    expect(v.agreed).toBeLessThan(210);
    expect(v.inputs[0]).toMatch(/^create 151: "g1", 3 entries/);
    expect(v.inputs[2]).toMatch(/^its lookup started at entry \d+ \(a lookup found a name just before/);
    expect(v.kernel).toMatch(/^from the hint, entry 6:/); // f3's hole
  });

  itCatchesMutants(setEmptyHint, grade, setEmptyHint.mutants!, (at) => new RegExp(`^create ${at}: "`));

  it("catches a run counted one entry at a time up to the directory's end", () => {
    const oneByOne = setEmptyHint.reference.replace("candi_empty->count += total_entries - dentry;", "candi_empty->count++;");
    expect(oneByOne).not.toBe(setEmptyHint.reference);
    const v = grade(oneByOne);
    expect(v.kind).toBe("diverge");
  });

  it("says which create a replay that crashed or never returned had reached, from the lines it left", () => {
    const lines = run(setEmptyHint.reference).split("\n");
    expect(setEmptyHint.reached!(input, lines.slice(0, 2).join("\n") + "\n")).toBe('in create 3 ("f3")');
    expect(setEmptyHint.reached!(input, "")).toBe('in create 1 ("f1")');
    expect(setEmptyHint.reached!(input, lines.join("\n"))).toBeNull(); // all done: it stopped after the last
  });

  it("refuses a trace it cannot replay, saying why", () => {
    const marks = text.split("\n");
    const without = (re: RegExp) => marks.filter((l) => !re.test(l)).join("\n");
    expect(() => hintRun(without(/dentries_per_clu=/))).toThrow(/no `fslab: exfat-dir dentries_per_clu=N` line/);
    expect(() => hintRun(without(/exfat-dir create f17$/))).toThrow(/the searches after the mark for f16 go on after one found room: a create the workload did not mark/);
    expect(() => hintRun(without(/exfat-dir (create|rm|lookup) /))).toThrow(/marked no create/);
    expect(() => hintRun(without(/exfat-dir create file-with-long-name-1$/))).toThrow(/searched for 4 entries for "g6", which takes 3/);
    const stray = text.replace("fslab: exfat-dir rm f3\n", "fslab: exfat-dir rm f3\n bash-77 [000] ...1. 4.9: tracing_mark_write: fslab: exfat-dir rm nosuch\n");
    expect(stray).not.toBe(text);
    expect(() => hintRun(stray)).toThrow(/the workload's rm of nosuch comes before any create of it/);
    expect(() => hintRun(`${text}\nCPU:0 [LOST 12 EVENTS]\n`)).toThrow(HintTraceError);
    expect(() => setEmptyHint.judge(input, "0 3 0 0\n")).toThrow(/printed 1 creates of the trace's 210/);
    expect(() => setEmptyHint.judge(input, run(setEmptyHint.reference).replace(/^0 3 0 0/, "0 3 x 0"))).toThrow(/line 1 is not a slot/);
  });
});
