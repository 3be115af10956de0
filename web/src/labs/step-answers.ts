// What a learner says in a step and what their machine says back (useStepState): a prediction
// kept before the kernel does it (and marked when made after measuring), its actual measured
// once the step passes, and a question's answer judged against their own run or the model's key
// for their problem.
import type { MutableRefObject } from "react";
import type { LabStep } from "./lab-format";
import type { SeenEvent } from "./expect";
import type { LabProgress } from "./progress";
import type { VmHandle } from "../shared/machine";
import type { HeldAnswer } from "../shared/topic";
import { commandActual, countedActual, eventsCounted, type Prediction, type PredictionRecord } from "./predict";
import { asPrediction, judgeAnswer, type Question, type QuestionRecord } from "./question";
import { computeKey } from "./keys";
import { loadCoreWeb } from "../shared/core-web";
import { TOPICS } from "../topics";

export interface StepAnswersContext {
  vm: VmHandle | null;
  /** kernel events the page parsed since the step opened */
  events(): readonly SeenEvent[];
  /** the open step, and its index */
  step: LabStep;
  n: number;
  progressRef: MutableRefObject<LabProgress>;
  update(f: (p: LabProgress) => void): void;
  /** the shell's line count as the step opened (null: no machine then) */
  linesAtOpen: MutableRefObject<number | null>;
}

export function stepAnswers({ vm, events, step, n, progressRef, update, linesAtOpen }: StepAnswersContext) {
  /** What the kernel did, as a prediction's `actual:` or a question's `answer:` says where to find it. */
  const measure = async (p: Prediction, before = 0): Promise<string | null> => {
    if (!vm) return null;
    if ("command" in p.actual) {
      const r = await vm.check(p.actual.command, 30).catch(() => null);
      return r && r.status === 0 ? commandActual(r.output) : null;
    }
    // the stream lags the guest: count again until no new event arrives for 1.5 s (at most 30 s)
    let count = countedActual(p, events(), before);
    for (let last = null as string | null, t = 0; count !== last && t < 20; t++) {
      last = count;
      await new Promise((r) => setTimeout(r, 1500));
      count = countedActual(p, events(), before);
    }
    return count;
  };

  /** the step's predict blocks, in order */
  const predictions = () => step.blocks.flatMap((b) => (b.kind === "predict" ? [b.predict] : []));

  /** What the kernel did, beside each prediction the learner made in this step. */
  const measureActuals = async () => {
    const preds = predictions();
    const recs = progressRef.current.steps[n].predictions ?? [];
    if (!vm || !preds.some((_, i) => recs[i])) return;
    const found: Array<string | null> = [];
    for (const [i, p] of preds.entries()) found.push(await measure(p, recs[i]?.countedBefore ?? 0));
    if (progressRef.current.step !== n) return;
    update((pr) => {
      const list = pr.steps[n].predictions ?? [];
      found.forEach((a, i) => {
        if (list[i] && a !== null) list[i]!.actual = a;
      });
      pr.steps[n].predictions = list;
    });
  };

  /**
   * Whether a guess at `p` now would come after measuring: the kernel has already done it (its
   * events are in the step's stream), or commands were entered since the step opened (`linesToo`):
   * a command's answer may be what they printed, and a count of events may be measured another
   * way (`filefrag` counts the runs a delete will discard, a private trace instance counts the
   * events); and the events of its actual counted so far. In a challenge the commands are the
   * step's own work (reading its settings, setting one), which a count of the kernel's events to
   * come does not follow from: there only the events mark such a guess.
   */
  const measuredNow = (p: Prediction, linesToo = true) => {
    const countedBefore = "count" in p.actual ? Number(countedActual(p, events()) ?? 0) : 0;
    const linesCount = linesToo && !("count" in p.actual && step.challenge);
    const typed = linesCount && linesAtOpen.current !== null && vm !== null && vm.shellLines() !== linesAtOpen.current;
    // measured already when its events are there, even those a sum: adds up to 0
    const done = "count" in p.actual && eventsCounted(p, events()) > 0;
    // a count of events marked by the commands alone: the page says so, not that the kernel had done it
    return { countedBefore, afterMeasuring: done || typed, commandsOnly: "count" in p.actual && typed && !done };
  };

  /**
   * Keep in the progress which of the step's open predictions the learner has measured already.
   * A reload or a reset takes the machine back and, like a visit to another step, starts the
   * step's events again; none takes back what the learner saw: a guess made after one of them
   * is still marked (commands entered in another step are not seen here). `linesToo` false:
   * entered lines do not count now (a set-up Run's lines are known as such only once it ends).
   */
  const noteMeasured = (linesToo: boolean) => {
    const rec = progressRef.current.steps[n];
    const found = predictions().map((p, i): Measured => {
      if (rec.predictions?.[i] || measuredBefore(rec.measured, i)) return false;
      const now = measuredNow(p, linesToo);
      return now.afterMeasuring && (now.commandsOnly ? "commands" : true);
    });
    if (!found.some(Boolean)) return;
    update((pr) => {
      const s = pr.steps[n];
      s.measured = found.map((f, i) => f || measuredBefore(s.measured, i));
    });
  };

  /**
   * A prediction answered (guess null: "no guess"). Its actual counts only what the kernel does
   * from now on; if the learner had measured it (now, or earlier in the step: noteMeasured) it
   * is marked as made after measuring.
   */
  const predict = (i: number, p: Prediction, guess: string | null, linesToo = true) => {
    const { countedBefore, afterMeasuring: now, commandsOnly: commandsNow } = measuredNow(p, linesToo);
    const earlier = now ? false : measuredBefore(progressRef.current.steps[n].measured, i);
    const afterMeasuring = now || !!earlier;
    const commandsOnly = now ? commandsNow : earlier === "commands";
    update((pr) => {
      const list = pr.steps[n].predictions ?? [];
      while (list.length <= i) list.push(null);
      list[i] = { question: p.question, guess, at: Date.now(), ...(afterMeasuring ? { afterMeasuring } : {}), ...(earlier ? { measuredEarlier: true } : {}), ...(countedBefore ? { countedBefore } : {}), ...(commandsOnly ? { commandsEntered: true } : {}) } satisfies PredictionRecord;
      pr.steps[n].predictions = list;
    });
  };

  /**
   * A question answered: the right answer measured in this learner's machine now, theirs judged
   * against it, both kept. An error (nothing measured) leaves the question open.
   */
  const answer = async (i: number, q: Question, given: string): Promise<{ error: string } | null> => {
    // a question the key alone answers has nothing to measure in the run
    const actual = q.answer ? await measure(asPrediction(q)) : "";
    if (actual === null) return { error: "Your machine did not give this question's answer (is the step's run still there? Reset this step if it was undone)." };
    // a question with a key is judged against the model's answer for this learner's problem
    let key: string | undefined;
    if (q.key)
      try {
        // a key that reads the learner's disk reads it from their machine now
        key = await computeKey(TOPICS, q.key, loadCoreWeb, vm ? (name) => vm.readSharedFile(name) : undefined);
      } catch (e) {
        return { error: `The model's answer for your problem could not be computed (${e instanceof Error ? e.message : e}): try again.` };
      }
    if (progressRef.current.step !== n) return null;
    update((pr) => {
      const s = pr.steps[n];
      const list = s.questions ?? [];
      while (list.length <= i) list.push(null);
      list[i] = { question: q.question, answer: given, actual, ...(key !== undefined ? { key } : {}), right: judgeAnswer(q, given, key ?? actual), at: Date.now() } satisfies QuestionRecord;
      s.questions = list;
      const tries = s.questionTries ?? [];
      while (tries.length <= i) tries.push(0);
      tries[i]++;
      s.questionTries = tries;
    });
    return null;
  };

  return { measureActuals, predict, answer, noteMeasured };
}

