// A lab step's `code` block: the learner writes a kernel function, and a topic's grader
// (shared/grade.ts) judges it against their own kernel's decisions (labs/code-grade.ts):
//
//   ```code file="/root/dd_dispatch.c" grader="blk.dd-dispatch"
//   ... the starter: the function with its decisions left to write ...
//   ```
//   ```workload
//   ... the shell the grading runs with tracing on (seed templates allowed) ...
//   ```
//   ```solution
//   ... the reference function (C), which `fslab labs test` grades and the page offers after a failed grade ...
//   ```
//
// `file` is where the learner's file lives in the guest (the page's editor and an editor in the
// terminal edit that one file); `grader` is `<topic>.<grader id>`, as the topic's manifest declares.
import type { TopicManifest } from "../shared/topic";

export interface CodeSpec {
  file: string;
  grader: string;
  starter: string;
}

/** A grader a lab may name: its qualified id and the function the learner writes. */
export interface KnownGrader {
  id: string;
  function: string;
  summary: string;
}

export function knownGraders(topics: readonly TopicManifest[]): KnownGrader[] {
  return topics.flatMap((t) => (t.graders?.specs ?? []).map((s) => ({ id: `${t.id}.${s.id}`, function: s.function, summary: s.summary })));
}

const GRADER = /^[a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9-]*$/;
/** A path in the guest the agent and the shell can quote plainly: absolute, no spaces or quotes. */
const GUEST_PATH = /^\/(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+\.c$/;

/** The code fence's options: file="..." grader="..." (both required, in any order). */
export function parseCodeInfo(info: string, starter: string): { code: CodeSpec } | { error: string } {
  const opts: Record<string, string> = {};
  let rest = info.trim();
  while (rest) {
    const m = rest.match(/^([a-z]+)=(?:"([^"]*)"|'([^']*)')\s*/);
    if (!m) return { error: `a code fence takes file="<path in the guest>" grader="<topic>.<grader>", not "${info}"` };
    if (m[1] in opts) return { error: `code: ${m[1]}= is given twice` };
    opts[m[1]] = m[2] ?? m[3];
    rest = rest.slice(m[0].length);
  }
  const unknown = Object.keys(opts).filter((k) => k !== "file" && k !== "grader");
  if (unknown.length) return { error: `code: no option ${unknown.join(", ")} (it takes file= and grader=)` };
  if (!opts.file || !GUEST_PATH.test(opts.file)) return { error: `code: file= is the learner's C file in the guest, an absolute path ending in .c without spaces (/root/dd_dispatch.c), not ${JSON.stringify(opts.file ?? "")}` };
  if (!opts.grader || !GRADER.test(opts.grader)) return { error: `code: grader= names a topic's grader as <topic>.<grader> (blk.dd-dispatch), not ${JSON.stringify(opts.grader ?? "")}` };
  return { code: { file: opts.file, grader: opts.grader, starter: starter } };
}

/** What is wrong with a grader name against those the topics declare; null if nothing. */
export function graderError(id: string, known: readonly KnownGrader[]): string | null {
  if (known.some((g) => g.id === id)) return null;
  return `code: no topic declares a grader "${id}" (known: ${known.map((g) => g.id).join(", ") || "none"})`;
}

