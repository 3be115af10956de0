// A step's text as the learner reads it: Markdown, commands with their Run buttons, predictions
// asked before the measurement, and what the step taught (closed until it passes). Hints and the
// solution are LabPanels'.
import { useEffect, useId, useRef, useState } from "react";
import { renderInlineMarkdown, renderMarkdown } from "./markdown";
import type { LabStep } from "./lab-format";
import type { VmHandle } from "../vm/VmConsole";
import { near, parseGuess, type Prediction, type PredictionRecord } from "./predict";
import { RunButton, type Earlier } from "./RunButton";

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
    <fieldset className="predict" data-testid="predict" data-answered={rec ? 1 : 0} data-guess={rec?.guess ?? ""} data-actual={rec?.actual ?? ""}>
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
          {rec.actual === undefined
            ? "The kernel's answer appears here once this step passes."
            : `The kernel: ${rec.actual}${unit}${rec.guess === null ? "." : near(rec.guess, rec.actual) ? ": your prediction was right." : p.choices ? ": not what you predicted." : ": further off than 10%; the text below says why."}`}
        </p>
      )}
    </fieldset>
  );
}

export function StepBody({ step, vm, done, predictions, onPredict, ...earlier }: { step: LabStep; vm: VmHandle | null; done: boolean; predictions: ReadonlyArray<PredictionRecord | null>; onPredict(i: number, p: Prediction, guess: string | null): void } & Earlier) {
  let k = 0; // predict blocks so far
  let unanswered = false; // a prediction above is still open: the measurement waits for it
  return (
    <>
      {step.blocks.map((b, j) => {
        if (b.kind === "markdown") return <div key={j} dangerouslySetInnerHTML={{ __html: renderMarkdown(b.text) }} />;
        // after the step: it may answer the step's predictions
        if (b.kind === "learned")
          return (
            <section key={j} className="learned" data-testid="learned" data-shown={done ? 1 : 0} aria-label="What you learned">
              <h3>What you learned</h3>
              {done ? <div dangerouslySetInnerHTML={{ __html: renderMarkdown(b.text) }} /> : <p className="muted">Shown once this step passes (or is skipped), so that it does not give the step's answers away.</p>}
            </section>
          );
        if (b.kind === "predict") {
          const i = k++;
          const rec = predictions[i] ?? null;
          if (!rec) unanswered = true;
          return <PredictBox key={j} p={b.predict} rec={rec} onAnswer={(g) => onPredict(i, b.predict, g)} />;
        }
        if (b.kind === "vm")
          return (
            <div key={j} className="vm-cmd">
              <pre>
                <code>{b.text}</code>
              </pre>
              <RunButton vm={vm} text={b.text} label="Run in VM" locked={unanswered ? "Predict first (or choose No guess): the answer above is kept beside what the kernel does." : undefined} {...earlier} />
            </div>
          );
        return null;
      })}
    </>
  );
}
