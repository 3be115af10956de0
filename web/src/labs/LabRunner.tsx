// A lab one step at a time: the outline (step N of M, a mark on each passed step), the step's
// text and commands, its checks (on "Check", on Next, and on their own every few seconds while
// the step is open), hints one at a time, the solution on request; the machine snapshotted as
// each step opens so "Reset this step" can put it back; progress kept in IndexedDB.
// The step's state is useStepState's, the machine's keeping useStepMachine's; the panels are
// StepBody, CheckPanel and LabPanels.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Lab } from "./lab-format";
import type { SeenEvent, Verdict } from "./expect";
import type { LabProgress } from "./progress";
import type { VmHandle } from "../shared/machine";
import type { HeldAnswer } from "../shared/topic";
import { useStepState } from "./useStepState";
import { useStepMachine } from "./useStepMachine";
import { StepBody } from "./StepBody";
import { CheckPanel } from "./CheckPanel";
import { HintsAndSolution, LabOutline, LabStatus, LabTools, Problems, StepNav } from "./LabPanels";
import { setupScript, SETUP_TIMEOUT, whenFilesIn } from "./lab-files";
import { unansweredKeys } from "./step-answers";
import { rememberHeld } from "../shared/held-answers";

/** What the lab page's views hold back as the open step stands (LabRunner's onHold). */
export interface ViewsHold {
  predicts: boolean;
  challenge: boolean;
  /** the keys of the lab's keyed questions not answered yet and predictions not made (unansweredKeys) */
  answers: readonly HeldAnswer[];
}

export interface RunnerProps {
  lab: Lab;
  progress: LabProgress;
  vm: VmHandle | null;
  /** the step whose snapshot the machine was started from (a reload), if it was */
  restoredStep: number | null;
  /** counts the machine ready again on the same handle (VmConsole onReadyAgain: a reset, a restore) */
  machineGen: number;
  /** kernel events the page parsed since clearEvents() */
  events(): readonly SeenEvent[];
  clearEvents(): void;
  verdicts: Readonly<Record<string, Verdict>>;
  /** a step passed its checks (for an embedding page) */
  onStepPassed?(step: number, title: string): void;
  /** counts up when an embedding page asks to reset the current step */
  resetRequest?: number;
  /** counts up when the learner asks for the machine back after a panic, an oops or a full disk */
  machineRequest?: number;
  /**
   * What the page's views hold back: the open step has a prediction not answered yet (they
   * wait for it), or a challenge not passed yet is this step or one after it (a view hides what
   * would answer it), and the keyed questions not answered yet (a view holds back a figure one asks for)
   */
  onHold?(hold: ViewsHold): void;
  /** every change of the learner's progress, as it is stored (an LMS's link reports it) */
  onProgress?(p: LabProgress): void;
}

