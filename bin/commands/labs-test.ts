// fslab labs test [PATH] [ID...]: boot the guest headless and walk every lab as a learner would,
// each on a fresh machine. PATH is a labs folder (default labs/; IDs pick labs in it), one
// lab's folder, or a lab.md. For each step: run its checks (they must fail: a check that
// passes as the step opens checks nothing), then, on a copy of the machine put back after,
// the previous step's commands a second time, and its checks again (they must fail too: a
// check that counts runs passes when a learner repeats the step before); then its `solution`
// blocks (or, without one, its `vm` blocks) in the shell, then its checks again: a check that
// does not pass after the step's own commands fails the lab, with file:line and what the check
// printed. Each question's answer in this run is printed, as each prediction's is. `verdict:` expectations need the page's
// views and are left to the e2e tests; event expectations are judged from the guest's trace.
// Each step starts in a fresh login shell (no variable or function of an earlier step is
// left), so a step that leans on one fails here; each `predict` block's answer must be
// found once the step's commands ran, and is printed, so an author sees the answers here.
// A lab's walk time is printed ("N steps in 25 s"); one that records `walk:` is warned of
// when this walk is far from it (lab-time.ts: over 3 times, or under a third, give or take 30 s).
import { existsSync, readFileSync } from "node:fs";
import { type LabStep, type Lab } from "../../web/src/labs/lab-format";
import { commandsOf, guestSide, runChecks, hasChecks, type CheckOutcome } from "../../web/src/labs/checks";
import { seenEvent, type SeenEvent } from "../../web/src/labs/expect";
import { commandActual, countedActual, parseGuess } from "../../web/src/labs/predict";
import { asPrediction, judgeAnswer, toleranceText, type Question } from "../../web/src/labs/question";
import { NodeVm, stoppedWords } from "../../web/src/vm/node/node-vm";
import { UsageError } from "../../web/src/shared/cli-args";
import { findLabs, labContext, readLab, readLabFiles } from "./labs";
import { loadCoreModule } from "../../web/src/shared/node-load";
import { computeKey, keyImage, type ModelKey } from "../../web/src/labs/keys";
import { putLabFiles, setupScript, SETUP_TIMEOUT } from "../../web/src/labs/lab-files";
import { walkDrift } from "../../web/src/labs/lab-time";
import { keyLine } from "../../web/src/labs/course";
import { codeStepOf, gradeCode, gradeLines, loadGrader, writeGuestFile, type GradeTraceCache } from "../../web/src/labs/code-grade";
import { mutate, type CodeGrader } from "../../web/src/shared/grade";

/** The learners a seeded lab is walked for when none is named: three problems, so a key that fits one learner by chance fails another. */
export const TEST_LEARNERS = ["learner-a", "learner-b", "learner-c"];

