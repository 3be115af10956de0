// A lab as the content of a SCORM package (`fslab export scorm`, docs/hosting.md): the page finds
// the LMS's runtime API as the standards say (SCORM 1.2's `API`, SCORM 2004's `API_1484_11`,
// searched up the window's parents, then its opener's), takes the learner's identity from it
// (their seeded problems and their gradebook row), reports the progress as steps pass (status,
// score, time, one interaction per question) and keeps a progress pointer in `suspend_data`, so
// a learner who comes back in the LMS resumes at their step. In a package that loads the lab
// from the instructor's site (`--base`), the API is in the package's launch page, another
// origin: the page talks to it through messages (BridgeApi; the launch page is
// bin/commands/scorm-launch.js).
//
// Everything the LMS answers is untrusted: a damaged, foreign or over-long suspend_data is
// refused with a clear message (parseSuspendData, fuzzed), an LMS that answers errors or
// disappears is said once, and the learner keeps their machine and progress in this browser.
// Nothing from the LMS is ever run or put in the page as markup.
import type { LabProgress } from "./progress";
import type { ReportRow } from "./report";

export type ScormVersion = "1.2" | "2004";

/** SCORM 1.2's runtime API (the LMS's `window.API`) */
interface Api12 {
  LMSInitialize(arg: ""): string;
  LMSFinish(arg: ""): string;
  LMSGetValue(key: string): string;
  LMSSetValue(key: string, value: string): string;
  LMSCommit(arg: ""): string;
  LMSGetLastError(): string;
  LMSGetErrorString(code: string): string;
}

/** SCORM 2004's runtime API (`window.API_1484_11`) */
interface Api2004 {
  Initialize(arg: ""): string;
  Terminate(arg: ""): string;
  GetValue(key: string): string;
  SetValue(key: string, value: string): string;
  Commit(arg: ""): string;
  GetLastError(): string;
  GetErrorString(code: string): string;
}

/** The most characters suspend_data may hold: SCORM 1.2's CMIString4096, SCORM 2004's 64000. */
export const SUSPEND_LIMIT: Record<ScormVersion, number> = { "1.2": 4096, "2004": 64000 };
/** the scaled score from which a completed lab is passed (the package's manifest says the same) */
export const MASTERY = 0.8;

const API_NAME: Record<ScormVersion, string> = { "1.2": "API", "2004": "API_1484_11" };

/**
 * The LMS's API object for this window, or null: the window, then its parents (at most 7 levels,
 * as ADL's findAPI), then the opener and its parents. A frame of another origin is passed over.
 */
export function findApi(win: Window, version: ScormVersion): unknown {
  const name = API_NAME[version];
  const up = (w: Window | null): unknown => {
    for (let tries = 0; w && tries <= 7; tries++) {
      try {
        const api = (w as unknown as Record<string, unknown>)[name];
        if (api && typeof api === "object") return api;
      } catch {
        // another origin's frame: not ours to read
      }
      if (w.parent === w) break;
      w = w.parent;
    }
    return null;
  };
  let opener: Window | null = null;
  try {
    opener = win.opener as Window | null;
  } catch {
    opener = null;
  }
  return up(win) ?? up(opener);
}

/** What the lab reads from the LMS as it starts. */
export interface LmsStart {
  learnerId: string;
  learnerName: string;
  /** suspend_data as the LMS keeps it ("" on a first launch): parseSuspendData reads it */
  suspend: string;
}

/** The progress pointer kept in suspend_data: which lab, the open step, the steps passed. */
export interface SuspendData {
  v: 1;
  lab: string;
  step: number;
  passed: number[];
}

