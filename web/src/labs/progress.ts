// What a learner did in a lab: the current step, each step's result and when, attempts, hints and
// the solution used, the last check's output, their answers. Kept in the lab store
// (lab-store.ts: "<lab>/progress") so a reload returns to it, and first in a journal in
// localStorage, written at once: a reload in the milliseconds after Next (before IndexedDB's
// transaction commits: a page unloading aborts it) still finds the step the learner is on.
// A load takes the newer of the two.
import { dropJournal, isCleared, JOURNAL, journalKey, messageOf, open, progressKey, StoreError } from "./lab-store";
import type { LabProgress, ProgressRecord, StepRecord } from "./lab-store";

export { clearLab, openStore, StoreError } from "./lab-store";
export type { CodeRecord, LabProgress, StepRecord } from "./lab-store";

export function newStep(title: string): StepRecord {
  return { title, attempts: 0, autoChecks: 0, hintsShown: 0, solutionShown: false, openMs: 0, resets: 0 };
}

export function freshProgress(lab: string, labHash: string, guest: string, titles: string[]): LabProgress {
  const now = Date.now();
  return { lab, labHash, guest, step: 0, startedAt: now, updatedAt: now, steps: titles.map(newStep) };
}

/** A stored entry is checked, not trusted: another version of the page, or a damaged store, may have written it. */
export function validProgress(v: unknown, lab: string): v is LabProgress {
  const p = v as LabProgress;
  return (
    !!p && typeof p === "object" && p.lab === lab && typeof p.labHash === "string" && typeof p.guest === "string" &&
    (p.identity === undefined || (typeof p.identity === "string" && p.identity.length > 0 && p.identity.length <= 200)) &&
    Number.isInteger(p.step) && p.step >= 0 && Array.isArray(p.steps) && p.step < Math.max(1, p.steps.length) &&
    p.steps.every((s) => s && typeof s === "object" && typeof s.title === "string" && Number.isFinite(s.attempts) && typeof s.solutionShown === "boolean")
  );
}

/**
 * The stored progress of a lab, fitted to the lab's steps as they are now: a step keeps its
 * record where its title is unchanged. A `notice` says what could not be kept, and why.
 */
export async function loadProgress(lab: string, labHash: string, guest: string, titles: string[]): Promise<{ progress: LabProgress; notice?: string }> {
  let stored: unknown;
  const journal = readJournal(lab);
  try {
    stored = newerProgress(withoutKind(await (await open()).get("labs", progressKey(lab))), journal);
  } catch (e) {
    if (journal) stored = journal;
    else return { progress: freshProgress(lab, labHash, guest, titles), notice: e instanceof StoreError ? e.message : `Your saved progress could not be read (${messageOf(e)}).` };
  }
  if (stored === undefined) return { progress: freshProgress(lab, labHash, guest, titles) };
  if (!validProgress(stored, lab))
    return { progress: freshProgress(lab, labHash, guest, titles), notice: "The progress stored for this lab was damaged and could not be used: starting fresh." };
  if (stored.labHash === labHash) return { progress: stored };
  // the lab's text changed: keep what still matches by title
  const byTitle = new Map(stored.steps.map((s) => [s.title, s]));
  const steps = titles.map((t) => byTitle.get(t) ?? newStep(t));
  const current = titles.indexOf(stored.steps[stored.step]?.title ?? "");
  const progress = { ...stored, labHash, steps, step: current >= 0 ? current : 0 };
  const lost = stored.steps.filter((s) => !titles.includes(s.title)).length;
  return { progress, notice: `This lab's text changed since your last visit; your marks were kept for the steps whose titles are unchanged${lost ? ` (${lost} not)` : ""}.` };
}

export async function saveProgress(p: LabProgress): Promise<void> {
  p.updatedAt = Date.now();
  if (isCleared(p.lab)) return;
  const { token, written } = writeJournal(p);
  try {
    const d = await open();
    if (isCleared(p.lab)) return;
    await d.put("labs", { ...structuredClone(p), kind: "progress" } satisfies ProgressRecord, progressKey(p.lab));
  } catch (e) {
    if (e instanceof StoreError) throw e; // IndexedDB could not be opened: its message says what is kept
    // the journal stays: the next load reads it (loadProgress takes the newer of the two)
    const kept = written ? "A copy in the browser's local storage keeps your marks across a reload." : "It will not survive a reload.";
    throw new StoreError(`Your progress could not be saved: ${messageOf(e)}. ${kept}`);
  }
  // stored: the journal goes, unless a newer save has written it since
  if (journaled.get(p.lab) === token) dropJournal(p.lab);
}

// The journal: each save of a lab's progress is first written to localStorage, at once, and
// dropped once IndexedDB has it.
const journaled = new Map<string, number>();
let journalSeq = 0;

function writeJournal(p: LabProgress): { token: number; written: boolean } {
  const token = ++journalSeq;
  journaled.set(p.lab, token);
  try {
    localStorage.setItem(journalKey(p.lab), JSON.stringify(p));
    return { token, written: true };
  } catch {
    // no localStorage (or it is full): IndexedDB alone keeps the progress, as before
    return { token, written: false };
  }
}

function readJournal(lab: string): LabProgress | undefined {
  try {
    const j: unknown = JSON.parse(localStorage.getItem(journalKey(lab)) ?? "null");
    return validProgress(j, lab) ? j : undefined;
  } catch {
    return undefined;
  }
}

/** the labs with a journal not yet dropped */
function journalLabs(): string[] {
  try {
    return Object.keys(localStorage).flatMap((k) => (k.startsWith(JOURNAL) ? [k.slice(JOURNAL.length)] : []));
  } catch {
    return [];
  }
}

/** Of the progress IndexedDB holds and the journal's, the newer (the stored one on a tie). */
export function newerProgress(stored: unknown, journal: LabProgress | undefined): unknown {
  if (!journal) return stored;
  if (stored && typeof stored === "object" && Number((stored as LabProgress).updatedAt) >= journal.updatedAt) return stored;
  return journal;
}

/**
 * Every lab's stored progress, for the home page's course: what was started and how far it
 * went. Entries that are not progress (damaged, another page's) are left out; without IndexedDB,
 * the local storage journal's marks alone.
 */
export async function allProgress(): Promise<LabProgress[]> {
  try {
    const d = await open();
    const stored = (await d.getAllFromIndex("labs", "kind", "progress")).map(withoutKind).filter((p) => validProgress(p, (p as LabProgress)?.lab)) as LabProgress[];
    const labs = new Set([...stored.map((p) => p.lab), ...journalLabs()]);
    return [...labs].flatMap((lab) => {
      const p = newerProgress(stored.find((s) => s.lab === lab), readJournal(lab));
      return validProgress(p, lab) ? [p] : [];
    });
  } catch {
    // no IndexedDB: the marks the journal keeps are still the learner's (the lab page reads them too)
    return journalLabs().flatMap((lab) => {
      const j = readJournal(lab);
      return j ? [j] : [];
    });
  }
}

/** a stored progress record as the page uses it: without the store's `kind` */
function withoutKind(r: unknown): unknown {
  if (!r || typeof r !== "object" || !("kind" in r)) return r;
  const { kind: _, ...p } = r as ProgressRecord;
  return p;
}
