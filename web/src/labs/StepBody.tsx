// A step's text as the learner reads it: Markdown, commands with their Run buttons, predictions
// asked before the measurement, and what the step taught (closed until it passes and its
// questions have answers). Hints and the solution are LabPanels'.
import { useEffect, useId, useRef, useState } from "react";
import { renderInlineMarkdown, renderMarkdown } from "./markdown";
import type { LabStep } from "./lab-format";
import type { VmHandle } from "../shared/machine";
import { parseGuess, predictionVerdict, type Prediction, type PredictionRecord } from "./predict";
import { RunButton, type Earlier } from "./RunButton";
import { judgeAnswer, parseAnswer, toleranceText, type Question, type QuestionRecord } from "./question";
import { CodeStep, type CodeStepProps } from "./CodeStep";

/**
 * For a control that goes away when `done` turns true (a form answered, a Check that passed):
 * `target` takes the keyboard then, if `armed` says the control had it, so it does not fall to
 * the page's body.
 */
export function useFocusAfter<T extends HTMLElement>(done: boolean) {
  const armed = useRef(false);
  const target = useRef<T>(null);
  useEffect(() => {
    if (done && armed.current) target.current?.focus();
    armed.current = false;
  }, [done]);
  return { armed, target };
}

/** A question answered before the measurement; once the step passes, the kernel's answer beside it. */
function PredictBox({ p, rec, onAnswer }: { p: Prediction; rec: PredictionRecord | null; onAnswer(guess: string | null): void }) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  // answered here, now: the form goes, and the keyboard moves to what was recorded
  const { armed: answeredHere, target: recorded } = useFocusAfter<HTMLParagraphElement>(!!rec);
  const answer = (guess: string | null) => {
    answeredHere.current = true;
    onAnswer(guess);
  };
  const submit = () => {
    const g = parseGuess(p, text);
    if ("error" in g) return setProblem(g.error);
    setProblem(null);
    answer(g.value);
  };
  const unit = p.unit ? ` ${p.unit}` : "";
  return (
    <fieldset className="predict" data-testid="predict" data-answered={rec ? 1 : 0} data-guess={rec?.guess ?? ""} data-actual={rec?.actual ?? ""} data-after-measuring={rec?.afterMeasuring ? 1 : undefined}>
      <legend>Predict first</legend>
      {/* inline Markdown (`code`, *emphasis*, links), sanitized */}
      <label htmlFor={id} dangerouslySetInnerHTML={{ __html: renderInlineMarkdown(p.question) }} />
      {!rec ? (
        <form onSubmit={(e) => (e.preventDefault(), submit())}>
          {p.choices ? (
            <select id={id} value={text} onChange={(e) => setText(e.target.value)}>
              <option value="">choose…</option>
              {p.choices.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          ) : (
            <input id={id} inputMode="decimal" value={text} onChange={(e) => setText(e.target.value)} size={12} aria-invalid={!!problem} aria-describedby={problem ? `${id}-err` : undefined} />
          )}
          {unit && <span>{unit}</span>} <button type="submit">Record my prediction</button>{" "}
          <button type="button" onClick={() => answer(null)}>
            No guess
          </button>
          {problem && (
            <p className="error" id={`${id}-err`} role="alert">
              {problem}
            </p>
          )}
        </form>
      ) : (
        <p role="status" tabIndex={-1} ref={recorded}>
          {rec.guess === null ? "You made no guess." : `You predicted ${rec.guess}${unit}.`}{" "}
          {rec.afterMeasuring && (
            <strong data-testid="after-measuring">
              Made after measuring:{" "}
              {"count" in p.actual && !rec.commandsEntered ? "the kernel had already done it when you answered" : "you had entered commands since the step opened"}
              {rec.measuredEarlier && " (before the page was reloaded, the step reset or left)"}
              {"count" in p.actual
                ? ", so this is recorded as a guess made after the fact, and only what ran after it counts."
                : ", so this is recorded as a guess made after the fact, and not judged."}{" "}
            </strong>
          )}
          {rec.actual === undefined
            ? "The kernel's answer appears here once this step passes."
            : // a command's answer is the machine's state at the end: a guess made after commands is not held to it
              `The kernel: ${rec.actual}${unit}${rec.guess === null || (rec.afterMeasuring && !("count" in p.actual)) ? "." : predictionVerdict(rec.guess, rec.actual, !!p.choices, unit)}`}
        </p>
      )}
    </fieldset>
  );
}

