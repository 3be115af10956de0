// fslab labs grade LAB FILE.c [--learner ID] [--step N]: grade a learner's function headless,
// as the page's "Compile and grade" does (web/src/labs/code-grade.ts). Boots the guest, walks
// the lab's steps before the code step by their solutions, puts FILE.c where the step keeps the
// learner's file, runs the step's workload with tracing (the learner's own settings with
// --learner), and replays the kernel's trace through the function. Exit 0 and "agrees with your
// kernel in all N decisions"; 1 and the first divergence, or compile errors as FILE.c:LINE.
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { UsageError } from "../../web/src/shared/cli-args";
import { commandsOf } from "../../web/src/labs/checks";
import { codeStepOf, gradeCode, gradeLines, loadGrader } from "../../web/src/labs/code-grade";
import { EXAMPLE_IDENTITY } from "../../web/src/labs/seed";
import { putLabFiles, setupScript, SETUP_TIMEOUT } from "../../web/src/labs/lab-files";
import { NodeVm, stoppedWords } from "../../web/src/vm/node/node-vm";
import { findLabs, labContext, readLab, readLabFiles } from "./labs";
import { labPath } from "./labs-key";

export async function labsGrade(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { learner: { type: "string" }, step: { type: "string" } } });
  } catch (e) {
    throw new UsageError(`labs grade: ${e instanceof Error ? e.message : e}`);
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 2) throw new UsageError("labs grade takes a lab (its id, folder or lab.md) and the learner's C file");
  const [labName, cFile] = positionals;
  let text: string;
  try {
    text = readFileSync(cFile, "utf8");
  } catch (e) {
    throw new UsageError(`labs grade: cannot read ${cFile}: ${e instanceof Error ? e.message : e}`);
  }
  if (text.includes("\0")) throw new UsageError(`labs grade: ${cFile} is not a text file`);
  const target = findLabs(labPath(labName));
  if ("error" in target) throw new UsageError(`labs grade: ${target.error}`);
  if (target.labs.length !== 1) throw new UsageError(`labs grade: ${labName} holds ${target.labs.length} labs: name one`);
  const identity = v.learner?.trim() || EXAMPLE_IDENTITY;
  const { views, answers, graders, topics } = await labContext();
  const r = readLab(target.labs[0], views, { identity, answers, graders, quiet: true });
  if (r.errors) {
    for (const e of r.errors) console.error(e);
    return 1;
  }
  const lab = r.lab;
  const codeSteps = lab.steps.flatMap((s, i) => (codeStepOf(s) ? [i] : []));
  if (!codeSteps.length) throw new UsageError(`labs grade: ${lab.meta.id} has no code step`);
  let at = codeSteps[0];
  if (v.step !== undefined) {
    const n = Number(v.step);
    if (!Number.isInteger(n) || !codeSteps.includes(n - 1)) throw new UsageError(`labs grade: --step is the number of a code step of ${lab.meta.id} (${codeSteps.map((i) => i + 1).join(", ")}), not ${JSON.stringify(v.step)}`);
    at = n - 1;
  } else if (codeSteps.length > 1) throw new UsageError(`labs grade: ${lab.meta.id} has code steps ${codeSteps.map((i) => i + 1).join(", ")}: name one with --step N`);
  const step = codeStepOf(lab.steps[at])!;
  const grader = await loadGrader(topics, step.code.grader);
  if (lab.meta.seed.length) console.log(`learner ${JSON.stringify(identity)}: ${lab.meta.seed.map((p) => `${p.name} = ${lab.seed.values[p.name]}`).join(", ")}${v.learner ? "" : " (--learner ID for a learner's own settings)"}`);
  const vm = new NodeVm();
  try {
    await vm.boot();
    const shipped = readLabFiles(target.labs[0].file, lab);
    if (shipped.errors.length) throw new Error(shipped.errors.join("; "));
    if (shipped.files.length) await putLabFiles((script, t) => vm.agent.run(script, t), shipped.files);
    // the steps before, as a learner who took their solutions left the machine
    for (let i = 0; i < at; i++) {
      const setup = setupScript(lab.meta.files, i);
      if (setup) await vm.agent.run(`bash ${setup}`, SETUP_TIMEOUT);
      for (const b of commandsOf(lab.steps[i])) {
        const run = await vm.run(b.text, 600_000, true);
        if (run.status !== 0) console.warn(`note: step ${i + 1}'s ${b.kind} block exited with ${run.status}`);
      }
    }
    const setup = setupScript(lab.meta.files, at);
    if (setup) await vm.agent.run(`bash ${setup}`, SETUP_TIMEOUT);
    const result = await gradeCode(vm, grader, { file: step.code.file, workload: step.workload }, text);
    const lines = gradeLines(result, cFile);
    const ok = result.kind === "agree";
    for (const l of lines) (ok ? console.log : console.error)(l);
    if (result.kind === "diverge" || result.kind === "agree") for (const w of result.warnings) console.warn(`${w.line !== null ? `${cFile}:${w.line}: ` : ""}warning: ${w.message}`);
    return ok ? 0 : 1;
  } catch (e) {
    if (vm.stopped) {
      console.error(`fslab labs grade: the machine stopped: ${stoppedWords(vm.stopped)}`);
      return 1;
    }
    throw e;
  } finally {
    await vm.destroy();
  }
}
