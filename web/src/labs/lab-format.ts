// The lab file format (labs/<id>/lab.md): YAML frontmatter, then Markdown steps, one per
// "## " heading. Fenced blocks, by tag:
//   vm        commands the learner sends to the VM with a click
//   check     a shell snippet the guest's check agent runs; exit 0 passes the step. Lines it
//             prints starting "FAIL:" are shown to the learner. "```check timeout=30" sets its
//             time limit in seconds (default 10).
//   expect    YAML: what the kernel must have done since the step opened (expect.ts)
//   hint      Markdown, revealed one block at a time
//   solution  commands that do the step, revealed on request (and sent to the VM with a click)
//   predict   YAML: a question answered before a measurement, and where the kernel's answer
//             is found (predict.ts); the step's later commands wait for the answer
//   learned   Markdown: what the step taught, shown once it passes (or is skipped) and its
//             questions have answers: it may give a prediction's or a question's answer away
//   question  YAML: a question about the learner's own run, answered once the step passes and
//             judged against what their guest measured (question.ts)
//   shortcut  commands that reach the step's outcome the wrong way (a file of the right size
//             made without the writes, a number copied from /sys): never shown to the learner;
//             `fslab labs test` runs each on a copy of the machine and fails the lab if the
//             step's checks pass after it
//   code      C: a kernel function for the learner to write, graded decision by decision
//             against their own kernel's trace (code-block.ts: ```code file="..." grader="...");
//             its step has a `workload` block (the shell the grading traces) and a `solution`
//             block holding the reference function
//   workload  the shell a code step's grading runs with tracing on
// A hint may name a FAIL line: ```hint fail="a batch can still go on" is offered when the step's
// failed check printed a FAIL: line containing that text (which one of the step's checks must).
// A line "<!-- challenge -->" makes the step one the learner does alone: no vm blocks, a check,
// and a solution that the page shows only after a failed check (its use is recorded).
// A fenced block whose tag is none of these but within two edits of one (```chek, ```hnit) is
// an error ("did you mean `check`?"): a misspelled check would otherwise reach the learner as
// plain code. Plain code declares a language (```sh, ```text) or none (```).
// A step with nothing to check (no check, expect or predict block) draws a warning, unless a
// line "<!-- reading -->" in it says the learner only reads there.
// Parsing is strict and every error names its line, so `fslab labs check` can point at it;
// all of a file's errors are found in one pass and thrown together (LabFormatError.errors).
// The views a lab may name are the topic manifests' (the page passes topics/index.ts's ids,
// the CLI those of topics/node-index.ts): this file names no topic.
import type { KnownAnswer } from "./keys";
import type { KnownGrader } from "./code-block";
import { drawSeed, EXAMPLE_IDENTITY, fillLine, type SeedValues } from "./seed";
import { readFrontmatter, type LabMeta } from "./lab-meta";
import { BLOCK_TAGS, CHALLENGE_MARK, READING_MARK, readBlock, type BlockTag, type LabBlock, type LabStep } from "./lab-blocks";
import { checkSteps } from "./lab-rules";

export { CHALLENGE_MARK, READING_MARK, type LabStep };

// the frontmatter (lab-meta.ts) and the blocks (lab-blocks.ts) are read in their own files
export type { LabMeta } from "./lab-meta";
export { BLOCK_TAGS, CHECK_TIMEOUT, type BlockTag, type LabBlock } from "./lab-blocks";

/**
 * Languages a plain code block may declare: shown to the learner as code, never run. A tag
 * that is none of these and none of BLOCK_TAGS, but within two edits of a block tag, is refused.
 */
export const CODE_LANGUAGES = [
  "sh", "bash", "shell", "console", "shell-session", "zsh", "text", "txt", "plain", "plaintext", "output", "log",
  "c", "h", "cpp", "c++", "diff", "patch", "yaml", "yml", "json", "toml", "ini", "conf",
  "js", "javascript", "ts", "typescript", "py", "python", "make", "makefile", "dts", "asm", "rust", "rs", "go",
  "awk", "sed", "perl", "kconfig", "xml", "html", "css", "md", "markdown", "csv", "tsv", "sql", "hexdump", "gdb",
  // short names within two edits of `vm` that are languages too
  "vim", "hs", "ml", "rb", "pl", "cs", "vb", "m4", "mk", "s", "r", "ld", "dot", "tcl", "lua", "nix", "java", "bpftrace", "gnuplot",
] as const;