/**
 * A question about the learner's own run: open once the step has passed; their answer judged
 * against what their machine measures as they answer (useStepState's answer()). `hidden`: a
 * challenge not passed yet, whose question's words could tell how it is done (exfat-discard's
 * "made the same way but 8 KiB at a time, with 4 KiB of the other file between two appends").
 */
function QuestionBox({ q, rec, tries, open, hidden, onAnswer }: { q: Question; rec: QuestionRecord | null; tries: number; open: boolean; hidden: boolean; onAnswer(text: string): Promise<{ error: string } | null> }) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const { armed: answeredHere, target: recorded } = useFocusAfter<HTMLParagraphElement>(!!rec);
  const submit = async () => {
    if (busy) return;
    const a = parseAnswer(q, text);
    if ("error" in a) return setProblem(a.error);
    setProblem(null);
    setBusy(true);
    answeredHere.current = true;
    const r = await onAnswer(a.value).finally(() => setBusy(false));
    if (r) setProblem(r.error);
  };
  const unit = q.unit ? ` ${q.unit}` : "";
  const leeway = toleranceText(q);
  // the model's key for the learner's problem alone answers it: no run to measure, one answer (recordReset)
  const aboutKernel = !!q.key && !q.answer;
  return (
    <fieldset
      className="predict question"
      data-testid="question"
      data-answered={rec ? 1 : 0}
      data-answer={rec?.answer ?? ""}
      data-actual={rec?.actual ?? ""}
      data-key={rec?.key ?? ""}
      data-right={rec ? (rec.right ? 1 : 0) : ""}
      data-tries={tries}
    >
      <legend>{aboutKernel ? "A question about your problem" : "A question about your run"}</legend>
      {hidden && !rec ? (
        <p className="muted" data-testid="question-hidden">
          This challenge&apos;s question shows here once the step passes: its words could tell how the step is done.
        </p>
      ) : (
        <label htmlFor={id} dangerouslySetInnerHTML={{ __html: renderInlineMarkdown(q.question) }} />
      )}
      {rec ? (
        <p role="status" tabIndex={-1} ref={recorded}>
          You answered {rec.answer}
          {unit}.{" "}
          {rec.key !== undefined && !q.answer ? (
            <>
              The model's answer for your problem: {rec.key}
              {unit}
            </>
          ) : rec.key === undefined ? (
            <>
              Your run: {rec.actual}
              {unit}
            </>
          ) : (
            <>
              For your problem the model computes {rec.key}
              {unit}; your kernel measured {rec.actual}
              {unit}
              {judgeAnswer(q, rec.actual, rec.key) ? "" : " (your run did something other than your problem: read the step again)"}
            </>
          )}
          : {rec.right ? "right." : `not right${leeway && leeway !== "exactly" ? ` (an answer ${leeway.replace(/^give or take /, "within ")} of it counts)` : ""}.`}{" "}
          {aboutKernel
            ? "This answer stands: it is about your problem, not a run, so a reset does not ask it again."
            : rec.key !== undefined
              ? "This answer stands: your problem's answer is the same after any run, so a reset does not ask it again."
              : "Reset this step to answer again about a new run."}
        </p>
      ) : hidden ? null : !open ? (
        <p className="muted">
          {aboutKernel
            ? "Answer once this step has passed: the answer is your own problem's, and you answer once."
            : "Answer once this step has passed: the answer comes from your own run, measured in your machine."}
        </p>
      ) : (
        <form onSubmit={(e) => (e.preventDefault(), void submit())}>
          {q.choices ? (
            <select id={id} value={text} onChange={(e) => setText(e.target.value)}>
              <option value="">choose…</option>
              {q.choices.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          ) : (
            <input id={id} inputMode="decimal" value={text} onChange={(e) => setText(e.target.value)} size={12} aria-invalid={!!problem} aria-describedby={problem ? `${id}-err` : undefined} />
          )}
          {unit && <span>{unit}</span>}{" "}
          <button type="submit" aria-disabled={busy}>
            {busy ? "Measuring your run…" : "Answer"}
          </button>
          {problem && (
            <p className="error" id={`${id}-err`} role="alert">
              {problem}
            </p>
          )}
        </form>
      )}
    </fieldset>
  );
}