export async function labsTest(argv: string[]): Promise<number> {
  const learners: string[] = [];
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--learner") {
      const id = argv[++i]?.trim();
      if (!id) throw new UsageError("labs test: --learner needs an ID");
      learners.push(id);
    } else if (argv[i].startsWith("--learner=")) learners.push(argv[i].slice("--learner=".length).trim());
    else args.push(argv[i]);
  }
  for (const a of args) if (a.startsWith("--")) throw new UsageError(`labs test: unknown option ${a}`);
  const named = args[0] !== undefined && existsSync(args[0]);
  const path = named ? args[0] : "labs";
  const only = named ? args.slice(1) : args;
  const target = findLabs(path);
  if ("error" in target) {
    console.error(`fslab labs test: ${target.error}`);
    return 1;
  }
  if (target.kind !== "labs" && only.length) throw new UsageError(`labs test: ${path} is one lab; lab ids go after a labs folder`);
  const found = target.labs.filter((l) => !only.length || (l.folder !== undefined && only.includes(l.folder)));
  for (const id of only) if (!found.some((l) => l.folder === id)) throw new UsageError(`labs test: no lab ${id} in ${path}`);
  const { views, answers, graders, topics } = await labContext();
  // every lab's errors, all at once, before the guest boots; a seeded lab once per learner
  const labs: Array<{ file: string; lab?: Lab }> = [];
  let failed = 0;
  let warned = 0;
  for (const l of found) {
    const r = readLab(l, views, { answers, graders, ...(learners.length ? { identity: learners[0] } : {}) });
    if (r.errors) {
      for (const line of r.errors) console.error(`FAIL ${line}`);
      failed++;
      labs.push({ file: l.file });
      continue;
    }
    warned += r.lab.warnings.length;
    const who = learners.length ? learners : r.lab.meta.seed.length ? TEST_LEARNERS : [];
    if (!who.length) labs.push({ file: l.file, lab: r.lab });
    for (const identity of who) {
      const again = readLab(l, views, { answers, graders, identity, quiet: true });
      if (again.errors) {
        for (const line of again.errors) console.error(`FAIL ${line} (for learner ${identity})`);
        failed++;
      }
      labs.push({ file: l.file, lab: again.lab });
    }
  }
  if (!labs.some((l) => l.lab)) {
    console.log(`${labs.length === 1 ? "0 of 1 lab passes its checks" : `0 of ${labs.length} labs pass their checks`}: nothing to boot the guest for`);
    return 1;
  }
  const vm = new NodeVm();
  await vm.boot();
  const fresh = await vm.saveState();
  try {
    for (const { file, lab } of labs) {
      if (!lab) continue;
      await vm.restoreState(fresh);
      await vm.run("true"); // the shell answers again
      // the files the lab ships, in /lab/ as the page puts them (through the check agent)
      const shipped = readLabFiles(file, lab);
      for (const e of shipped.errors) console.error(`FAIL ${e}`);
      if (shipped.errors.length) {
        failed++;
        continue;
      }
      if (shipped.files.length) {
        await putLabFiles((script, t) => vm.agent.run(script, t), shipped.files);
        console.log(`files ${file}: ${shipped.files.length} in /lab/ (${shipped.files.reduce((a, f) => a + f.data.length, 0)} bytes)`);
      }
      const t0 = performance.now();
      // a stop outside a block's run (a check, a late panic) fails this lab; the next restores
      if (lab.meta.seed.length)
        console.log(`learner ${file}: ${JSON.stringify(lab.seed.identity)}: ${lab.meta.seed.map((p) => `${p.name} = ${lab.seed.values[p.name]}`).join(", ")}`);
      const r = await walk(vm, lab.steps, file, lab.meta.files, (key) => computeKey(topics, key, loadCoreModule, (name) => vm.readSharedFile(name)), (id) => loadGrader(topics, id), (key) => keyImage(key, answers)).catch((e) => {
        if (!vm.stopped) throw e;
        console.error(`FAIL ${file}: the machine stopped: ${stoppedWords(vm.stopped)}`);
        return { failed: 1, warned: 0 };
      });
      const took = (performance.now() - t0) / 1000;
      failed += r.failed;
      warned += r.warned;
      // the walk time the lab records (its stated time is held to it): still about this one?
      const drift = !r.failed && lab.meta.walk !== undefined ? walkDrift(lab.meta.walk, took) : null;
      if (drift) {
        console.warn(`warning ${file}:${keyLine(readFileSync(file, "utf8"), "walk")}: ${drift}`);
        r.warned++;
        warned++;
      }
      console.log(`${r.failed ? "FAIL" : "ok  "} ${file}: ${lab.steps.length} steps in ${took.toFixed(0)} s${r.warned ? `, ${r.warned} warning${r.warned === 1 ? "" : "s"}` : ""}`);
    }
  } finally {
    await vm.destroy();
  }
  const n = labs.length;
  const w = warned ? ` (${warned} warnings)` : "";
  console.log(n === 1 ? `${failed ? "0 of 1 lab passes" : "1 lab passes"} its checks${w}` : `${n - failed} of ${n} labs pass their checks${w}`);
  return failed ? 1 : 0;
}

/** What walking a lab needs of the guest (a NodeVm; a test passes a stand-in). */
export type WalkVm = Pick<NodeVm, "agent" | "trace" | "traceSettled" | "freshShell" | "run" | "stopped" | "saveState" | "restoreState" | "check" | "readSharedFile" | "writeSharedFile">;

