// A learner's progress as a file for the instructor ("Download my progress"), and the class
// table `fslab labs report` prints from a folder of them, or the gradebook CSV (one row per
// learner, one column group per lab). One format, read back strictly. The file is what the
// learner's browser recorded, and the learner can edit it: a self-report, not a proof.
import type { LabProgress } from "./progress";
import type { LabStep } from "./lab-format";
import { near, type PredictionRecord } from "./predict";

export const EXPORT_FORMAT = "fslab-progress/1";

export interface StepExport {
  title: string;
  result: "passed" | "skipped" | "open";
  passedAt: string | null;
  skippedAt: string | null;
  attempts: number;
  autoChecks: number;
  hintsShown: number;
  solutionShown: boolean;
  resets: number;
  openSeconds: number;
  lastResult: string | null;
  lastOutput: string | null;
  /** what the learner predicted and what the kernel did (files from before predictions have none) */
  predictions?: Array<{ question: string; guess: string | null; actual: string | null; afterMeasuring?: boolean }>;
  /** a step the learner does alone (<!-- challenge -->) */
  challenge?: boolean;
  /** a step with nothing to pass (<!-- reading -->): not counted among the steps to pass */
  reading?: boolean;
  /** the step's last hint (the one closest to the commands) was opened */
  lastHint?: boolean;
  /** each question of the step: the learner's answer and their run's, judged (null: unanswered) */
  questions?: Array<{ question: string; answer: string | null; actual: string | null; right: boolean; tries: number; key?: string | null }>;
  /** a code step: the learner's function as they last kept it, their grades, and the last verdict */
  code?: { text: string; grades: number; verdict: CodeVerdict | null; lastFailure?: string };
}

export interface ProgressExport {
  format: typeof EXPORT_FORMAT;
  /** the name or ID the learner gave the page (kept in their browser), if they gave one */
  learner?: string;
  /** whose problem the lab's seeded values were (seed.ts): the learner's name or ID, or a random one */
  identity?: string;
  lab: string;
  title: string;
  /** sha-256 of the lab file the learner worked on: another version of the lab has another */
  labHash: string;
  /** the guest build (kernel and root filesystem hashes) */
  guest: string;
  startedAt: string;
  exportedAt: string;
  steps: StepExport[];
}

/** Whether a step's last hint was opened: hints go from the idea to the command, so the last is nearly the solution. */
function lastHintSeen(s: LabProgress["steps"][number], step: LabStep | undefined): boolean {
  const hints = step?.blocks.filter((b) => b.kind === "hint").length ?? 0;
  return hints > 0 && !!s.hintsSeen?.includes(hints - 1);
}