export function StepBody({
  step,
  vm,
  done,
  passed,
  predictions,
  onPredict,
  onSetUp,
  questions,
  tries,
  onAnswer,
  code,
  ...earlier
}: {
  step: LabStep;
  vm: VmHandle | null;
  done: boolean;
  /** the step's checks passed: its questions may be answered */
  passed: boolean;
  predictions: ReadonlyArray<PredictionRecord | null>;
  onPredict(i: number, p: Prediction, guess: string | null): void;
  /** a block above the step's first prediction ran (its set-up, not its measurement): the shell's lines before and after it */
  onSetUp?(before: number, after: number | null): void;
  questions: ReadonlyArray<QuestionRecord | null>;
  tries: readonly number[];
  onAnswer(i: number, q: Question, text: string): Promise<{ error: string } | null>;
  /** a code step's editor and grading (useStepState); null for other steps */
  code?: Omit<CodeStepProps, "code"> | null;
} & Earlier) {
  let k = 0; // predict blocks so far
  let qi = 0; // question blocks so far
  let unanswered = false; // a prediction above is still open: the measurement waits for it
  const firstPredict = step.blocks.findIndex((b) => b.kind === "predict"); // blocks above it set up
  // a passed step's questions come before what it teaches, which could answer them
  const asking = passed && step.blocks.filter((b) => b.kind === "question").some((_, i) => !questions[i]);
  return (
    <>
      {step.blocks.map((b, j) => {
        if (b.kind === "markdown") return <div key={j} dangerouslySetInnerHTML={{ __html: renderMarkdown(b.text) }} />;
        // after the step: it may answer the step's predictions
        if (b.kind === "learned")
          return (
            <section key={j} className="learned" data-testid="learned" data-shown={done && !asking ? 1 : 0} aria-label="What you learned">
              <h3>What you learned</h3>
              {done && !asking ? (
                <div dangerouslySetInnerHTML={{ __html: renderMarkdown(b.text) }} />
              ) : (
                <p className="muted">{asking ? "Shown once you have answered this step's questions (any answer opens it), so that it does not answer them for you." : "Shown once this step passes (or is skipped), so that it does not give the step's answers away."}</p>
              )}
            </section>
          );
        if (b.kind === "predict") {
          const i = k++;
          const rec = predictions[i] ?? null;
          if (!rec) unanswered = true;
          return <PredictBox key={j} p={b.predict} rec={rec} onAnswer={(g) => onPredict(i, b.predict, g)} />;
        }
        if (b.kind === "question") {
          const i = qi++;
          return <QuestionBox key={j} q={b.question} rec={questions[i] ?? null} tries={tries[i] ?? 0} open={passed} hidden={!!step.challenge && !passed} onAnswer={(t) => onAnswer(i, b.question, t)} />;
        }
        if (b.kind === "code") return code ? <CodeStep key={j} code={b.code} {...code} /> : null;
        if (b.kind === "workload")
          return (
            <details key={j} className="workload">
              <summary>What the grading runs in the guest</summary>
              <pre tabIndex={0}>
                <code>{b.text}</code>
              </pre>
            </details>
          );
        if (b.kind === "vm")
          return (
            <div key={j} className="vm-cmd">
              {/* focusable: a long command scrolls sideways, and a keyboard must reach it (axe: scrollable-region-focusable) */}
              <pre tabIndex={0}>
                <code>{b.text}</code>
              </pre>
              <RunButton
                vm={vm}
                text={b.text}
                label="Run in VM"
                locked={unanswered ? "Predict first (or choose No guess): the answer above is kept beside what the kernel does." : undefined}
                onTyped={k === 0 && firstPredict > j ? onSetUp : undefined}
                {...earlier}
              />
            </div>
          );
        return null;
      })}
    </>
  );
}
