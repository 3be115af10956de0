// The lab page's link to an LMS, when it was launched from a SCORM package (scorm.ts): made once
// per page load, before the learner's progress and machine are looked up, because the LMS says
// whose they are. Every failure is said in words and leaves the lab running on its own.
import { BridgeChannel, findApi, LmsSession, parseSuspendData, scormLaunch, lmsReport, type LmsChannel, type ScormVersion } from "./scorm";
import { clearLab, type LabProgress } from "./progress";
import { progressExport, reportRow, scoreOf } from "./report";
import type { Lab } from "./lab-format";

export interface LmsLink {
  /** the lab the package launched (its item's address): the SCO, whose session this is */
  lab: string;
  version: ScormVersion;
  learnerId: string;
  learnerName: string;
  /** suspend_data as the LMS gave it */
  suspend: string;
  session: LmsChannel;
}

/** The link, or why there is none ("" when the page was not launched from a package). */
export type LmsState = { link: LmsLink; note?: string } | { link: null; note: string };

let made: Promise<LmsState> | null = null;

/** Connect to the LMS once for this page load (a lab page mounted again reuses it). */
export function connectLms(win: Window = window): Promise<LmsState> {
  return (made ??= connect(win));
}

async function connect(win: Window): Promise<LmsState> {
  const v = scormLaunch(win.location.search);
  if (!v) return { link: null, note: "" };
  const lab = /^#\/lab\/([a-z0-9][a-z0-9-]*)/.exec(win.location.hash)?.[1] ?? "";
  if (v === "bridge") {
    // in a package's frame (fslab export scorm --base): its launch page holds the API
    const b = await BridgeChannel.connect(win);
    if ("error" in b) return { link: null, note: `This lab was launched from a SCORM package, but its LMS is not in reach (${b.error}): it runs on its own, and nothing is reported.` };
    return { link: { lab, version: b.channel.version, ...b.start, session: b.channel } };
  }
  const api = findApi(win, v);
  if (!api) return { link: null, note: `This lab was opened outside an LMS (no SCORM ${v} API in the windows around it): it runs on its own, and nothing is reported to a gradebook.` };
  const session = new LmsSession(v, api);
  try {
    const s = session.start();
    return { link: { lab, version: v, ...s, session } };
  } catch (e) {
    return { link: null, note: `Your LMS did not start a session (${e instanceof Error ? e.message : e}): the lab runs on its own, and nothing is reported.` };
  }
}

/** Which LMS learner a lab's progress in this browser was last for (a shared computer: another learner's is not theirs). */
const learnerKey = (lab: string) => `fslab-lms-learner:${lab}`;

/**
 * Before the progress and the machine are looked up: a lab this browser kept for another LMS
 * learner is dropped (their problem, their machine), so this learner starts their own. Returns
 * a notice when it did.
 */
export async function claimLab(lab: string, link: LmsLink): Promise<string | undefined> {
  let before: string | null = null;
  try {
    before = localStorage.getItem(learnerKey(lab));
    localStorage.setItem(learnerKey(lab), link.learnerId);
  } catch {
    return undefined; // storage refused: the progress's own identity is all there is
  }
  if (before === null || before === link.learnerId) return undefined;
  await clearLab(lab).catch(() => undefined);
  return "This browser held another learner's work on this lab: it was put away, and you start your own.";
}

/**
 * The progress as the LMS last knew it: the learner's identity is the LMS's, and the steps the
 * LMS says were passed (in another browser) are passed here too; the page then offers to redo
 * their commands, as after any machine that cannot come back. Returns a notice for the learner.
 */
export function applyLms(p: LabProgress, lab: Lab, link: LmsLink): string | undefined {
  p.identity = link.learnerId;
  if (!link.suspend) return undefined;
  const d = parseSuspendData(link.suspend, lab.meta.id, lab.steps.length, link.version);
  if ("error" in d) return `${d.error}: it is left as it was, and the lab goes on from this browser's progress.`;
  let moved = false;
  for (const i of d.passed)
    if (!p.steps[i].passedAt) {
      p.steps[i].passedAt = Date.now();
      moved = true;
    }
  if (d.step > p.step) {
    p.step = d.step;
    moved = true;
  }
  return moved ? `Your LMS says you had reached step ${d.step + 1}: the lab opens there.` : undefined;
}

/**
 * Tell the LMS the progress: its score and status as `fslab labs report` counts them (the same
 * export and row), each answered question, the pointer, the time on the page.
 */
export function reportToLms(link: LmsLink, p: LabProgress, lab: Lab, pageStartedAt: number, now = Date.now()): void {
  const x = progressExport(p, lab.meta.title, now, undefined, { steps: lab.steps, learner: link.learnerId });
  const row = reportRow("lms", x);
  const questions = x.steps.flatMap((s, step) => (s.questions ?? []).map((q, k) => ({ step, k, question: q.question, answer: q.answer, expected: q.key ?? q.actual, right: q.right })));
  link.session.report(lmsReport(p, row, questions, (now - pageStartedAt) / 1000, scoreOf(row)));
}