const READING = /^<!--\s*reading\s*-->$/i;
const CHALLENGE = /^<!--\s*challenge\s*-->$/i;

/** Something a lab's author should look at that does not stop the lab (file:line: detail). */
export interface LabWarning {
  file: string;
  line: number;
  detail: string;
  message: string;
}

export interface Lab {
  meta: LabMeta;
  /** whose problem this reading of the lab is: the identity its seed values were drawn from, and the values */
  seed: { identity: string; values: SeedValues };
  steps: LabStep[];
  /** e.g. a step with nothing to check that is not marked as reading */
  warnings: LabWarning[];
}

export class LabFormatError extends Error {
  /** every error found in the file, in line order; this one's file, line and detail are the first's */
  errors: LabFormatError[] = [this];
  /** what the file would have been warned of, had it no errors */
  warnings: LabWarning[] = [];

  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
  }

  /** One error that stands for several: its message is theirs, one per line. */
  static of(errors: LabFormatError[]): LabFormatError {
    if (errors.length === 1) return errors[0];
    const all = new LabFormatError(errors[0].file, errors[0].line, errors[0].detail);
    all.errors = errors;
    all.message = errors.map((e) => e.message).join("\n");
    return all;
  }
}

/** The messages of an error parseLab threw (each file:line: detail), or of any other error. */
export function labErrorLines(e: unknown): string[] {
  if (e instanceof LabFormatError) return e.errors.map((x) => x.message);
  return [e instanceof Error ? e.message : String(e)];
}

/** Damerau–Levenshtein distance (insertions, deletions, substitutions, transpositions of neighbours). */
export function editDistance(a: string, b: string): number {
  const A = [...a];
  const B = [...b];
  const inf = A.length + B.length;
  const d = Array.from({ length: A.length + 2 }, () => new Array<number>(B.length + 2).fill(0));
  d[0][0] = inf;
  for (let i = 0; i <= A.length; i++) (d[i + 1][0] = inf), (d[i + 1][1] = i);
  for (let j = 0; j <= B.length; j++) (d[0][j + 1] = inf), (d[1][j + 1] = j);
  const lastRow = new Map<string, number>();
  for (let i = 1; i <= A.length; i++) {
    let lastCol = 0;
    for (let j = 1; j <= B.length; j++) {
      const i1 = lastRow.get(B[j - 1]) ?? 0;
      const j1 = lastCol;
      const cost = A[i - 1] === B[j - 1] ? 0 : 1;
      if (!cost) lastCol = j;
      d[i + 1][j + 1] = Math.min(d[i][j] + cost, d[i + 1][j] + 1, d[i][j + 1] + 1, d[i1][j1] + (i - i1 - 1) + 1 + (j - j1 - 1));
    }
    lastRow.set(A[i - 1], i);
  }
  return d[A.length + 1][B.length + 1];
}

/** How far a fence's tag may be from a block tag and still be taken for a misspelling of it. */
export const NEAR_MISS = 2;

export type Fence =
  | { kind: "block"; tag: BlockTag; options: string }
  | { kind: "code"; language: string }
  | { kind: "near-miss"; tag: BlockTag; word: string };

/**
 * What a fence's info string (the text after ``` or ~~~) makes of its block: one of ours
 * (with the options after the tag), plain code (no language, a declared one, or a word far from
 * any of ours), or a near miss of one of ours: a misspelling, a wrong case, a tag run into
 * its options, a tag split by a space.
 */