/** suspend_data read back strictly: the pointer, or why it is not one of this lab's. */
export function parseSuspendData(text: unknown, lab: string, steps: number, version: ScormVersion): SuspendData | { error: string } {
  if (typeof text !== "string") return { error: "the LMS's suspend_data is not text" };
  if (text.length > SUSPEND_LIMIT[version]) return { error: `the LMS's suspend_data is ${text.length} characters, over SCORM ${version}'s ${SUSPEND_LIMIT[version]}` };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { error: "the LMS's suspend_data is not this lab's (not JSON)" };
  }
  const o = v as Partial<SuspendData> | null;
  if (!o || typeof o !== "object" || o.v !== 1) return { error: "the LMS's suspend_data is not an fslab progress pointer" };
  if (o.lab !== lab) return { error: `the LMS's suspend_data is another lab's (${JSON.stringify(String(o.lab)).slice(0, 60)})` };
  const isStep = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) < steps;
  if (!isStep(o.step)) return { error: `the LMS's suspend_data points at step ${JSON.stringify(o.step)?.slice(0, 20)}: this lab has ${steps}` };
  if (!Array.isArray(o.passed) || o.passed.length > steps || !o.passed.every(isStep) || new Set(o.passed).size !== o.passed.length)
    return { error: "the LMS's suspend_data's passed steps are not steps of this lab" };
  return { v: 1, lab, step: o.step, passed: [...o.passed].sort((a, b) => a - b) };
}

/** The pointer for a progress (what suspend_data keeps). */
export function suspendDataOf(p: LabProgress): string {
  const d: SuspendData = { v: 1, lab: p.lab, step: p.step, passed: p.steps.flatMap((s, i) => (s.passedAt ? [i] : [])) };
  return JSON.stringify(d);
}

/** The score a progress earns, as `fslab labs report` counts it (report.ts scoreOf). */
export interface Score {
  raw: number;
  max: number;
}

/** One question as the LMS records it (an interaction). */
export interface Interaction {
  id: string;
  description: string;
  answer: string;
  /** the learner's key (their seed's model answer), or their own run's measure where there is no key */
  expected: string;
  correct: boolean;
}

/** What the lab reports: built from the same export `fslab labs report` reads. */
export interface LmsReport {
  complete: boolean;
  score: Score;
  interactions: Interaction[];
  suspend: string;
  location: string;
  sessionSeconds: number;
}

/** A report from a progress and its row as the class report has it. */
export function lmsReport(p: LabProgress, row: ReportRow, questions: ReadonlyArray<{ step: number; k: number; question: string; answer: string | null; expected: string | null; right: boolean }>, sessionSeconds: number, score: Score): LmsReport {
  return {
    complete: row.steps > 0 && row.passed === row.steps,
    score,
    interactions: questions
      .filter((q) => q.answer !== null)
      .map((q) => ({ id: `s${q.step + 1}-q${q.k + 1}`, description: q.question.slice(0, 250), answer: (q.answer ?? "").slice(0, 250), expected: (q.expected ?? "").slice(0, 250), correct: q.right })),
    suspend: suspendDataOf(p),
    location: `step-${p.step + 1}`,
    sessionSeconds,
  };
}

/** An LMS call that failed: what was asked and what the LMS said. */
export class LmsError extends Error {}

/** SCORM 1.2's CMITimespan: HHHH:MM:SS.SS */
export function timespan12(seconds: number): string {
  const s = Math.max(0, Math.min(seconds, 9999 * 3600 + 3599));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s - h * 3600 - m * 60;
  return `${String(h).padStart(4, "0")}:${String(m).padStart(2, "0")}:${sec.toFixed(2).padStart(5, "0")}`;
}

