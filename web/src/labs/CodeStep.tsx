// A code step as the learner meets it (code-block.ts): the function in an editor (its own chunk,
// CodeEditor.tsx), "Compile and grade", "Reload from the VM" for an edit made in the terminal,
// and the grade: compile errors at their lines, "agrees in all N decisions", or the first
// decision their function made otherwise, with what it was made from.
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from "react";
import type { CodeSpec } from "./code-block";
import type { CodeRecord } from "./progress";
import type { CodeMoment, CompileMessage } from "./code-grade";
import type { GradeMomentProps } from "../shared/grade";

const CodeEditor = lazy(() => import("./CodeEditor"));
const NO_MESSAGES: readonly CompileMessage[] = [];
/** the learner's text goes into their progress this long after their last keystroke (an IndexedDB write each) */
const SAVE_AFTER_MS = 800;

export interface CodeStepProps {
  code: CodeSpec;
  rec: CodeRecord | undefined;
  /** the machine can run a grade (it is up and the step's prediction, if any, answered) */
  ready: boolean;
  /** the guest has the step's file (written as the step opened, or found there) */
  fileIn: boolean;
  grading: string | null;
  onText(text: string): void;
  onGrade(text: string): void;
  onReload(): Promise<string | null>;
  /** the last grade's divergence, drawn by the topic's view (when its grader has one) */
  moment?: CodeMoment | null;
}

/** The topic's own view of the decision where the learner's function parted from the kernel. */
function Moment({ moment }: { moment: CodeMoment }) {
  const [View, setView] = useState<ComponentType<GradeMomentProps> | null>(null);
  useEffect(() => {
    let live = true;
    moment.load().then((c) => live && setView(() => c), () => {});
    return () => {
      live = false;
    };
  }, [moment.load]);
  return (
    <section className="grade-moment" aria-label={`Decision ${moment.at} in the lab's view`} data-testid="grade-moment" data-at={moment.at}>
      <h4>Decision {moment.at} in the lab&apos;s view</h4>
      {View ? <View key={`${moment.at}:${moment.stdout.length}`} trace={moment.trace} stdout={moment.stdout} at={moment.at} /> : <p className="muted">Loading the view…</p>}
    </section>
  );
}

export function CodeStep({ code, rec, ready, fileIn, grading, onText, onGrade, onReload, moment }: CodeStepProps) {
  const [text, setText] = useState(rec?.text ?? code.starter);
  const [note, setNote] = useState<string | null>(null);
  // the progress's text is the learner's: the record gone (Start over) brings the starter back
  const had = useRef(rec !== undefined);
  useEffect(() => {
    if (had.current && rec === undefined) setText(code.starter);
    had.current = rec !== undefined;
  }, [rec === undefined]);
  const last = rec?.last;
  const messages: readonly CompileMessage[] = last?.messages ?? NO_MESSAGES;
  // kept in the progress a moment after the last keystroke, and whatever is pending as the step
  // closes (a grade keeps the text it grades itself)
  const pending = useRef<{ text: string; timer: ReturnType<typeof setTimeout> } | null>(null);
  const save = useRef(onText);
  save.current = onText;
  const flush = () => {
    if (!pending.current) return;
    clearTimeout(pending.current.timer);
    save.current(pending.current.text);
    pending.current = null;
  };
  useEffect(() => flush, []);
  const edit = (t: string) => {
    setText(t);
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = { text: t, timer: setTimeout(flush, SAVE_AFTER_MS) };
  };
  // as the guest has the file: is it this text? A machine put back to an older
  // moment (a reload, a reset) holds the file as it was then, and an edit made in the terminal
  // is not in the editor until it is read: say so, and let the learner choose (nothing is lost)
  const compared = useRef(false);
  const latest = useRef(text);
  latest.current = text;
  useEffect(() => {
    if (!fileIn || compared.current) return;
    let live = true;
    // a machine just restored, or busy with the step's own checks, may not answer at once
    const compare = (tries: number) =>
      onReload().then(
        (t) => {
          if (!live) return;
          compared.current = true;
          if (t !== null && t !== latest.current)
            setNote(`The guest's ${code.file} is not this editor's text (an edit made in the terminal, or a machine put back to an older moment): Reload from the VM takes the guest's; Compile and grade writes this text there.`);
        },
        () => {
          if (live && tries > 1) setTimeout(() => void compare(tries - 1), 3000);
        },
      );
    void compare(3);
    return () => {
      live = false;
    };
  }, [fileIn]);
  const reload = async () => {
    setNote(null);
    const t = await onReload().catch((e) => {
      setNote(`Could not read ${code.file}: ${e instanceof Error ? e.message : e}`);
      return undefined;
    });
    if (t === null) setNote(`There is no ${code.file} in the guest yet: Compile and grade writes this text there.`);
    else if (t !== undefined) {
      edit(t);
      setNote(`Read ${code.file} from the guest.`);
    }
  };
  return (
    <section className="code-step" aria-label="Your function" data-testid="code-step" data-file-in={fileIn ? "1" : "0"} data-grades={rec?.grades ?? 0} data-verdict={last?.kind ?? ""}>
      <p className="muted">
        <code>{code.file}</code> in the guest: this editor and an editor in the terminal edit that one file.
      </p>
      <Suspense fallback={<pre className="code-editor-loading">{text}</pre>}>
        <CodeEditor value={text} onChange={edit} messages={messages} label={`Your ${code.file.split("/").pop()}`} />
      </Suspense>
      <div className="code-actions">
        <button onClick={() => ready && grading === null && (flush(), setNote(null), onGrade(text))} aria-disabled={!ready || grading !== null} data-testid="grade">
          {grading ?? "Compile and grade"}
        </button>{" "}
        <button onClick={() => void reload()} disabled={grading !== null}>
          Reload from the VM
        </button>{" "}
        <button onClick={() => edit(code.starter)} disabled={grading !== null}>
          Start again from the starter
        </button>
      </div>
      {!ready && <p className="muted">The machine is not ready to grade yet{grading === null ? " (it is starting, or a prediction above is open)" : ""}.</p>}
      {note && (
        <p role="status" data-testid="code-note">
          {note}
        </p>
      )}
      <div aria-live="polite" data-testid="grade-result">
        {last && (
          <div className={`grade grade-${last.kind}`}>
            <strong>{{ compile: "It does not compile:", crash: "Your function did not finish the replay:", error: "The grading could not run:", agree: "Passed:", diverge: "Not yet:" }[last.kind]}</strong>
            <pre tabIndex={0}>{last.lines.join("\n")}</pre>
          </div>
        )}
      </div>
      {moment && last?.kind === "diverge" && <Moment moment={moment} />}
    </section>
  );
}