export function classifyFence(info: string): Fence {
  const text = info.trim();
  const prefix = text.match(/^[\w-]*/)![0];
  if ((BLOCK_TAGS as readonly string[]).includes(prefix)) return { kind: "block", tag: prefix as BlockTag, options: text.slice(prefix.length).trim() };
  if (!text) return { kind: "code", language: "" };
  const word = text.split(/\s/)[0];
  if ((CODE_LANGUAGES as readonly string[]).includes(word.toLowerCase())) return { kind: "code", language: word };
  // a near miss in any of: the first word, its leading letters, the whole info string without
  // its spaces, or without anything but its letters and digits ({.check})
  let best: { tag: BlockTag; d: number } | null = null;
  for (const candidate of new Set([word, prefix, text.replace(/\s+/g, ""), text.replace(/[^\p{L}\p{N}_-]+/gu, "")])) {
    if (!candidate) continue;
    const c = candidate.toLowerCase();
    for (const tag of BLOCK_TAGS) {
      if (Math.abs([...c].length - tag.length) > NEAR_MISS) continue;
      const d = editDistance(c, tag);
      if (d <= NEAR_MISS && (!best || d < best.d)) best = { tag, d };
    }
  }
  if (best) return { kind: "near-miss", tag: best.tag, word };
  // one of ours run into what follows it (check-timeout=30, vm:)
  const run = BLOCK_TAGS.find((tag) => text.toLowerCase().startsWith(tag) && !/\p{L}/u.test(text[tag.length] ?? ""));
  if (run) return { kind: "near-miss", tag: run, word };
  return { kind: "code", language: word };
}

// A fence starts a line: three or more backticks or tildes, then its info string. (dotAll: a
// line separator character inside the info string is no way around the checks.)
const FENCE = /^(`{3,}|~{3,})(.*)$/s;
// a fence indented into a list item, or by a stray space: Markdown shows it as code in place
const INDENTED_FENCE = /^[ \t]+(`{3,}|~{3,})(.*)$/s;

/** How a lab file is read beyond its text: whose problem (seed.ts), and the model answers its blocks may name. */
export interface ParseOptions {
  /** the learner whose seed values fill the templates; EXAMPLE_IDENTITY when none is given */
  identity?: string;
  /** the topic manifests' model answers (`topic.answer-id`, keys.ts), for a block's `key:`; unchecked when absent */
  answers?: readonly KnownAnswer[];
  /** the topic manifests' code graders (`topic.grader-id`, code-block.ts), for a code block's `grader=`; unchecked when absent */
  graders?: readonly KnownGrader[];
  /** for a caller that reads the lab again for another learner: its warnings are not printed twice */
  quiet?: boolean;
}