export function LabRunner({ lab, progress: initial, vm, restoredStep, machineGen, events, clearEvents, verdicts, onStepPassed, resetRequest, machineRequest, onHold, onProgress }: RunnerProps) {
  // what went wrong (storage refused, a reset that could not be done): each once, until dismissed
  const [problems, setProblems] = useState<string[]>([]);
  const setProblem = useCallback((p: string) => setProblems((ps) => (ps.includes(p) ? ps : [...ps, p])), []);
  const s = useStepState({
    lab,
    initial,
    vm,
    machineGen,
    events,
    clearEvents,
    verdicts,
    setProblem,
    onPassed(step, title) {
      onStepPassed?.(step, title);
      void machine.keepPassed(step);
    },
  });
  const machine = useStepMachine({ labId: lab.meta.id, vm, n: s.n, restoredStep, events, onRestored: s.restored, setProblem, resetRequest, machineRequest });
  const { n, step, rec, passed } = s;
  useSetupScript(lab, n, vm, restoredStep, setProblem);
  const earlier = { earlierUndone: s.earlierUndone, goTo: s.go, steps: lab.steps };
  // a challenge here or ahead not passed yet: a step back to an earlier step must not show what it asks
  const challengeOpen = lab.steps.some((st, i) => st.challenge && i >= n && !s.progress.steps[i]?.passedAt);
  // as text, so that a progress update which leaves them as they were tells the views nothing new
  const answers = JSON.stringify(unansweredKeys(lab.steps, s.progress));
  useEffect(() => onHold?.({ predicts: s.predictsOpen, challenge: challengeOpen, answers: JSON.parse(answers) }), [s.predictsOpen, challengeOpen, answers]);
  // and for the playgrounds, which could compute them too
  useEffect(() => rememberHeld(lab.meta.id, JSON.parse(answers)), [lab.meta.id, answers]);
  useEffect(() => onProgress?.(s.progress), [s.progress]);

  return (
    <div className="lab-runner" data-step={n} data-passed={passed ? 1 : 0} data-auto-checks={rec.autoChecks} data-challenge={step.challenge ? 1 : 0}>
      <LabOutline lab={lab} progress={s.progress} n={n} go={s.go} />

      <section className="step" aria-labelledby="step-title">
        <h2 id="step-title" tabIndex={-1} ref={s.heading}>
          {n + 1}. {step.title}
        </h2>
        <StepBody
          step={step}
          vm={vm}
          done={passed || !!rec.skippedAt}
          passed={passed}
          predictions={rec.predictions ?? []}
          onPredict={s.predict}
          onSetUp={s.setUpRan}
          questions={rec.questions ?? []}
          tries={rec.questionTries ?? []}
          onAnswer={s.answer}
          code={s.code ? { rec: rec.code, ready: !!vm && !s.predictsOpen, fileIn: s.codeFileIn, grading: s.grading, onText: s.codeText, onGrade: (t) => void s.gradeFunction(t), onReload: s.reloadCode, moment: s.moment } : null}
          {...earlier}
        />

        {/* a code step's verdict is its grade, shown with the editor */}
        {/* keyed by step: "What this step checks" opens closed on each step */}
        {s.checked && !s.code && (
          <CheckPanel key={n} step={step} outcome={s.outcome} checking={s.checking} waitingShell={s.waitingShell} passed={passed} predictsOpen={s.predictsOpen} vm={vm} onCheck={() => void s.check("asked")} />
        )}

        <HintsAndSolution
          step={step}
          rec={rec}
          vm={vm}
          locked={s.predictsOpen}
          failed={s.outcome && !s.outcome.ok ? s.outcome.items.filter((i) => !i.ok && !i.error).flatMap((i) => i.message.split("\n")) : []}
          failedAsked={s.failedAsked}
          onHint={s.showHint}
          onSolution={() => s.update((p) => (p.steps[n].solutionShown = true))}
          {...earlier}
        />
      </section>

      <StepNav n={n} steps={lab.steps.length} passed={passed} checking={s.checking} offerSkip={s.offerSkip} go={s.go} next={() => void s.next()} skip={s.skip} />
      <LabTools lab={lab} vm={vm} busy={!!machine.busy} progress={() => s.progressRef.current} openStep={() => ({ step: n, ms: s.openMs() })} resetStep={() => void machine.resetStep()} />
      <LabStatus busy={machine.busy} timing={machine.timing} />
      <Problems problems={problems} dismiss={() => setProblems([])} />
    </div>
  );
}

/**
 * The open step's set-up script (`setup-<N>.sh` in the lab's files, lab-files.ts) run through the
 * check agent as the step opens, once the lab's files are in the guest; not for the step a
 * reload's machine was kept at (its set-up is in that machine already). A failure is a problem.
 */
function useSetupScript(lab: Lab, n: number, vm: VmHandle | null, restoredStep: number | null, setProblem: (p: string) => void) {
  const ran = useRef<number | null>(restoredStep);
  useEffect(() => {
    const script = setupScript(lab.meta.files, n);
    if (!vm || !script || ran.current === n) return;
    ran.current = n;
    void whenFilesIn(lab.meta.id)
      .then(() => vm.check(`bash ${script}`, SETUP_TIMEOUT))
      .then((r) => {
        if (r.status !== 0) setProblem(`This step's set-up (${script}) failed (${r.status === "timeout" ? "timed out" : `exit ${r.status}`}): ${r.output.trim().split("\n").slice(-3).join(" ")}`);
      })
      .catch((e) => setProblem(`This step's set-up (${script}) could not run: ${e instanceof Error ? e.message : e}`));
  }, [lab, n, vm, setProblem]);
}
