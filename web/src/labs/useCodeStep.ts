// A code step's part of the open step's state (useStepState): the learner's text as they type,
// their file put into the guest as the step opens, and "Compile and grade" against their own
// kernel's recorded run (code-grade.ts), with the moment it diverged for the topic's view.
import { useEffect, useRef, useState, type MutableRefObject } from "react";
import type { LabProgress } from "./progress";
import type { VmHandle } from "../shared/machine";
import { TOPICS } from "../topics";
import { keepGradeTrace, keptGradeTrace } from "./grade-trace-store";
import { ensureGuestFile, gradeCode, gradeLines, graderMoment, loadGrader, readGuestFile, codeStepOf, type CodeMoment, type GradeTraceCache } from "./code-grade";

export interface CodeStepOptions {
  vm: VmHandle | null;
  /** the open step */
  n: number;
  /** its code block, or null: not a code step */
  code: ReturnType<typeof codeStepOf>;
  progressRef: MutableRefObject<LabProgress>;
  update(f: (p: LabProgress) => void): void;
  /** the step's checks, as "Check" runs them */
  check(why: "asked"): Promise<unknown>;
  /** the learner's own grade failed: the reference is offered, as a challenge's failed check does */
  onFailed(): void;
  /** counts the machine ready again on the same handle (a reset, a restore after a crash, a reboot): each may have undone the file */
  machineGen: number;
}

function readable(grader: Awaited<ReturnType<typeof loadGrader>>, trace: string): boolean {
  try {
    grader.input(trace);
    return true;
  } catch {
    return false;
  }
}

export function useCodeStep({ vm, n, code, progressRef, update, check, onFailed, machineGen }: CodeStepOptions) {
  /** what the code step's grading is doing now, for its button; null: nothing */
  const [grading, setGrading] = useState<string | null>(null);

  /** The code step's text as the learner types (kept with their progress, not yet in the guest). */
  const codeText = (text: string) =>
    update((p) => {
      const s = p.steps[n];
      s.code = { grades: 0, ...s.code, text };
    });

  /** the last grade's divergence, for the topic's view of it (this page only: not in the progress) */
  const [moment, setMoment] = useState<CodeMoment | null>(null);

  /** each code step's recorded workload, for this page's later grades (code-grade.ts GradeTraceCache) */
  const gradeTraces = useRef<Record<number, GradeTraceCache>>({});

  /** The learner's file as the guest has it (an edit made in the terminal). */
  const reloadCode = async (): Promise<string | null> => (vm && code ? readGuestFile(vm, code.code.file) : null);

  /** "Compile and grade": the text into the guest's file, the workload traced, the function judged (code-grade.ts). */
  const gradeFunction = async (text: string) => {
    if (!vm || !code || grading !== null) return;
    // the step's workload is recorded at its first grade; later grades replay that run, in this
    // page and after a reload (grade-trace-store.ts)
    const cache = (gradeTraces.current[n] ??= {});
    const lab = progressRef.current.lab;
    const replaying = "Grading against your kernel's recorded run…";
    setGrading(cache.trace ? replaying : "Grading…");
    try {
      const grader = await loadGrader(TOPICS, code.code.grader);
      if (!cache.trace) {
        // kept from an earlier visit, if its grader can still read it
        const kept = await keptGradeTrace(lab, n, code.workload).catch(() => undefined);
        if (kept !== undefined && readable(grader, kept)) cache.trace = kept;
        setGrading(cache.trace ? replaying : "Recording your kernel and grading…");
      }
      const recorded = cache.trace;
      const r = await gradeCode(vm, grader, { file: code.code.file, workload: code.workload }, text, cache).catch((e): Awaited<ReturnType<typeof gradeCode>> => ({ kind: "error", message: e instanceof Error ? e.message : String(e) }));
      if (cache.trace && cache.trace !== recorded) void keepGradeTrace(lab, n, code.workload, cache.trace).catch(() => undefined);
      if (progressRef.current.step !== n) return;
      const lines = gradeLines(r, code.code.file.split("/").pop()!);
      const load = graderMoment(TOPICS, code.code.grader);
      setMoment(r.kind === "diverge" && r.moment && load ? { step: n, at: r.at, ...r.moment, load } : null);
      update((p) => {
        const s = p.steps[n];
        const failed = r.kind === "compile" || r.kind === "crash" || r.kind === "diverge";
        s.code = {
          ...s.code,
          text,
          grades: (s.code?.grades ?? 0) + 1,
          last: { kind: r.kind, lines, at: Date.now(), ...(r.kind === "compile" ? { messages: r.messages } : {}) },
          ...(failed && lines[0] ? { lastFailure: lines[0].slice(0, 300) } : {}),
        };
      });
      // the learner's own failed attempt offers the reference, as a challenge's failed check does
      if (r.kind !== "agree" && r.kind !== "error") onFailed();
      await check("asked");
    } finally {
      setGrading(null);
    }
  };

  // a code step opening: the learner's file goes into the guest if it is not there yet, so an
  // editor in the terminal finds it (never over a file made there meanwhile: ensureGuestFile)
  const [fileIn, setFileIn] = useState<{ vm: VmHandle; step: number; machineGen: number } | null>(null);
  useEffect(() => {
    if (!vm || !code) return;
    let live = true;
    void ensureGuestFile(vm, code.code.file, progressRef.current.steps[n].code?.text ?? code.code.starter)
      .catch(() => {}) // the grade writes it anyway
      .then(() => live && setFileIn({ vm, step: n, machineGen }));
    return () => {
      live = false;
    };
  }, [vm, n, machineGen]);
  /** the open code step's file is in this machine (written, or found there): what the guest has can be compared */
  const codeFileIn = !!vm && fileIn?.vm === vm && fileIn.step === n && fileIn.machineGen === machineGen;

  return { grading, codeText, reloadCode, gradeFunction, codeFileIn, moment: moment?.step === n ? moment : null };
}
