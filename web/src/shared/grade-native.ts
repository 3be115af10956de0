// For tests (Node and vitest only): a code grader's replay program built by the host's C compiler from the
// grader's own sources with a given learner's file, and run over a trace's input. The guest's
// tcc builds the same files in a lab (labs/code-grade.ts); the host's compiler lets a unit test
// grade the reference, a lab's starter and mutants of the reference in a fraction of a second
// (warnings off: a starter leaves variables for the learner to use).
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { mutate, type CodeGrader, type GradeInput, type GradeVerdict, type Mutant } from "./grade";

/** Build the replay with `learner` as the grader's file under `dir`, run it on `stdin`, and return its output. */
export function nativeReplay(grader: CodeGrader, learner: string, stdin: string, dir: string, opts: { timeout?: number } = {}): string {
  const build = mkdtempSync(join(dir, "b-"));
  for (const [p, src] of Object.entries(grader.sources)) {
    mkdirSync(dirname(join(build, p)), { recursive: true });
    writeFileSync(join(build, p), src);
  }
  writeFileSync(join(build, grader.file), learner);
  const cFiles = [...Object.keys(grader.sources).filter((p) => p.endsWith(".c")), grader.file];
  execFileSync("cc", ["-std=gnu99", "-w", "-Iinclude", "-o", "grade", ...cFiles], { cwd: build });
  if (!opts.timeout) return execFileSync(join(build, "grade"), { input: stdin, encoding: "utf8", maxBuffer: 64 << 20 });
  // as the guest runs it: coreutils' `timeout` stops it with SIGTERM, its output going to a file
  // (Node's own timeout closes the pipe first, and the program's last words die of SIGPIPE)
  const out = join(build, "stdout.txt");
  const fd = openSync(out, "w");
  try {
    execFileSync("timeout", [String(opts.timeout / 1000), join(build, "grade")], { input: stdin, stdio: ["pipe", fd, "pipe"] });
  } catch (e) {
    throw Object.assign(e as Error, { stdout: readFileSync(out, "utf8") });
  } finally {
    closeSync(fd);
  }
  return readFileSync(out, "utf8");
}

/**
 * A code step's grader under test: its lab's starter, the recorded workload trace as the
 * grader's input, a scratch folder for the builds (made before the file's tests, removed after),
 * `run(learner)`: the replay built with that file, its output, and `grade(learner)`: judged.
 */
export function gradedStep<C>(grader: CodeGrader<C>, lab: URL, trace: URL) {
  const md = readFileSync(lab, "utf8");
  const fence = md.match(new RegExp("```code file=\"[^\"]*/" + grader.file.replace(/\./g, "\\.") + "\"[^\\n]*\\n([\\s\\S]*?)\\n```"));
  if (!fence) throw new Error(`${lab.pathname} has no code block for ${grader.file}`);
  const text = gunzipSync(readFileSync(trace)).toString("utf8");
  const input: GradeInput<C> = grader.input(text);
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "fslab-grade-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (learner: string, opts: { timeout?: number } = {}): string => nativeReplay(grader, learner, input.stdin, dir, opts);
  const grade = (learner: string): GradeVerdict => grader.judge(input, run(learner));
  return { text, starter: fence[1], input, run, grade };
}

/**
 * One test per mutant of the grader's reference: it must part from the kernel at a numbered
 * decision whose first input line `named(at)` matches, the kernel's choice beside another.
 */
export function itCatchesMutants(grader: CodeGrader, grade: (learner: string) => GradeVerdict, mutants: readonly Mutant[], named: (at: number) => RegExp): void {
  for (const m of mutants)
    it(`catches ${m.name}, at a named decision`, () => {
      const v = grade(mutate(grader.reference, m));
      expect(v.kind).toBe("diverge");
      if (v.kind !== "diverge") return;
      expect(v.at).toBeGreaterThanOrEqual(1);
      expect(v.inputs[0]).toMatch(named(v.at));
      expect(v.kernel).not.toBe(v.yours);
    });
}
