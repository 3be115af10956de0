// A learner's progress as a file for the instructor ("Download my progress"), and the class
// table `fslab labs report` prints from a folder of them. One format, read back strictly.
import type { LabProgress } from "./progress";
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
  predictions?: Array<{ question: string; guess: string | null; actual: string | null }>;
}

export interface ProgressExport {
  format: typeof EXPORT_FORMAT;
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
export function progressExport(p: LabProgress, title: string, now = Date.now(), open?: { step: number; ms: number }): ProgressExport {
  return {
    format: EXPORT_FORMAT,
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
      predictions: (s.predictions ?? []).filter((x): x is PredictionRecord => !!x).map((x) => ({ question: x.question, guess: x.guess, actual: x.actual ?? null })),
    })),
  };
}

/** A progress file read back: the export, or why it is not one. */
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
  if (!Array.isArray(v.steps)) return { error: `"steps" is not a list` };
  for (const [i, s] of v.steps.entries()) {
    if (!s || typeof s.title !== "string" || !["passed", "skipped", "open"].includes(s.result) || !Number.isFinite(s.attempts) || typeof s.solutionShown !== "boolean")
      return { error: `step ${i + 1} is not a step record` };
    if (s.predictions !== undefined && (!Array.isArray(s.predictions) || s.predictions.some((x: any) => !x || typeof x.question !== "string" || (x.guess !== null && typeof x.guess !== "string") || (x.actual !== null && typeof x.actual !== "string"))))
      return { error: `step ${i + 1}'s predictions are not a list of question, guess and actual` };
  }
  return v as ProgressExport;
}

export interface ReportRow {
  file: string;
  lab: string;
  passed: number;
  skipped: number;
  steps: number;
  attempts: number;
  hints: number;
  solutions: number;
  minutes: number;
  /** predictions made, and how many were near what the kernel did (the same choice, a number within 10%) */
  predicted: number;
  near: number;
  exportedAt: string;
  /** why the row is for another version of the lab, if it is */
  otherVersion?: string;
}

export function reportRow(file: string, x: ProgressExport, currentHash?: string): ReportRow {
  const sum = (f: (s: StepExport) => number) => x.steps.reduce((a, s) => a + f(s), 0);
  return {
    file,
    lab: x.lab,
    passed: x.steps.filter((s) => s.result === "passed").length,
    skipped: x.steps.filter((s) => s.result === "skipped").length,
    steps: x.steps.length,
    attempts: sum((s) => s.attempts),
    hints: sum((s) => s.hintsShown),
    solutions: sum((s) => (s.solutionShown ? 1 : 0)),
    minutes: Math.round(sum((s) => s.openSeconds ?? 0) / 60),
    predicted: sum((s) => (s.predictions ?? []).filter((x) => x.guess !== null).length),
    near: sum((s) => (s.predictions ?? []).filter((x) => near(x.guess, x.actual ?? undefined)).length),
    exportedAt: x.exportedAt,
    otherVersion: currentHash && currentHash !== x.labHash ? `lab file ${x.labHash.slice(0, 12)}, this one ${currentHash.slice(0, 12)}` : undefined,
  };
}

const COLUMNS: Array<[string, (r: ReportRow) => string | number]> = [
  ["file", (r) => r.file],
  ["lab", (r) => r.lab],
  ["passed", (r) => `${r.passed}/${r.steps}`],
  ["skipped", (r) => r.skipped],
  ["attempts", (r) => r.attempts],
  ["hints", (r) => r.hints],
  ["solutions", (r) => r.solutions],
  ["minutes", (r) => r.minutes],
  ["predictions near", (r) => (r.predicted ? `${r.near}/${r.predicted}` : "-")],
  ["exported", (r) => r.exportedAt.slice(0, 16).replace("T", " ")],
  ["note", (r) => (r.otherVersion ? `another version of the lab (${r.otherVersion})` : "")],
];

export function reportText(rows: ReportRow[]): string {
  const cells = [COLUMNS.map((c) => c[0]), ...rows.map((r) => COLUMNS.map((c) => String(c[1](r))))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells.map((row) => row.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()).join("\n") + "\n";
}

export function reportCsv(rows: ReportRow[]): string {
  const q = (s: string | number) => (/[",\n]/.test(String(s)) ? `"${String(s).replace(/"/g, '""')}"` : String(s));
  const head = ["file", "lab", "passed", "steps", "skipped", "attempts", "hints", "solutions", "minutes", "predicted", "predictions_near", "exported", "other_version"];
  const body = rows.map((r) => [r.file, r.lab, r.passed, r.steps, r.skipped, r.attempts, r.hints, r.solutions, r.minutes, r.predicted, r.near, r.exportedAt, r.otherVersion ?? ""].map(q).join(","));
  return [head.join(","), ...body].join("\n") + "\n";
}
