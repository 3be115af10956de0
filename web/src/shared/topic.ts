// What a topic declares about itself (web/src/topics/<id>/topic.ts): its playgrounds, the views
// a lab or an embed may name, its command-line commands and its benchmark pages. Everything a
// manifest points at is imported lazily, so reading the manifests (the shell, the lab
// validator, the CLI) loads no view, no worker and no wasm. The shell, the lab page,
// the validator and the CLI know topics only through these declarations: none of them names a
// topic.
//
// A manifest has no JSX and imports only types, shared/params and its own params.ts (the
// schemas its pages read too, so no page imports its manifest), so Node can load it.
import type { ComponentType } from "react";
import type { ParamSchema } from "./params";
import type { TraceStats, VmHandle } from "./machine";
import type { Verdict } from "./verdict";
import type { LayerId } from "./stack";
import type { AnswerSpec, TopicAnswers } from "./answers";
import type { GraderSpec, TopicGraders } from "./grade";

/** A playground page: #/play/<route>?<params>. */
export interface PlaygroundSpec {
  route: string;
  title: string;
  blurb: string; // one line for the home page's card
  /** where the home page's storage stack draws it (shared/stack.ts) */
  layer: LayerId;
  params: ParamSchema;
  /**
   * Buttons, by their text, that bring out the page's widest content (its results) with no
   * prediction made: the layout test (e2e/layout.e2e.ts) opens the page once for each and presses
   * it, or once as it opens when there are none.
   */
  widest?: string[];
  load: () => Promise<ComponentType<{ query: string }>>;
}

/** The guest's events so far, in the models' record format, and the channel's counters (shared/live-buffer.ts). */
export interface LiveTrace {
  events: Uint32Array; // a new view after each batch
  stats: TraceStats | null;
  /** the tracefs lines themselves, newest last: the same array as it grows, so read it with `version` */
  lines: readonly string[];
  /** one more with each batch */
  version: number;
  /** what was let go to keep memory bounded, once anything was */
  dropped?: { records: number; lines: number };
}

/** What a lab page hands each of its views. */
export interface LabViewProps {
  live: LiveTrace;
  vm: VmHandle | null;
  /** The view's parameters (its manifest's `params`), checked, when it is embedded with some. */
  params?: Record<string, number | string>;
  /**
   * The learner's own values of the lab's `seed:` parameters (labs/seed.ts), by name: a view
   * whose model runs the lab's workload runs this learner's (a view reads the names it knows).
   */
  seed?: Readonly<Record<string, number | string>>;
  /** A view that sets its model against the kernel says what it found (a lab's `expect: verdict:`). */
  onVerdict?: (v: Verdict) => void;
  /** A challenge not passed yet is the open step or one after it: a view hides what would answer it (as the sd-card lab's CSD fields). */
  challengeOpen?: boolean;
  /**
   * The keys (`<topic>.<answer>` and this learner's parameters) of the lab's keyed questions not
   * answered yet and keyed predictions not made yet: a view holds back a figure it prints that is
   * one of their answers (as f2fs-clue's NAT count, exfat-empty-hint's totals), until it is given.
   */
  answersHeld?: readonly HeldAnswer[];
}

/** A keyed answer a learner has still to give (a lab block's `key:`, its templates filled in). */
export interface HeldAnswer {
  model: string;
  params: Readonly<Record<string, number | string>>;
  /** the step (1-based) whose question or prediction asks it: where the learner gives it */
  step: number;
}

/** A view a lab's frontmatter (`views:`) may name. */
export interface ViewSpec {
  id: string;
  title: string;
  params: ParamSchema;
  /**
   * Buttons, by their text, that bring out the view's widest content (its results) with no
   * prediction made: the layout test (e2e/layout.e2e.ts) opens each lab page showing
   * the view once for each and presses it.
   */
  widest?: string[];
  load: () => Promise<ComponentType<LabViewProps>>;
}

/** One command of a topic's CLI module: `export const cli = { <name>: { run, usage } }`. */
export interface CliCommand {
  /** runs the command with the arguments after its name; returns the exit status */
  run(args: string[]): Promise<number>;
  /** the command's options, printed by `fslab simulate` and on a usage error */
  usage: string;
}

/**
 * `fslab simulate <name>`. The module is named by its file (beside topic.ts), not imported
 * here: it uses Node's fs and zlib, which the page's bundle must never see.
 */
export interface CliSpec {
  name: string;
  synopsis: string; // what follows the name in the usage line, e.g. "[options] [--json]"
  summary: string; // one line
  module: string; // e.g. "cli.ts", exporting `cli`: beside topic.ts, its name ending in cli.ts
}

/**
 * `fslab inspect`'s text for an inspect report of one format (shared/inspect/inspect.ts's
 * `fs`): printed by `printReport(report)` exported from `module`, a file beside topic.ts whose
 * name ends in cli.ts (Node only, like CliSpec's).
 */
export interface InspectPrinterSpec {
  fs: string;
  module: string;
}

/** A benchmark page: #/bench/<route>, opened by `npm run bench` in Chromium. */
export interface BenchSpec {
  route: string;
  title: string;
  load: () => Promise<ComponentType>;
}

export interface TopicManifest {
  id: string; // its folder's name
  title: string;
  playgrounds: PlaygroundSpec[];
  views: ViewSpec[];
  cli: CliSpec[];
  /** the inspect report this topic prints for `fslab inspect`, if any */
  inspect?: InspectPrinterSpec;
  benches?: BenchSpec[];
  /**
   * `fslab bench-vm`'s scenarios of this topic: `module`, a file beside topic.ts whose name ends
   * in cli.ts (Node only), exports `vmBench` (shared/vm-bench.ts), each a scenario of the guest's
   * fslab-bench that the topic's guest/ folder puts in the root filesystem.
   */
  vmBench?: { module: string };
  /**
   * Guest commands that run this topic's kernel paths (its filesystem's create and remove, its
   * device's reads and writes): web/v86-hot.ts profiles v86 over them for the compilation hints.
   */
  guestWork?: string[];
  /**
   * The model answers a lab's `key:` may name as `<topic>.<id>` (shared/answers.ts): declared
   * here so the lab validator knows them without loading wasm; computed by `answers.ts` beside
   * topic.ts (its `topicAnswers` must have exactly these ids: web/src/labs/seed.test.ts holds them equal).
   */
  answers?: { specs: AnswerSpec[]; load: () => Promise<TopicAnswers> };
  /**
   * The code graders a lab's `code` block may name as `<topic>.<id>` (shared/grade.ts): declared
   * here for the lab validator; written in `grader.ts` beside topic.ts (its `topicGraders`
   * must have exactly these ids: web/src/topics/graders.test.ts holds them equal).
   */
  graders?: { specs: GraderSpec[]; load: () => Promise<TopicGraders> };
}

export const defineTopic = (t: TopicManifest): TopicManifest => t;
