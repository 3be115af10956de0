// The mq-deadline code step's grader on a trace our kernel wrote (traces/blk-nullb-dd.trace.gz,
// dd-kernel.test.ts says how): the trace as the replay program's input, and that program's
// output judged. The output here is the wasm model's own decisions, written as dd_grade.c
// prints them, so a function that decides as the model does agrees, and one changed at one
// decision is caught there. (The program itself, built by the guest's tcc, is run by
// `fslab labs test` and walk.e2e.)
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCoreModule } from "../../shared/node-load";
import { DD_BECAUSE, DD_PICK, parseBlkTrace } from "./blk-trace";
import { replayDdDecisions, traceTunables } from "./dd-kernel";
import { ddDispatch } from "./grader";
import { gradedStep, itCatchesMutants } from "../../shared/grade-native";

const text = gunzipSync(readFileSync(new URL("./traces/blk-nullb-dd.trace.gz", import.meta.url))).toString("utf8");
let modelOut: string[];
let input: ReturnType<typeof ddDispatch.input>;

beforeAll(async () => {
  const m = await loadCoreModule("blk");
  const trace = parseBlkTrace(text);
  const r = replayDdDecisions(m, trace, traceTunables(trace));
  modelOut = r.verdicts.map((v) => [v.model.rq ?? 0xffffffff, DD_BECAUSE.indexOf(v.model.because), DD_PICK.indexOf(v.model.pick), v.model.batching, v.model.starved].join(" "));
  input = ddDispatch.input(text);
});

const stdout = (lines: string[]) => `decisions ${lines.length}\n${lines.join("\n")}\n`;

describe("the mq-deadline grader", () => {
  it("writes the trace as dd_grade.c reads it: a header, tunables, start, requests, events", () => {
    const lines = input.stdin.trim().split("\n");
    expect(lines[0]).toBe("fslab-dd-replay 1 100");
    expect(lines[1]).toBe("100 400 10000 2 16"); // the capture's expiries, the kernel's defaults else
    expect(lines[2].split(" ")).toHaveLength(15);
    const nrq = Number(lines[3]);
    expect(nrq).toBe(358);
    expect(lines[4].split(" ")).toHaveLength(4 * nrq);
    expect(Number(lines[5])).toBe(lines.length - 6);
    expect(input.decisions).toBe(modelOut.length);
  });

  it("passes a function that decides as the model does", () => {
    const v = ddDispatch.judge(input, stdout(modelOut));
    expect(v.kind).toBe("agree");
    if (v.kind === "agree") expect(v.decisions + v.notJudged).toBe(modelOut.length);
  });

  it("names the first decision made otherwise, with what it was made from", () => {
    const changed = [...modelOut];
    const w = changed[40].split(" ").map(Number);
    w[2] = w[2] === 0 ? 1 : 0; // the same request, for another reason (pick)
    changed[40] = w.join(" ");
    const v = ddDispatch.judge(input, stdout(changed));
    expect(v.kind).toBe("diverge");
    if (v.kind !== "diverge") return;
    expect(v.at).toBe(41);
    expect(v.agreed).toBe(v.judged - 1);
    expect(v.kernel).not.toBe(v.yours);
    expect(v.inputs[0]).toMatch(/^jiffies \d+; fifo_batch 16, writes_starved 2/);
    expect(v.inputs[1]).toMatch(/^coming in: last_dir (READ|WRITE), batching \d+, starved \d+$/);
    expect(v.inputs.some((l) => /FIFO, oldest first: rq \d+ @\d+ \(fifo_time \d+/.test(l))).toBe(true);
  });

  it("refuses output that is not the trace's decisions", () => {
    expect(() => ddDispatch.judge(input, stdout(modelOut.slice(1)))).toThrow(/reported \d+ decisions of the trace's \d+/);
    expect(() => ddDispatch.judge(input, "garbage")).toThrow(/no decisions/);
    expect(() => ddDispatch.judge(input, stdout(modelOut.map((l) => l.replace(/ \d+$/, ""))))).toThrow(/five numbers per decision/);
  });

  it("refuses a trace it cannot grade, saying why", () => {
    expect(() => ddDispatch.input("")).toThrow(/no mq-deadline dispatch/);
    const noMark = text.split("\n").filter((l) => !l.includes("fslab: iosched")).join("\n");
    expect(() => ddDispatch.input(noMark)).toThrow(/trace_marker/);
  });
});

// The code step's own workload, recorded for learner "learner-b" (fifo_batch 3, writes_starved 4)
// as the page records it (labs/code-grade.ts recordWorkload), replayed through dd_grade.c built
// by the host's C compiler: the reference agrees, the lab's starter and five mutants of the
// reference each part from the kernel at a named decision.
describe("the mq-deadline grader, over the code step's own workload", () => {
  const { starter, grade, input, run } = gradedStep(ddDispatch, new URL("../../../../labs/mq-deadline/lab.md", import.meta.url), new URL("./traces/dd-grade.trace.gz", import.meta.url));

  it("agrees with the kernel in every decision when the function is the kernel's", () => {
    const v = grade(ddDispatch.reference);
    expect(v.kind).toBe("agree");
    if (v.kind === "agree") expect(v.decisions).toBeGreaterThan(100);
  });

  it("parts from the kernel at the first decision with the lab's starter (a plain FIFO)", () => {
    const v = grade(starter);
    expect(v.kind).toBe("diverge");
    if (v.kind === "diverge") expect(v.at).toBe(1);
  });

  itCatchesMutants(ddDispatch, grade, ddDispatch.mutants!, () => /^jiffies \d+; fifo_batch 3, writes_starved 4/);

  // a function that dies, or never returns (the guest's `timeout` sends SIGTERM): dd_grade.c
  // says how many decisions were made before, and the grade names the one it died in
  const dying = (how: string) =>
    ddDispatch.reference.replace("\tstruct deadline_data *dd = &s->dd;\n", `\tstruct deadline_data *dd = &s->dd;\n\tstatic int calls;\n\tif (++calls == 40) { ${how} }\n`);
  const partialOf = (learner: string, opts: { timeout?: number } = {}) => {
    try {
      run(learner, opts);
    } catch (e) {
      return String((e as { stdout?: string }).stdout ?? "");
    }
    throw new Error("the replay did not die");
  };

  it("names the decision a crash happened in", () => {
    const out = partialOf(dying("*(volatile int *)0 = 0;"));
    const k = Number(out.match(/^reached (\d+)$/m)?.[1]);
    // the 40th call of the function: a decision may call it once per priority level
    expect(k).toBeGreaterThan(0);
    expect(k).toBeLessThan(40);
    expect(ddDispatch.reached!(input, out)).toBe(`in decision ${k + 1} of ${input.context.words.kernel.length}`);
  });

  it("names the decision a function that never returns was in, once it is stopped", () => {
    const out = partialOf(dying("for (;;) {}"), { timeout: 2000 });
    expect(ddDispatch.reached!(input, out)).toMatch(/^in decision \d+ of \d+$/);
  });
});