/** Walk one lab's steps on a machine as a learner would (see the top of this file). */
export async function walk(
  vm: WalkVm,
  steps: LabStep[],
  file: string,
  files: readonly string[] = [],
  keyOf?: (key: ModelKey) => Promise<string>,
  graderOf?: (id: string) => Promise<CodeGrader>,
  /** the image a key reads on the learner's disk (keys.ts keyImage), null for a model's key */
  imageOf: (key: ModelKey) => string | null = () => null,
): Promise<{ failed: number; warned: number }> {
  /** a measured answer against the model's key for this learner: the model must agree with the kernel */
  const held = async (key: ModelKey | undefined, measured: string, where: string, question?: Question): Promise<boolean> => {
    if (!key || !keyOf) return true;
    const expected = await keyOf(key);
    // a question's own leeway (the journal's few blocks beside a write's): a prediction's key is exact
    if (question ? judgeAnswer(question, measured, expected) : Number(expected) === Number(measured) || expected === measured) {
      // an image key is the learner's disk read by the inspector, not a model's run
      const image = imageOf(key);
      const whose = image !== null ? `the inspector's, from /mnt/host/${image},` : "the model's";
      console.log(`key ${where}: the kernel's ${measured} is ${whose} ${expected} (${key.model}${question && toleranceText(question) !== "exactly" ? `, ${toleranceText(question)}` : ""})`);
      return true;
    }
    console.error(`FAIL ${where}: the kernel measured ${measured} where the model's key (${key.model} ${JSON.stringify(key.params)}) says ${expected}: the model and the kernel disagree, or the step's commands do not do the learner's problem`);
    return false;
  };
  let warned = 0;
  let failed = 0;
  const handle = { check: (script: string, t: number) => vm.agent.run(script, t) };
  let events: SeenEvent[] = [];
  const collect = () => {
    for (const l of vm.trace.takeLines()) {
      const e = seenEvent(l);
      if (e) events.push(e);
    }
    return events;
  };
  /**
   * Commands run on a copy of the machine as it is (a fresh shell, then put back, its events
   * dropped), and the step's guest-side checks after them; null if they stopped the machine.
   */
  const onACopy = async (texts: string[], checked: LabStep): Promise<CheckOutcome | null> => {
    const saved = await vm.saveState();
    await vm.freshShell();
    let stopped = false;
    for (const text of texts) {
      const r = await vm.run(text, 600_000, true).catch((e) => {
        if (!vm.stopped) throw e;
        return null;
      });
      if (!r) {
        stopped = true;
        break;
      }
    }
    let outcome: CheckOutcome | null = null;
    if (!stopped) {
      await vm.traceSettled(); // the last trace lines on their way
      outcome = await runChecks(checked, handle, collect(), {});
    }
    await vm.restoreState(saved);
    collect();
    events = [];
    return outcome;
  };
  for (const [i, step] of steps.entries()) {
    const where = `${file}:${step.line}`;
    collect();
    events = [];
    // the step's set-up script, as the page runs it when the step opens (lab-files.ts)
    const setup = setupScript(files, i);
    if (setup) {
      const r = await vm.agent.run(`bash ${setup}`, SETUP_TIMEOUT);
      if (r.status !== 0) {
        console.error(`FAIL ${where}: step ${i + 1}'s set-up ${setup} ${r.status === "timeout" ? "timed out" : `exited ${r.status}`}: ${r.output.trim()}`);
        return { failed: failed + 1, warned };
      }
      console.log(`setup ${where}: ${setup} ran`);
    }
    // a block's event expectations are judged here; only its verdicts are left to the page
    const checked = guestSide(step);
    if (hasChecks(checked)) {
      const before = await runChecks(checked, handle, collect(), {});
      if (before.ok) {
        console.error(`FAIL ${where}: step ${i + 1} "${step.title}" passes its checks as it opens, before its commands ran: they check nothing`);
        failed = 1;
      } else {
        // the step before done twice (a learner who repeats it): the checks must still fail.
        // Run on the machine as it is, then put back, so the walk goes on from the step's start.
        const prev = steps.slice(0, i).findLastIndex((s) => commandsOf(s).length > 0);
        if (prev >= 0) {
          const twice = await onACopy(commandsOf(steps[prev]).map((b) => b.text), checked);
          if (!twice) console.warn(`note ${file}:${steps[prev].line}: step ${prev + 1}'s commands run a second time stopped the machine (${stoppedWords(vm.stopped!)}); put back`);
          else if (twice.ok) {
            console.error(`FAIL ${where}: step ${i + 1} "${step.title}" passes its checks once step ${prev + 1} "${steps[prev].title}"'s commands ran a second time, without this step's own: they count runs, not the outcome`);
            failed = 1;
          }
        }
      }
    }
    // each shortcut the author wrote down (a right-looking outcome made the wrong way), on a
    // copy of the machine as the step opened: the checks must still fail
    for (const b of step.blocks) {
      if (b.kind !== "shortcut" || !hasChecks(checked)) continue;
      const after = await onACopy([b.text], checked);
      if (!after) console.warn(`note ${file}:${b.line}: the shortcut stopped the machine (${stoppedWords(vm.stopped!)}); put back`);
      else if (after.ok && byView(step))
        // the guest's checks pass, and what refuses it is the view's verdict (the model against
        // the kernel's records), which needs the page: walk.e2e runs each shortcut there
        console.log(`shortcut ${file}:${b.line}: step ${i + 1}'s guest-side checks pass after it; its view's verdict (${byView(step)}) is left to walk.e2e, which must refuse it`);
      else if (after.ok) {
        console.error(`FAIL ${file}:${b.line}: step ${i + 1} "${step.title}" passes its checks after this shortcut, without the step's own commands: ${b.text.split("\n")[0].slice(0, 80)}`);
        failed = 1;
      } else console.log(`shortcut ${file}:${b.line}: step ${i + 1}'s checks fail after it, as they should (${after.items.find((x) => !x.ok)?.message.split("\n")[0].slice(0, 100)})`);
    }
    await vm.freshShell(); // nothing of the earlier steps' shell
    const solution = step.blocks.filter((b) => b.kind === "solution");
    const commands = commandsOf(step);
    for (const b of commands) {
      const r = await vm.run(b.text, 600_000, true).catch((e) => {
        if (!vm.stopped) throw e;
        return null; // a panic, a reboot or a halt: this lab fails, the next starts on a restored machine
      });
      if (!r) {
        console.error(`FAIL ${file}:${b.line}: step ${i + 1} "${step.title}": its ${b.kind} block stopped the machine: ${stoppedWords(vm.stopped!)}`);
        return { failed: 1, warned };
      }
      if (r.status !== 0) console.warn(`note ${file}:${b.line}: the ${b.kind} block exited with ${r.status}: ${r.output.trim().split("\n").slice(-2).join(" | ")}`);
    }
    await vm.traceSettled(); // the last trace lines on their way
    const code = codeStepOf(step);
    if (code && graderOf && !(await gradedAll(vm, code, await graderOf(code.code.grader), `${file}:${code.line}`, i, step.title))) return { failed: 1, warned };
    for (const b of step.blocks) {
      if (b.kind !== "predict") continue;
      const p = b.predict;
      const actual = "command" in p.actual ? commandActual((await vm.agent.run(p.actual.command, 30)).output) : countedActual(p, collect());
      // the kernel's answer must be one the learner could have given
      const answer = actual === null ? { error: "was not found" } : parseGuess(p, actual);
      if ("error" in answer) {
        console.error(`FAIL ${file}:${b.line}: step ${i + 1} "${step.title}": the prediction's answer ${actual === null ? answer.error : `"${actual}" does not fit it (${answer.error})`} after its commands ran`);
        return { failed: 1, warned };
      }
      // what the learner's guess will be set beside: the author sees it before the browser does
      console.log(`answer ${file}:${b.line}: step ${i + 1} "${step.title}": ${p.question} ${answer.value}${p.unit ? ` ${p.unit}` : ""}`);
      if (!(await held(p.key, answer.value, `${file}:${b.line}`))) return { failed: 1, warned };
    }
    if (!hasChecks(checked)) {
      // only a view can judge this step (its verdicts are the e2e tests'): its keyed questions still get their key
      for (const b of step.blocks)
        if (b.kind === "question" && b.question.key && keyOf)
          console.log(`question ${file}:${b.line}: step ${i + 1} "${step.title}": ${b.question.question} ${await keyOf(b.question.key)} for this learner (the model's key; the step's verdict is left to the e2e tests)`);
      continue;
    }
    const after = await runChecks(checked, handle, collect(), {});
    if (!after.ok) {
      for (const item of after.items.filter((x) => !x.ok)) {
        const block = step.blocks.find((b) => (b.kind === "check" && item.label.startsWith(b.text.split("\n")[0])) || b.kind === "expect");
        console.error(`FAIL ${file}:${block?.line ?? step.line}: step ${i + 1} "${step.title}" does not pass after its ${solution.length ? "solution" : "vm blocks"}: ${item.message}`);
      }
      return { failed: 1, warned };
    }
    // each question's answer, from this run: the page measures the learner's own the same way
    for (const b of step.blocks) {
      if (b.kind !== "question") continue;
      const q = asPrediction(b.question);
      if (!b.question.answer) {
        // the key alone answers it (no run measures it): the author sees this learner's key
        const key = b.question.key && keyOf ? await keyOf(b.question.key) : "(no key)";
        const image = b.question.key ? imageOf(b.question.key) : null;
        const whose = image !== null ? `read from /mnt/host/${image} by the inspector` : "the model's key";
        console.log(`question ${file}:${b.line}: step ${i + 1} "${step.title}": ${q.question} ${key} for this learner (${whose}; no run measures it)`);
        continue;
      }
      const actual = "command" in q.actual ? commandActual((await vm.agent.run(q.actual.command, 30)).output) : countedActual(q, collect());
      const answer = actual === null ? { error: "was not found" } : parseGuess(q, actual);
      if ("error" in answer) {
        console.error(`FAIL ${file}:${b.line}: step ${i + 1} "${step.title}": the question's answer ${actual === null ? answer.error : `"${actual}" does not fit it (${answer.error})`} once the step passed`);
        return { failed: 1, warned };
      }
      const leeway = toleranceText(b.question);
      console.log(`question ${file}:${b.line}: step ${i + 1} "${step.title}": ${q.question} ${answer.value}${q.unit ? ` ${q.unit}` : ""} in this run${leeway ? ` (judged ${leeway})` : ""}`);
      if (!(await held(q.key, answer.value, `${file}:${b.line}`, b.question))) return { failed: 1, warned };
    }
  }
  return { failed, warned };
}