export async function sha256Hex(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const iso = (t?: number) => (t ? new Date(t).toISOString() : null);

/**
 * The progress as a file. `open`: the step open as the learner downloads it, and for how long
 * it has been open this visit (the progress adds a visit's time when the step closes), so its
 * openSeconds count the time up to the download.
 */
export function progressExport(
  p: LabProgress,
  title: string,
  now = Date.now(),
  open?: { step: number; ms: number },
  /** the lab's steps as they are now (which are challenges, their questions), and the learner's name */
  more: { steps?: readonly LabStep[]; learner?: string } = {},
): ProgressExport {
  const questionsOf = (i: number) => more.steps?.[i]?.blocks.flatMap((b) => (b.kind === "question" ? [b.question.question] : [])) ?? [];
  return {
    format: EXPORT_FORMAT,
    ...(more.learner?.trim() ? { learner: more.learner.trim() } : {}),
    ...(p.identity ? { identity: p.identity } : {}),
    lab: p.lab,
    title,
    labHash: p.labHash,
    guest: p.guest,
    startedAt: new Date(p.startedAt).toISOString(),
    exportedAt: new Date(now).toISOString(),
    steps: p.steps.map((s, i) => ({
      title: s.title,
      result: s.passedAt ? "passed" : s.skippedAt ? "skipped" : "open",
      passedAt: iso(s.passedAt),
      skippedAt: iso(s.skippedAt),
      attempts: s.attempts,
      autoChecks: s.autoChecks,
      hintsShown: s.hintsShown,
      solutionShown: s.solutionShown,
      resets: s.resets,
      openSeconds: Math.round((s.openMs + (open?.step === i ? Math.max(0, open.ms) : 0)) / 1000),
      lastResult: s.lastResult ?? null,
      lastOutput: s.lastOutput ?? null,
      predictions: (s.predictions ?? []).filter((x): x is PredictionRecord => !!x).map((x) => ({ question: x.question, guess: x.guess, actual: x.actual ?? null, ...(x.afterMeasuring ? { afterMeasuring: true } : {}) })),
      ...(more.steps?.[i]?.challenge ? { challenge: true } : {}),
      ...(more.steps?.[i]?.reading ? { reading: true } : {}),
      ...(lastHintSeen(s, more.steps?.[i]) ? { lastHint: true } : {}),
      ...(s.code ? { code: { text: s.code.text, grades: s.code.grades, verdict: s.code.last?.kind ?? null, ...(s.code.lastFailure ? { lastFailure: s.code.lastFailure } : {}) } } : {}),
      ...(questionsOf(i).length
        ? {
            questions: questionsOf(i).map((question, k) => {
              const r = s.questions?.[k];
              return { question, answer: r?.answer ?? null, actual: r?.actual ?? null, right: !!r?.right, tries: s.questionTries?.[k] ?? 0, ...(r?.key !== undefined ? { key: r.key } : {}) };
            }),
          }
        : {}),
    })),
  };
}

/** A progress file read back: the export, or why it is not one. */
const CODE_VERDICTS = ["compile", "crash", "error", "agree", "diverge"] as const;
type CodeVerdict = (typeof CODE_VERDICTS)[number];

export function parseExport(text: string): ProgressExport | { error: string } {
  let v: any;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON (${e instanceof Error ? e.message : e})` };
  }
  if (!v || typeof v !== "object") return { error: "not a progress file" };
  if (v.format !== EXPORT_FORMAT) return { error: `not a progress file of format ${EXPORT_FORMAT} (format: ${JSON.stringify(v.format)})` };
  for (const k of ["lab", "title", "labHash", "guest", "startedAt", "exportedAt"]) if (typeof v[k] !== "string") return { error: `"${k}" is missing or not a string` };
  if (v.learner !== undefined && (typeof v.learner !== "string" || !v.learner.trim())) return { error: `"learner" is not a name` };
  if (v.identity !== undefined && (typeof v.identity !== "string" || !v.identity.trim() || v.identity.length > 200)) return { error: `"identity" is not a learner's identity` };
  if (!Array.isArray(v.steps)) return { error: `"steps" is not a list` };
  for (const [i, s] of v.steps.entries()) {
    if (!s || typeof s.title !== "string" || !["passed", "skipped", "open"].includes(s.result) || !Number.isFinite(s.attempts) || typeof s.solutionShown !== "boolean")
      return { error: `step ${i + 1} is not a step record` };
    if (s.predictions !== undefined && (!Array.isArray(s.predictions) || s.predictions.some((x: any) => !x || typeof x.question !== "string" || (x.guess !== null && typeof x.guess !== "string") || (x.actual !== null && typeof x.actual !== "string") || (x.afterMeasuring !== undefined && typeof x.afterMeasuring !== "boolean"))))
      return { error: `step ${i + 1}'s predictions are not a list of question, guess and actual` };
    if (s.challenge !== undefined && typeof s.challenge !== "boolean") return { error: `step ${i + 1}'s challenge is not true or false` };
    if (s.reading !== undefined && typeof s.reading !== "boolean") return { error: `step ${i + 1}'s reading is not true or false` };
    if (s.lastHint !== undefined && typeof s.lastHint !== "boolean") return { error: `step ${i + 1}'s lastHint is not true or false` };
    const str = (x: unknown) => x === null || typeof x === "string";
    if (s.questions !== undefined && (!Array.isArray(s.questions) || s.questions.some((x: any) => !x || typeof x.question !== "string" || !str(x.answer) || !str(x.actual) || typeof x.right !== "boolean" || !Number.isInteger(x.tries) || (x.key !== undefined && !str(x.key)))))
      return { error: `step ${i + 1}'s questions are not a list of question, answer, actual, right and tries` };
    const c = s.code;
    if (c !== undefined && (!c || typeof c.text !== "string" || !Number.isInteger(c.grades) || c.grades < 0 || (c.verdict !== null && !CODE_VERDICTS.includes(c.verdict)) || (c.lastFailure !== undefined && typeof c.lastFailure !== "string")))
      return { error: `step ${i + 1}'s code is not the learner's text, grades, verdict and last failure` };
  }
  return v as ProgressExport;
}

export interface ReportRow {
  file: string;
  /** the name or ID in the file; null: the learner gave none */
  learner: string | null;
  lab: string;
  passed: number;
  /** steps passed without the solution shown, and with it */
  alone: number;
  withSolution: number;
  /** challenge steps, and those passed alone */
  challenges: number;
  challengesAlone: number;
  skipped: number;
  /** the steps to pass (a reading step, with nothing to pass, is not one) */
  steps: number;
  /** questions from the learner's run in the lab, and those answered right */
  questions: number;
  questionsRight: number;
  attempts: number;
  hints: number;
  solutions: number;
  minutes: number;
  /** predictions made, and how many were near what the kernel did (the same choice, a number within 10%) */
  predicted: number;
  near: number;
  /** predictions made after the kernel had already done what they asked about */
  afterMeasuring: number;
  /** steps whose last hint (the one nearest the commands) the learner opened */
  lastHints: number;
  /** code steps, those whose last grade agreed with the learner's kernel, and grades asked in all */
  code: number;
  codeAgreed: number;
  codeGrades: number;
  /** each code step's last failing grade, its first line ("decision 5 of 5: ...", "f.c:31: error: ...") */
  codeFailures: string[];
  /** questions graded against the learner's own key, recomputed from the lab (not the file's verdict) */
  regraded: number;
  /** the learner's answers and their keys, for telling copied answers (copiedAnswers) */
  answers: Array<{ question: string; answer: string | null; key: string | null }>;
  /** why the row's answers look copied, if they do */
  copied?: string;
  exportedAt: string;
  /** why the row is for another version of the lab, if it is */
  otherVersion?: string;
}

/**
 * The instructor's key for one question of a file: the model's answer for the file's learner and
 * a judge of an answer against it (keys.ts, computed by `fslab labs report` from the current lab);
 * null where the question has no key.
 */
export type QuestionKey = { key: string; judge(answer: string): boolean } | null;

export function reportRow(file: string, x: ProgressExport, currentHash?: string, keys?: QuestionKey[][]): ReportRow {
  const sum = (f: (s: StepExport) => number) => x.steps.reduce((a, s) => a + f(s), 0);
  // each question graded against the key the instructor's copy of the lab gives this learner
  let regraded = 0;
  const answers: ReportRow["answers"] = [];
  const steps = x.steps.map((s, i) => ({
    ...s,
    questions: s.questions?.map((q, k) => {
      const key = keys?.[i]?.[k];
      answers.push({ question: q.question, answer: q.answer, key: key ? key.key : (q.key ?? null) });
      if (!key) return q;
      regraded++;
      return { ...q, right: q.answer !== null && key.judge(q.answer) };
    }),
  }));
  x = { ...x, steps };
  // a reading step has nothing to pass: the steps to pass are the others
  const toPass = x.steps.filter((s) => !s.reading);
  return {
    file,
    learner: x.learner ?? null,
    lab: x.lab,
    passed: toPass.filter((s) => s.result === "passed").length,
    alone: toPass.filter((s) => s.result === "passed" && !s.solutionShown).length,
    withSolution: toPass.filter((s) => s.result === "passed" && s.solutionShown).length,
    challenges: x.steps.filter((s) => s.challenge).length,
    challengesAlone: x.steps.filter((s) => s.challenge && s.result === "passed" && !s.solutionShown).length,
    questions: sum((s) => s.questions?.length ?? 0),
    questionsRight: sum((s) => (s.questions ?? []).filter((q) => q.right).length),
    skipped: toPass.filter((s) => s.result === "skipped").length,
    steps: toPass.length,
    attempts: sum((s) => s.attempts),
    hints: sum((s) => s.hintsShown),
    solutions: sum((s) => (s.solutionShown ? 1 : 0)),
    minutes: Math.round(sum((s) => s.openSeconds ?? 0) / 60),
    predicted: sum((s) => (s.predictions ?? []).filter((x) => x.guess !== null).length),
    near: sum((s) => (s.predictions ?? []).filter((x) => near(x.guess, x.actual ?? undefined)).length),
    afterMeasuring: sum((s) => (s.predictions ?? []).filter((x) => x.afterMeasuring).length),
    lastHints: x.steps.filter((s) => s.lastHint).length,
    code: x.steps.filter((s) => s.code).length,
    codeAgreed: x.steps.filter((s) => s.code?.verdict === "agree").length,
    codeGrades: sum((s) => s.code?.grades ?? 0),
    codeFailures: x.steps.flatMap((s, i) => (s.code?.lastFailure ? [`step ${i + 1}: ${s.code.lastFailure}`] : [])),
    regraded,
    answers,
    exportedAt: x.exportedAt,
    otherVersion: currentHash && currentHash !== x.labHash ? `lab file ${x.labHash.slice(0, 12)}, this one ${currentHash.slice(0, 12)}` : undefined,
  };
}

/**
 * A row's score, as the gradebook and an LMS (SCORM) get it: a point for each step passed
 * without its solution, each question answered right and each code step whose last grade agreed
 * with the learner's kernel, of one for each step, question and code step.
 */
export function scoreOf(r: ReportRow): { raw: number; max: number } {
  return { raw: r.alone + r.questionsRight + r.codeAgreed, max: r.steps + r.questions + r.code };
}

/** A row's learner as the report names them: a file without a name stands for itself. */
export const learnerOf = (r: ReportRow) => r.learner ?? `(no name: ${r.file})`;

/** Rows by learner, then lab, then file. */
export function byLearner(rows: readonly ReportRow[]): ReportRow[] {
  return [...rows].sort((a, b) => learnerOf(a).localeCompare(learnerOf(b)) || a.lab.localeCompare(b.lab) || a.file.localeCompare(b.file));
}

const COLUMNS: Array<[string, (r: ReportRow) => string | number]> = [
  ["learner", (r) => r.learner ?? "-"],
  ["file", (r) => r.file],
  ["lab", (r) => r.lab],
  ["passed", (r) => `${r.passed}/${r.steps}`],
  ["skipped", (r) => r.skipped],
  ["alone", (r) => r.alone],
  ["with solution", (r) => r.withSolution],
  ["challenges alone", (r) => (r.challenges ? `${r.challengesAlone}/${r.challenges}` : "-")],
  ["attempts", (r) => r.attempts],
  ["hints", (r) => r.hints],
  ["minutes", (r) => r.minutes],
  ["predictions near", (r) => (r.predicted ? `${r.near}/${r.predicted}` : "-")],
  ["questions right", (r) => (r.questions ? `${r.questionsRight}/${r.questions}` : "-")],
  // a code step's function agreeing with the learner's kernel at its last grade, and the grades it took
  ["code agrees", (r) => (r.code ? `${r.codeAgreed}/${r.code} (${r.codeGrades} grade${r.codeGrades === 1 ? "" : "s"})` : "-")],
  ["exported", (r) => r.exportedAt.slice(0, 16).replace("T", " ")],
  [
    "note",
    (r) =>
      [
        r.otherVersion && `another version of the lab (${r.otherVersion})`,
        r.afterMeasuring && `${r.afterMeasuring} prediction${r.afterMeasuring === 1 ? "" : "s"} made after measuring`,
        r.lastHints && `last hint opened in ${r.lastHints} step${r.lastHints === 1 ? "" : "s"}`,
        r.copied,
        r.codeFailures.length && `last failing grade: ${r.codeFailures.join("; ")}`,
      ]
        .filter(Boolean)
        .join("; "),
  ],
];

export function reportText(rows: ReportRow[]): string {
  const cells = [COLUMNS.map((c) => c[0]), ...byLearner(rows).map((r) => COLUMNS.map((c) => String(c[1](r))))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells.map((row) => row.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()).join("\n") + "\n";
}

/** The per-lab figures a gradebook gets, in each lab's column group. */
const GRADE_COLUMNS: Array<[string, (r: ReportRow) => number | string]> = [
  ["passed alone", (r) => r.alone],
  ["passed with solution", (r) => r.withSolution],
  ["skipped", (r) => r.skipped],
  ["steps", (r) => r.steps],
  ["questions right", (r) => r.questionsRight],
  ["questions", (r) => r.questions],
  ["code agrees", (r) => r.codeAgreed],
  ["code steps", (r) => r.code],
  ["code last failure", (r) => r.codeFailures.join("; ")],
  ["score", (r) => scoreOf(r).raw],
  ["score max", (r) => scoreOf(r).max],
];

/**
 * The gradebook: one row per learner, one column group per lab (steps passed alone, passed
 * with the solution, skipped, of how many; questions right, of how many; code steps whose last
 * grade agreed with the learner's kernel, of how many), empty where the
 * learner sent no file for a lab. Of two files for one learner and lab, the one exported last
 * counts; `dropped` lists the others.
 */
export function gradebook(rows: readonly ReportRow[]): { csv: string; dropped: ReportRow[] } {
  const q = (s: string | number) => (/[",\n]/.test(String(s)) ? `"${String(s).replace(/"/g, '""')}"` : String(s));
  const labs = [...new Set(rows.map((r) => r.lab))].sort();
  const newest = new Map<string, ReportRow>();
  const dropped: ReportRow[] = [];
  for (const r of byLearner(rows)) {
    const key = `${learnerOf(r)}\u0000${r.lab}`;
    const had = newest.get(key);
    if (!had) newest.set(key, r);
    else if (r.exportedAt > had.exportedAt) (dropped.push(had), newest.set(key, r));
    else dropped.push(r);
  }
  const learners = [...new Set(byLearner(rows).map(learnerOf))];
  const head = ["learner", ...labs.flatMap((l) => GRADE_COLUMNS.map(([c]) => `${l} ${c}`))];
  const body = learners.map((who) =>
    [who, ...labs.flatMap((l) => {
      const r = newest.get(`${who}\u0000${l}`);
      return GRADE_COLUMNS.map(([, f]) => (r ? f(r) : ""));
    })].map(q).join(","),
  );
  return { csv: [head.map(q).join(","), ...body].join("\n") + "\n", dropped };
}

/**
 * Rows whose answers look copied: two learners of one lab who gave the same answers to the
 * same keyed questions where their keys (their problems) differ. Each such row's `copied` says
 * with whom. A question answered by only one of them, or with the same key for both, says nothing.
 */
export function markCopies(rows: ReportRow[]): void {
  for (const a of rows)
    for (const b of rows) {
      if (a === b || a.lab !== b.lab || learnerOf(a) === learnerOf(b)) continue;
      // the same question answered by both, each with a key
      const pairs = a.answers.flatMap((q, i) => {
        const o = b.answers[i];
        return o && o.question === q.question && q.answer !== null && o.answer !== null && q.key !== null && o.key !== null ? [[q, o] as const] : [];
      });
      if (pairs.length && pairs.every(([q, o]) => q.answer === o.answer) && pairs.some(([q, o]) => q.key !== o.key))
        a.copied = `same answers as ${learnerOf(b)}, whose problem differs`;
    }
}