/** SCORM 2004's timeinterval (ISO 8601 duration): PT#H#M#S */
export function timespan2004(seconds: number): string {
  const s = Math.max(0, seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = Math.round((s - h * 3600 - m * 60) * 100) / 100;
  return `PT${h}H${m}M${sec}S`;
}

/**
 * One session with the LMS, either version, over its API object (found by findApi, or the
 * message bridge): initialise, read the learner, report, commit, finish. Each call checks the
 * LMS's answer; a failure throws an LmsError with the LMS's own error string.
 */
export class LmsSession implements LmsChannel {
  private open = false;
  constructor(
    readonly version: ScormVersion,
    private readonly api: unknown,
  ) {}

  private call(name12: keyof Api12, name2004: keyof Api2004, ...args: string[]): string {
    const fn = (this.api as Record<string, unknown>)[this.version === "1.2" ? name12 : name2004];
    if (typeof fn !== "function") throw new LmsError(`the LMS's API has no ${this.version === "1.2" ? name12 : name2004}()`);
    let r: unknown;
    try {
      r = fn.apply(this.api, args);
    } catch (e) {
      throw new LmsError(`the LMS's ${this.version === "1.2" ? name12 : name2004}() failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return typeof r === "string" ? r : String(r);
  }

  /** the LMS's last error, in its words */
  private lastError(): string {
    try {
      const code = this.call("LMSGetLastError", "GetLastError");
      if (code === "0" || code === "") return "no error code";
      return `${code}: ${this.call("LMSGetErrorString", "GetErrorString", code).slice(0, 200)}`;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  private ok(r: string, what: string): void {
    if (r !== "true") throw new LmsError(`the LMS refused ${what} (${this.lastError()})`);
  }

  private get(key: string): string {
    const v = this.call("LMSGetValue", "GetValue", key);
    return typeof v === "string" ? v : "";
  }

  private set(key: string, value: string): void {
    this.ok(this.call("LMSSetValue", "SetValue", key, value), `${key}`);
  }

  /** Initialise, and read who the learner is and where they were. */
  start(): LmsStart {
    this.ok(this.call("LMSInitialize", "Initialize", ""), "to start a session");
    this.open = true;
    const v12 = this.version === "1.2";
    const learnerId = this.get(v12 ? "cmi.core.student_id" : "cmi.learner_id").trim().slice(0, 200);
    const learnerName = this.get(v12 ? "cmi.core.student_name" : "cmi.learner_name").trim().slice(0, 200);
    if (!learnerId) throw new LmsError("the LMS gave no learner ID");
    return { learnerId, learnerName, suspend: this.get("cmi.suspend_data") };
  }

  /** Report the progress and commit it. */
  report(r: LmsReport): void {
    if (!this.open) return;
    for (const [k, v] of reportValues(this.version, r)) this.set(k, v);
    this.ok(this.call("LMSCommit", "Commit", ""), "to keep the progress (commit)");
  }

  /** End the session (the page is left). */
  finish(): void {
    if (!this.open) return;
    this.open = false;
    this.ok(this.call("LMSFinish", "Terminate", ""), "to end the session");
  }
}

/**
 * The data model values a report sets, in order (status after score: an LMS may compute one from
 * the other), for a version. Throws when the pointer is over the version's suspend_data limit.
 */
export function reportValues(version: ScormVersion, r: LmsReport): Array<[string, string]> {
  const v12 = version === "1.2";
  if (r.suspend.length > SUSPEND_LIMIT[version]) throw new LmsError(`the progress pointer is ${r.suspend.length} characters, over SCORM ${version}'s ${SUSPEND_LIMIT[version]}`);
  const out: Array<[string, string]> = [];
  const set = (k: string, v: string) => out.push([k, v]);
  set("cmi.suspend_data", r.suspend);
  set(v12 ? "cmi.core.lesson_location" : "cmi.location", r.location);
  const scaled = r.score.max > 0 ? r.score.raw / r.score.max : 0;
  set(v12 ? "cmi.core.score.min" : "cmi.score.min", "0");
  set(v12 ? "cmi.core.score.max" : "cmi.score.max", String(r.score.max));
  set(v12 ? "cmi.core.score.raw" : "cmi.score.raw", String(r.score.raw));
  if (v12) set("cmi.core.lesson_status", !r.complete ? "incomplete" : scaled >= MASTERY ? "passed" : "failed");
  else {
    set("cmi.score.scaled", scaled.toFixed(4).replace(/0+$/, "").replace(/\.$/, ""));
    set("cmi.completion_status", r.complete ? "completed" : "incomplete");
    set("cmi.success_status", !r.complete ? "unknown" : scaled >= MASTERY ? "passed" : "failed");
  }
  r.interactions.forEach((q, n) => {
    const at = `cmi.interactions.${n}`;
    set(`${at}.id`, q.id);
    set(`${at}.type`, "fill-in");
    set(`${at}.correct_responses.0.pattern`, cmiText(q.expected));
    set(v12 ? `${at}.student_response` : `${at}.learner_response`, cmiText(q.answer));
    set(`${at}.result`, q.correct ? "correct" : v12 ? "wrong" : "incorrect");
    if (!v12) set(`${at}.description`, q.description);
  });
  set(v12 ? "cmi.core.session_time" : "cmi.session_time", v12 ? timespan12(r.sessionSeconds) : timespan2004(r.sessionSeconds));
  set(v12 ? "cmi.core.exit" : "cmi.exit", r.complete ? "" : "suspend");
  return out;
}

/**
 * What a lab's page reports through: the LMS's API in reach (LmsSession), or a package's launch
 * page over messages (BridgeChannel). `report` throws an LmsError it knows of at once; a bridge's
 * later refusal comes to `onError`.
 */
export interface LmsChannel {
  report(r: LmsReport): void;
  finish(): void;
  onError?: (message: string) => void;
}

/** A message of the SCORM bridge (scorm-launch.ts), as the lab's page takes it from its parent. */
function bridgeMessage(data: unknown): { type: string; [k: string]: unknown } | null {
  const m = data as { fslab?: unknown; type?: unknown } | null;
  return m && typeof m === "object" && m.fslab === "scorm" && typeof m.type === "string" ? (m as { type: string }) : null;
}

/**
 * The lab in a package's frame (`fslab export scorm --base`): the launch page (the parent, the
 * LMS's origin) holds the API. The first "start" from the parent pins its origin; everything
 * after is sent to that origin alone, and taken from it alone.
 */
export class BridgeChannel implements LmsChannel {
  onError?: (message: string) => void;
  private done = false;
  private constructor(
    private readonly win: Window,
    private readonly origin: string,
    readonly version: ScormVersion,
  ) {
    win.addEventListener("message", (e) => {
      if (e.source !== win.parent || e.origin !== origin) return;
      const m = bridgeMessage(e.data);
      if (m?.type === "reported" && typeof m.error === "string" && m.error) this.onError?.(m.error.slice(0, 300));
    });
  }

  /** Ask the parent for the session; null and why, when no launcher answers in time. */
  static connect(win: Window, timeoutMs = 10_000): Promise<{ channel: BridgeChannel; start: LmsStart } | { error: string }> {
    return new Promise((resolve) => {
      if (win.parent === win) return resolve({ error: "this page is not in a package's frame" });
      const timer = setTimeout(() => {
        win.removeEventListener("message", on);
        resolve({ error: `no launch page answered in ${timeoutMs / 1000} s` });
      }, timeoutMs);
      const on = (e: MessageEvent) => {
        if (e.source !== win.parent) return;
        const m = bridgeMessage(e.data);
        if (!m || (m.type !== "start" && m.type !== "no-lms")) return;
        clearTimeout(timer);
        win.removeEventListener("message", on);
        if (m.type === "no-lms") return resolve({ error: String(m.reason ?? "no LMS").slice(0, 300) });
        const str = (v: unknown, max: number) => (typeof v === "string" ? v.slice(0, max) : "");
        const version = m.version === "1.2" || m.version === "2004" ? m.version : null;
        const learnerId = str(m.learnerId, 200).trim();
        if (!version || !learnerId) return resolve({ error: "the launch page's answer is not a SCORM session" });
        resolve({ channel: new BridgeChannel(win, e.origin, version), start: { learnerId, learnerName: str(m.learnerName, 200).trim(), suspend: str(m.suspend, SUSPEND_LIMIT[version] + 1) } });
      };
      win.addEventListener("message", on);
      // the hello carries nothing: any parent may hear it
      win.parent.postMessage({ fslab: "scorm", type: "hello" }, "*");
    });
  }

  report(r: LmsReport): void {
    if (this.done) return;
    this.win.parent.postMessage({ fslab: "scorm", type: "report", values: reportValues(this.version, r) }, this.origin);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    this.win.parent.postMessage({ fslab: "scorm", type: "finish" }, this.origin);
  }
}

/** A fill-in answer as CMI text: no delimiters of the formats ([,] in 1.2, [.] in 2004), short */
function cmiText(s: string): string {
  return s.replace(/\[[,.:]\]/g, " ").replace(/[\r\n\t]+/g, " ").trim().slice(0, 250);
}

/** The SCORM version a page was launched for: `?scorm=1.2`, `?scorm=2004` (the package's launch address), or none. */
export function scormLaunch(search: string): ScormVersion | "bridge" | null {
  const v = new URLSearchParams(search).get("scorm");
  return v === "1.2" || v === "2004" || v === "bridge" ? v : null;
}