/**
 * A code step, graded as the page would, over one run of its workload (the page too records the
 * run once and replays it for every later grade): its starter must not pass (a step the learner
 * passes without writing anything grades nothing), its reference must agree with the kernel in
 * every judged decision, and each of the grader's mutants of the reference (a flipped
 * comparison, an off-by-one...) must part from it at a numbered decision, built by the guest's
 * tcc as a learner's file is.
 */
async function gradedAll(vm: WalkVm, code: NonNullable<ReturnType<typeof codeStepOf>>, grader: CodeGrader, where: string, i: number, title: string): Promise<boolean> {
  const spec = { file: code.code.file, workload: code.workload };
  const run: GradeTraceCache = {};
  const starter = await gradeCode(vm, grader, spec, code.code.starter, run);
  if (starter.kind === "agree") {
    console.error(`FAIL ${where}: step ${i + 1} "${title}": the code block's starter already agrees with the kernel in all ${starter.decisions} decisions: there is nothing to write`);
    return false;
  }
  console.log(`code ${where}: step ${i + 1}'s starter does not pass, as it should: ${gradeLines(starter, code.code.file)[0]}`);
  const reference = await gradeCode(vm, grader, spec, code.solution, run);
  if (reference.kind !== "agree") {
    console.error(`FAIL ${where}: step ${i + 1} "${title}": its solution does not pass its grading:\n  ${gradeLines(reference, code.code.file).join("\n  ")}`);
    return false;
  }
  console.log(`code ${where}: step ${i + 1}'s solution ${gradeLines(reference, code.code.file)[0]}`);
  let caught = 0;
  for (const m of grader.mutants ?? []) {
    const v = await gradeCode(vm, grader, spec, mutate(grader.reference, m), run);
    if (v.kind !== "diverge" || v.at < 1) {
      console.error(`FAIL ${where}: step ${i + 1} "${title}": the mutant "${m.name}" is not caught at a decision: ${gradeLines(v, code.code.file)[0]}`);
      return false;
    }
    caught++;
  }
  if (caught) console.log(`code ${where}: step ${i + 1}'s ${caught} mutants of the reference each part from the kernel at a named decision`);
  // the learner's file as a learner who solved the step left it: the reference, not a mutant
  await writeGuestFile(vm, spec.file, code.solution);
  return true;
}

/** The views whose verdict a step's expect blocks ask for (judged only in the page), or "" if none. */
function byView(step: LabStep): string {
  return step.blocks.flatMap((b) => (b.kind === "expect" ? b.expect.flatMap((x) => (x.verdict ? [x.verdict] : [])) : [])).join(", ");
}