/** How a prediction was measured before its guess: not, by the kernel (or a command's answer), or by commands alone. */
type Measured = boolean | "commands";

/** A stored mark, read with care: a damaged store may hold anything there. */
function measuredBefore(measured: unknown, i: number): Measured {
  const m = Array.isArray(measured) ? measured[i] : undefined;
  return m === true || m === "commands" ? m : false;
}

/**
 * The keys of the lab's keyed questions not answered yet and keyed predictions not made yet, in
 * any step, each once. A view holds back a figure it prints that is one of their answers
 * (f2fs-clue's count of the NAT's valid NIDs, which its inspector reads off the very image the
 * key is computed from; exfat-empty-hint's totals, which its directory model can reach), so that
 * the learner works it out before the page shows it. A keyed question, once answered, stands (a
 * reset does not ask it again), and so does a prediction made, so the figure then shows for good.
 */
export function unansweredKeys(steps: readonly LabStep[], progress: LabProgress): HeldAnswer[] {
  const held = new Map<string, HeldAnswer>();
  // a key asked in two steps is held once, with the first step that asks it
  const hold = (key: Prediction["key"], step: number) => {
    if (!key) return;
    const id = JSON.stringify([key.model, Object.entries(key.params).sort(([a], [b]) => (a < b ? -1 : 1))]);
    if (!held.has(id)) held.set(id, { model: key.model, params: key.params, step });
  };
  steps.forEach((st, i) => {
    const rec = progress.steps[i];
    const questions = st.blocks.flatMap((b) => (b.kind === "question" ? [b.question.key] : []));
    const predicts = st.blocks.flatMap((b) => (b.kind === "predict" ? [b.predict.key] : []));
    questions.forEach((key, k) => rec?.questions?.[k] || hold(key, i + 1));
    predicts.forEach((key, k) => rec?.predictions?.[k] || hold(key, i + 1));
  });
  return [...held.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
}
