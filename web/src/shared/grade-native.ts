// For tests (Node only): a code grader's replay program built by the host's C compiler from the
// grader's own sources with a given learner's file, and run over a trace's input. The guest's
// tcc builds the same files in a lab (labs/code-grade.ts); the host's compiler lets a unit test
// grade the reference, a lab's starter and mutants of the reference in a fraction of a second
// (warnings off: a starter leaves variables for the learner to use).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CodeGrader, GradeVerdict } from "./grade";

/** Build the replay with `learner` as the grader's file under `dir`, run it on `stdin`, and return its output. */
export function nativeReplay(grader: CodeGrader, learner: string, stdin: string, dir: string): string {
  const build = mkdtempSync(join(dir, "b-"));
  for (const [p, src] of Object.entries(grader.sources)) {
    mkdirSync(dirname(join(build, p)), { recursive: true });
    writeFileSync(join(build, p), src);
  }
  writeFileSync(join(build, grader.file), learner);
  const cFiles = [...Object.keys(grader.sources).filter((p) => p.endsWith(".c")), grader.file];
  execFileSync("cc", ["-std=gnu99", "-w", "-Iinclude", "-o", "grade", ...cFiles], { cwd: build });
  return execFileSync(join(build, "grade"), { input: stdin, encoding: "utf8", maxBuffer: 64 << 20 });
}

/** One mistake a learner could make in the reference: `from` replaced by `to` (each must occur). */
export interface Mutant {
  name: string;
  from: string;
  to: string;
}

/** The reference with the mutant's change made; throws if the text to change is not there. */
export function mutate(reference: string, m: Mutant): string {
  if (!reference.includes(m.from)) throw new Error(`mutant "${m.name}": the reference has no "${m.from}"`);
  return reference.replace(m.from, m.to);
}

/** The verdict on a mutant: it must part from the kernel at a named decision. */
export function gradeMutant(grader: CodeGrader, m: Mutant, stdin: string, dir: string, judge: (stdout: string) => GradeVerdict): GradeVerdict {
  return judge(nativeReplay(grader, mutate(grader.reference, m), stdin, dir));
}
