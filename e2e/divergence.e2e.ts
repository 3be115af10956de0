// The find-the-divergence lab (labs/dd-divergence), solved in the guest for every rule the
// kernel's switch can break (kernel-image/patches/0007): the lab's own set-up and solution run
// for a learner whose token breaks that rule, the trace is replayed through the model as the
// page's panel does, and the first decision where they part must point at that rule, the one
// `fslab labs key` gives as the learner's answer. With the switch at 0 they agree throughout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { NodeVm } from "../web/src/vm/node/node-vm";
import { parseLab, type Lab } from "../web/src/labs/lab-format";
import { commandsOf } from "../web/src/labs/checks";
import { ANSWERS, VIEW_IDS } from "../web/src/topics";
import { loadCoreModule } from "../web/src/shared/node-load";
import { replayDdDecisions, runLimits, type DdReplay } from "../web/src/topics/blk/dd-kernel";
import { ddRunStart, ddRunTrace, dispatchRuns, splitRuns } from "../web/src/topics/blk/dd-runs";
import { ddRunVerdict } from "../web/src/topics/blk/KernelDeadline";
import { DIVERGE_RULES, divergeRule, ruleOfDivergence, type DivergeRule } from "../web/src/topics/blk/divergence";

const source = readFileSync(new URL("../labs/dd-divergence/lab.md", import.meta.url), "utf8");
const labFor = (identity: string) => parseLab(source, VIEW_IDS, "labs/dd-divergence/lab.md", "dd-divergence", { identity, answers: ANSWERS });

/** a learner whose token breaks each rule (the first found of learner-0, learner-1, ...) */
const learners = new Map<DivergeRule, Lab>();
for (let i = 0; learners.size < DIVERGE_RULES.length && i < 1000; i++) {
  const lab = labFor(`learner-${i}`);
  const rule = divergeRule(lab.seed.values.token as number)!;
  if (!learners.has(rule)) learners.set(rule, lab);
}

let vm: NodeVm;
let fresh: ArrayBuffer;
beforeAll(async () => {
  vm = new NodeVm();
  await vm.boot();
  fresh = await vm.saveState();
});
afterAll(() => vm?.destroy());

/** a step's commands (its solution, or its vm blocks) in the guest's shell */
async function runStep(lab: Lab, i: number): Promise<void> {
  for (const b of commandsOf(lab.steps[i])) {
    const r = await vm.run(b.text, 600_000, true);
    expect(r.status, `${lab.steps[i].title}: ${r.output}`).toBe(0);
  }
}

/**
 * the newest run's verdict in the trace so far, as the lab's panel judges it
 * (KernelDeadlineLive): each run starts from the scheduler's state the runs before it left
 */
async function newestVerdict(lines: string[]) {
  const all = splitRuns(lines);
  const shown = dispatchRuns(all);
  expect(shown.length).toBeGreaterThan(0);
  const traces = shown.map((i) => ddRunTrace(all[i]));
  const last = shown.length - 1;
  const { start } = ddRunStart(all, shown, traces, last);
  const replay = replayDdDecisions(await loadCoreModule("blk"), traces[last], undefined, undefined, start);
  return { replay, verdict: ddRunVerdict(shown.length, replay, undefined, runLimits(traces[last])) };
}

describe("the divergence lab, solved for every rule the switch breaks", () => {
  it("has a learner for each rule", () => expect([...learners.keys()].sort()).toEqual([...DIVERGE_RULES].sort()));

  for (const rule of DIVERGE_RULES)
    it(`${rule}: the lab's workload makes the kernel part from the model at a decision that points at it`, async () => {
      const lab = learners.get(rule)!;
      await vm.restoreState(fresh);
      await vm.freshShell();
      vm.trace.takeLines();
      await runStep(lab, 0);
      await vm.freshShell();
      await runStep(lab, 1);
      await vm.traceSettled();
      const lines = vm.trace.takeLines();
      const { replay, verdict } = await newestVerdict(lines);
      expect(verdict.state, verdict.detail).toBe("disagree");
      const first = replay.verdicts.find((v) => v.judged && !v.sameReasons)!;
      expect(ruleOfDivergence(first), verdict.detail).toBe(rule);
      // and the key the learner is judged against names the same rule
      const q = lab.steps[1].blocks.find((b) => b.kind === "question")!;
      expect(q.kind === "question" && q.question.key?.params.token).toBe(lab.seed.values.token);
      if (rule === "deadline check") {
        // the switch left as it is, under deadlines every read has missed and no write reaches:
        // checking the FIFO's newest request decides as checking its oldest, so this run must
        // not pass for put right (ddRunVerdict waits for a batch the deadline check decided)
        await vm.freshShell();
        const I = "/sys/block/nullb1/queue/iosched";
        const r = await vm.run(`echo 0 > ${I}/read_expire; echo 100000 > ${I}/write_expire; load; echo 100 > ${I}/read_expire; echo 400 > ${I}/write_expire`, 600_000, true);
        expect(r.status, r.output).toBe(0);
        await vm.traceSettled();
        lines.push(...vm.trace.takeLines());
        const hole = await newestVerdict(lines);
        expect(hole.verdict.state, hole.verdict.detail).not.toBe("agree");
      }
      // put right (the lab's last step), the same workload agrees throughout
      await vm.freshShell();
      await runStep(lab, 2);
      await vm.traceSettled();
      const after = await newestVerdict([...lines, ...vm.trace.takeLines()]);
      expect(after.verdict.state, after.verdict.detail).toBe("agree");
    }, 600_000);

  // A slow host: the guest's clock keeps real time and its CPU does not, so each dispatch takes
  // longer in guest time and every request waits longer for its turn. Deadlines a tenth as long
  // stand for a host ten times slower: in the mix every read's deadline passes after the first
  // batches, and only load's lone reader (2 in flight) still begins batches in sector order
  // with time left. The lab's last step must still pass there.
  it("put right, the workload still takes every rule to its limit with deadlines a tenth as long", async () => {
    const lab = learners.get("batch length")!;
    await vm.restoreState(fresh);
    await vm.freshShell();
    vm.trace.takeLines();
    await runStep(lab, 0);
    await vm.freshShell();
    const I = "/sys/block/nullb1/queue/iosched";
    const r = await vm.run(`echo 0 > /sys/module/mq_deadline/parameters/diverge; echo 10 > ${I}/read_expire; echo 40 > ${I}/write_expire; load`, 600_000, true);
    expect(r.status, r.output).toBe(0);
    await vm.traceSettled();
    const { replay, verdict } = await newestVerdict(vm.trace.takeLines());
    expect(verdict.state, verdict.detail).toBe("agree");
    // and batches begun in sector order came from the lone reader: its 64 requests (none
    // merges, for gaps lie between them) are the run's last decisions
    const sortedStarts = (ks: DdReplay["verdicts"]) => ks.filter((v) => v.judged && v.kernel.because !== "batch" && v.kernel.pick === "sorted").length;
    expect(sortedStarts(replay.verdicts.slice(-64))).toBeGreaterThan(0);
  }, 600_000);
});
