// Code graders: what a lab's `code` step (lab-format.ts, labs/code-step.ts) hands the learner's C
// function to. A topic declares its graders in its manifest (ids, the function each replaces:
// read without loading anything) and writes them in `grader.ts` beside it. A grader says which
// kernel events to record while the step's workload runs in the guest, turns that trace into
// the input of a replay program (C, the same files its wasm model is built from, with the
// learner's function in place of the model's), and judges that program's output against the
// kernel's own decisions in the trace. The guest's tcc builds the program: labs/code-grade.ts
// runs the whole round for the page and for `fslab labs grade`.

import type { ComponentType } from "react";
import { splitTraceLine, type TraceLine } from "./event-table";

/** One grader a lab's `code` block may name as `grader="<topic>.<id>"`, as the manifest declares it. */
export interface GraderSpec {
  id: string;
  /** the kernel function the learner writes, with the kernel's name */
  function: string;
  /** what it grades, for `fslab labs check` and the docs */
  summary: string;
  /** the topic's view of a divergent decision, loaded when a grade diverges (GradeMomentProps) */
  moment?: () => Promise<ComponentType<GradeMomentProps>>;
}

/**
 * What the topic's view of a divergence is drawn from: the graded run's trace, the replay's
 * output (the learner's choices), and the divergent decision (1-based, the grade's `at`).
 */
export interface GradeMomentProps {
  trace: string;
  stdout: string;
  at: number;
}

/** What a trace becomes: the replay's standard input, and what the judge needs again. */
export interface GradeInput<C = unknown> {
  stdin: string;
  context: C;
  /** the kernel's decisions in the trace (what the learner's function is judged on) */
  decisions: number;
}

/** How the learner's function did over the trace, decision by decision. */
export type GradeVerdict =
  | { kind: "agree"; decisions: number; notJudged: number }
  | {
      kind: "diverge";
      decisions: number;
      notJudged: number;
      /** 1-based: the first judged decision the learner's function made otherwise */
      at: number;
      /** of the judged decisions before it, all agreed; of all judged, how many agreed */
      agreed: number;
      judged: number;
      /** the decision's inputs, a line each (queue state, counters, positions) */
      inputs: string[];
      kernel: string;
      yours: string;
    };

/** A change to a grader's reference that a learner could make: the grader must catch it. */
export interface Mutant {
  name: string;
  from: string;
  to: string;
}

/** The reference with the mutant's change made; throws if the text to change is not there. */
export function mutate(reference: string, m: Mutant): string {
  if (!reference.includes(m.from)) throw new Error(`mutant "${m.name}": the reference has no "${m.from}"`);
  return reference.replace(m.from, m.to);
}

export interface CodeGrader<C = unknown> {
  /** the trace events to record (tracefs system/event names) while the workload runs */
  events: string[];
  /**
   * Mistakes a learner could make in the reference (a flipped comparison, an off-by-one, a
   * missing reset, a wrong constant, swapped branches): each must part from the kernel at a
   * numbered decision. The topic's grader test grades them natively, `fslab labs test` in the guest.
   */
  mutants?: readonly Mutant[];
  /** the C files compiled with the learner's (path under the build directory -> text); headers under include/ */
  sources: Record<string, string>;
  /** the learner's file name in the build, e.g. dd_dispatch.c */
  file: string;
  /** the reference the lab's solution must equal in behaviour: the model's own file */
  reference: string;
  /** the trace text (tracefs `trace` of the recording) as the replay's input; throws with a reason a learner can act on */
  input(trace: string): GradeInput<C>;
  /** the replay program's stdout, judged against the kernel's decisions */
  judge(input: GradeInput<C>, stdout: string): GradeVerdict;
  /**
   * Where a replay that crashed or never returned had got to, from the output it left (a
   * program that writes each decision as it makes it): "in create 12 ("f12")". Null: unknown.
   */
  reached?(input: GradeInput<C>, partialStdout: string): string | null;
  /** what a crash of the replay most likely means, in this function's terms */
  explain?: {
    /** SIGSEGV: which pointer or index the learner's function most likely got wrong */
    segv?: string;
    /** the replay refused the trace (exit 1): what the learner's function left wrong */
    refused?: string;
  };
}

/** A topic's graders module (`grader.ts`): one per id. */
export type TopicGraders = Record<string, CodeGrader>;

/**
 * A grading trace's event lines (tracefs `trace` text), for a grader's input(): its header and
 * anything that is not an event line left out. A trace whose ring buffer overran cannot be
 * replayed: `error` makes the grader's own error for it.
 */
export function gradedTraceLines(text: string, error: (message: string) => Error): TraceLine[] {
  const out: TraceLine[] = [];
  for (const raw of text.split("\n")) {
    const lost = raw.match(/^\s*CPU:\d+ \[LOST (\d+) EVENTS\]/);
    if (lost) throw error(`the trace lost ${lost[1]} events (its ring buffer overran): a shorter workload`);
    const t = splitTraceLine(raw.replace(/\r$/, ""));
    if (t) out.push(t);
  }
  return out;
}
