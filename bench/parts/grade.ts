// fslab bench grade: what "Compile and grade" costs in a code step, in Node's guest (the page's
// is the same guest). A step's first grade records its workload (10-40 s, the lab's kernel at
// work); later grades replay that recorded run, so a warm grade is the learner's file written,
// the build by the guest's tcc and the replay. Goals (issue 51): a warm grade in at most 3 s; a
// function that never returns, or crashes, said so within 10 s (the replay's limit is 8 s).
import { codeStepOf, gradeCode, loadGrader, type GradeTraceCache } from "../../web/src/labs/code-grade";
import { NodeVm } from "../../web/src/vm/node/node-vm";
import { findLabs, labContext, readLab } from "../../bin/commands/labs";
import { goal, type BenchPart } from "../report";

/** warm grades timed after the first, each lab */
const WARM = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const part: BenchPart = {
  order: 6.5,
  summary: "a code step's Compile and grade in the guest: the first (the workload recorded) and warm ones (its run replayed)",
  async run() {
    const found = findLabs("labs");
    if ("error" in found) throw new Error(found.error);
    const { views, answers, graders, topics } = await labContext();
    const vm = new NodeVm();
    await vm.boot();
    try {
      for (const l of found.labs) {
        const r = readLab(l, views, { identity: "bench", answers, graders, quiet: true });
        if (!r.lab) continue;
        for (const step of r.lab.steps) {
          const code = codeStepOf(step);
          if (!code) continue;
          const grader = await loadGrader(topics, code.code.grader);
          const spec = { file: code.code.file, workload: code.workload };
          const cache: GradeTraceCache = {};
          let t = performance.now();
          const first = await gradeCode(vm, grader, spec, code.solution, cache);
          const cold = (performance.now() - t) / 1000;
          if (first.kind !== "agree") throw new Error(`${r.lab.meta.id}: the reference did not agree (${first.kind})`);
          const warm: number[] = [];
          for (let k = 0; k < WARM; k++) {
            t = performance.now();
            const v = await gradeCode(vm, grader, spec, code.solution, cache);
            warm.push((performance.now() - t) / 1000);
            if (v.kind !== "agree") throw new Error(`${r.lab.meta.id}: a warm grade of the reference did not agree (${v.kind})`);
          }
          const w = median(warm);
          console.log(`${r.lab.meta.id} (${code.code.grader}): first grade ${cold.toFixed(1)} s; warm ${w.toFixed(2)} s, median of ${WARM} ${goal(w <= 3, "at most 3 s warm")}`);
          // the reference broken at its first line, as a learner's mistake would: said how soon?
          const opening = /\)\n\{\n/;
          if (!opening.test(code.solution)) throw new Error(`${r.lab.meta.id}: the reference has no function opening to break`);
          for (const [what, body] of [["an endless loop", "for (;;) {}"], ["a crash", "*(volatile int *)0 = 0;"]] as const) {
            t = performance.now();
            const v = await gradeCode(vm, grader, spec, code.solution.replace(opening, `)\n{\n\t${body}\n`), cache);
            const said = (performance.now() - t) / 1000;
            if (v.kind !== "crash") throw new Error(`${r.lab.meta.id}: ${what} was graded ${v.kind}, not a crash`);
            console.log(`${r.lab.meta.id}: ${what} said in ${said.toFixed(1)} s ${goal(said <= 10, "within 10 s")}: ${v.message.slice(0, 90)}`);
          }
        }
      }
    } finally {
      await vm.destroy();
    }
  },
};