export function parseLab(source: string, knownViews: readonly string[], file = "lab.md", folderId?: string, opts: ParseOptions = {}): Lab {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const errors: LabFormatError[] = [];
  const warnings: LabWarning[] = [];
  const err = (line: number, msg: string) => new LabFormatError(file, line, msg);
  const fail = (line: number, msg: string) => void errors.push(err(line, msg));
  const done = (): never => {
    const e = LabFormatError.of([...errors].sort((a, b) => a.line - b.line));
    e.warnings = warnings;
    throw e;
  };

  if (lines[0] !== "---") throw err(1, 'a lab starts with YAML frontmatter: a first line of "---"');
  const end = lines.indexOf("---", 1);
  if (end < 0) throw err(1, 'the frontmatter has no closing "---" line');
  const meta = readFrontmatter(lines, end, knownViews, fail, folderId);
  // the learner's values in place of the steps' {{templates}}, line for line (no value holds a
  // line break), so every later error still names the author's line
  const identity = opts.identity ?? EXAMPLE_IDENTITY;
  const values = meta ? drawSeed(meta.seed, identity, meta.id) : {};
  for (let i = end + 1; i < lines.length; i++) {
    if (!lines[i].includes("{{")) continue;
    if (/^## /.test(lines[i])) {
      fail(i + 1, "a step's heading holds no {{template}}: the title names the step in every learner's progress, so it is the same for all");
      continue;
    }
    const r = fillLine(lines[i], values);
    for (const e of r.errors) fail(i + 1, e);
    lines[i] = r.text;
  }

  const steps: LabStep[] = [];
  /** steps that had a block refused: not "empty" for want of it */
  const refusedIn = new Set<LabStep>();
  let outside = false; // content before the first step, reported once
  let md: string[] = [];
  let mdLine = 0;
  const inStep = (n: number, what: string): boolean => {
    if (steps.length) return true;
    if (!outside) fail(n, `${what} before the first step: start each step with a "## " heading`);
    outside = true;
    return false;
  };
  const flush = () => {
    const text = md.join("\n").trim();
    if (text && inStep(mdLine, "text")) steps.at(-1)!.blocks.push({ kind: "markdown", text, line: mdLine });
    md = [];
  };
  const refuse = (n: number, msg: string) => {
    fail(n, msg);
    if (steps.length) refusedIn.add(steps.at(-1)!);
  };
  for (let i = end + 1; i < lines.length; i++) {
    const n = i + 1;
    const line = lines[i];
    const fence = line.match(FENCE);
    if (fence) {
      const close = lines.findIndex((l, j) => j > i && l.trim() === fence[1]);
      if (close < 0) {
        refuse(n, `the ${fence[1]} block opened here is never closed`);
        break; // the rest of the file is inside it
      }
      const f = classifyFence(fence[2]);
      // its closing fence forgotten, a block runs on to the next block's close, taking the text,
      // blocks and steps between into itself: a fence with a tag (which cannot close a block)
      // inside, or a step's heading inside a Markdown block, is where it should have closed
      const markdownBlock = f.kind === "block" && (f.tag === "learned" || f.tag === "hint");
      const runsInto = lines.slice(i + 1, close).findIndex((l) => {
        const m = l.match(FENCE);
        return (m && m[1] === fence[1] && m[2].trim() !== "") || (markdownBlock && /^## /.test(l));
      });
      if (runsInto >= 0) {
        const at = i + 1 + runsInto;
        refuse(n, `the ${f.kind === "block" ? f.tag : "code"} block opened here runs into line ${at + 1} (${lines[at].trim().slice(0, 40)}): is its closing ${fence[1]} missing?`);
        i = at - 1; // go on from that line, so what follows is read (and its errors found) too
        continue;
      }
      if (f.kind === "block") {
        flush();
        const body = lines.slice(i + 1, close);
        const text = body.join("\n").trim();
        if (!text) refuse(n, `empty ${f.tag} block`);
        else if (inStep(n, `a ${f.tag} block`)) {
          const b = readBlock(f.tag, text, f.options, n, body, refuse);
          if (b) steps.at(-1)!.blocks.push(b);
          else refusedIn.add(steps.at(-1)!);
        }
      } else if (f.kind === "near-miss") {
        flush();
        refuse(n, `no block is called "${f.word}": did you mean \`${f.tag}\`? (blocks: ${BLOCK_TAGS.join(", ")}; plain code names a language, such as \`sh\` or \`text\`, or none)`);
      } else {
        if (!md.some((l) => l.trim())) mdLine = n;
        md.push(...lines.slice(i, close + 1));
      }
      i = close;
      continue;
    }
    const indented = line.match(INDENTED_FENCE);
    if (indented) {
      const f = classifyFence(indented[2]);
      if (f.kind !== "code") refuse(n, `a ${f.tag} block's fence starts the line, with no space before it (indented, it is shown as plain code)`);
    }
    if (/^## /.test(line)) {
      flush();
      const title = line.slice(3).trim();
      if (!title) fail(n, "a step heading needs a title");
      steps.push({ title, line: n, blocks: [] });
      continue;
    }
    if (/^# /.test(line)) {
      fail(n, 'use "## " for step headings; the title comes from the frontmatter');
      outside ||= !steps.length; // its text is not "before the first step" too
      continue;
    }
    if (READING.test(line.trim())) {
      flush();
      if (!inStep(n, "a reading mark")) continue;
      if (steps.at(-1)!.reading) fail(n, "this step is already marked as reading");
      steps.at(-1)!.reading = true;
      continue;
    }
    if (CHALLENGE.test(line.trim())) {
      flush();
      if (!inStep(n, "a challenge mark")) continue;
      if (steps.at(-1)!.challenge) fail(n, "this step is already marked as a challenge");
      steps.at(-1)!.challenge = true;
      continue;
    }
    if (line.trim() && !md.some((l) => l.trim())) mdLine = n;
    md.push(line);
  }
  flush();
  if (!steps.length && !outside) fail(end + 2, 'a lab needs at least one step (a "## " heading)');
  checkSteps(steps, {
    meta,
    answers: opts.answers,
    graders: opts.graders,
    refusedIn,
    fail,
    warn: (line, detail) => warnings.push({ file, line, detail, message: `${file}:${line}: ${detail}` }),
  });
  if (errors.length || !meta) done();
  if (!meta!.time) meta!.time = `about ${steps.length * 5} min`;
  return { meta: meta!, seed: { identity, values }, steps, warnings };
}
