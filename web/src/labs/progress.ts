// What a learner did in a lab, kept in the browser's IndexedDB (through idb) so a reload
// returns to it: the current step, each step's result and when, attempts, hints and the
// solution used, the last check's output; and the machine itself, as compressed v86 snapshots.
//
//   progress   key: lab id            LabProgress
//   snapshots  key: "<lab>/step"      the machine as the current step opened ("Reset this step")
//              key: "<lab>/latest"    the newest snapshot (a step passed since): what a reload restores
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { PredictionRecord } from "./predict";
import type { QuestionRecord } from "./question";

export interface StepRecord {
  title: string;
  /** when its checks first passed (ms since 1970), until the step is reset */
  passedAt?: number;
  /** when the learner went on without the checks passing */
  skippedAt?: number;
  /** checks the learner asked for (Check, or Next) */
  attempts: number;
  /** checks the page ran on its own while the step was open */
  autoChecks: number;
  hintsShown: number;
  solutionShown: boolean;
  /** the last check's result and what it printed */
  lastResult?: "pass" | "fail" | "error";
  lastOutput?: string;
  /** time the step was open, summed over visits */
  openMs: number;
  resets: number;
  /** the step's predict blocks in order: the learner's answer and, once measured, the kernel's */
  predictions?: Array<PredictionRecord | null>;
  /** the step's hint blocks revealed, by their index among its hints, in the order shown */
  hintsSeen?: number[];
  /** the step's question blocks in order: the learner's answer beside their run's (question.ts) */
  questions?: Array<QuestionRecord | null>;
  /** answers given to each question, over the step's resets (each reset is a new run) */
  questionTries?: number[];
}

export interface LabProgress {
  lab: string;
  /** sha-256 of the lab file the progress was made on */
  labHash: string;
  /** the guest build (guestBuildId) the progress was made on */
  guest: string;
  step: number;
  startedAt: number;
  updatedAt: number;
  steps: StepRecord[];
}

export interface Snapshot {
  lab: string;
  step: number;
  /** where it fits: the guest build, the v86 version and the memory size it was saved from */
  guest: string;
  v86: string;
  memory: number;
  /** when the machine was in this state (ms since 1970): the newest of two is the one to restore */
  savedAt: number;
  /** gzip of v86's save_state() */
  gz: Blob;
  rawBytes: number;
}

interface FslabDB extends DBSchema {
  progress: { key: string; value: LabProgress };
  snapshots: { key: string; value: Snapshot };
}

let db: Promise<IDBPDatabase<FslabDB>> | null = null;

function open(): Promise<IDBPDatabase<FslabDB>> {
  db ??= openDB<FslabDB>("fslab", 1, {
    upgrade(d) {
      d.createObjectStore("progress");
      d.createObjectStore("snapshots");
    },
  }).catch((e) => {
    db = null;
    throw new StoreError(`The browser's storage (IndexedDB) could not be opened: ${messageOf(e)}. Progress will not survive a reload.`);
  });
  return db;
}

/**
 * Start opening the browser's storage now (a lab page does so as it opens, while its text
 * downloads: the first open of a profile's database costs tens of ms). Its error, if any, is
 * reported where the storage is first read.
 */
export function openStore(): void {
  open().catch(() => undefined);
}

export class StoreError extends Error {}

function messageOf(e: unknown): string {
  if (e instanceof DOMException && e.name === "QuotaExceededError") return "the browser refused the space (its storage quota is full)";
  return e instanceof Error ? e.message : String(e);
}

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
  try {
    stored = await (await open()).get("progress", lab);
  } catch (e) {
    return { progress: freshProgress(lab, labHash, guest, titles), notice: e instanceof StoreError ? e.message : `Your saved progress could not be read (${messageOf(e)}).` };
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

/**
 * Labs started over in this page: nothing more is stored for them until the page reloads, so a
 * check or a snapshot still under way when the learner pressed "Start over" cannot bring back
 * what was cleared.
 */
const cleared = new Set<string>();

export async function saveProgress(p: LabProgress): Promise<void> {
  p.updatedAt = Date.now();
  try {
    const d = await open();
    if (cleared.has(p.lab)) return;
    await d.put("progress", structuredClone(p), p.lab);
  } catch (e) {
    throw new StoreError(`Your progress could not be saved: ${messageOf(e)}.`);
  }
}

/**
 * Every lab's stored progress, for the home page's course: what was started and how far it
 * went. Entries that are not progress (damaged, another page's) are left out; no storage at all
 * is no progress.
 */
export async function allProgress(): Promise<LabProgress[]> {
  try {
    const d = await open();
    return (await d.getAll("progress")).filter((p) => validProgress(p, p?.lab));
  } catch {
    return [];
  }
}

export async function clearLab(lab: string): Promise<void> {
  cleared.add(lab);
  const d = await open();
  await Promise.all([d.delete("progress", lab), d.delete("snapshots", `${lab}/step`), d.delete("snapshots", `${lab}/latest`)]);
}

/** Forget the lab's stored machines (its progress stays): a reload then starts the lab's own saved machine. */
export async function dropSnapshots(lab: string): Promise<void> {
  const d = await open();
  await Promise.all([d.delete("snapshots", `${lab}/step`), d.delete("snapshots", `${lab}/latest`)]);
}

export type SnapshotKind = "step" | "latest";

export async function putSnapshot(kind: SnapshotKind, s: Snapshot): Promise<void> {
  try {
    const d = await open();
    if (cleared.has(s.lab)) return;
    await d.put("snapshots", s, `${s.lab}/${kind}`);
    // one machine for a reload: a step's own snapshot is also the newest until a newer one
    if (kind === "step") await d.delete("snapshots", `${s.lab}/latest`);
  } catch (e) {
    throw new StoreError(`The machine's snapshot (${(s.gz.size / 2 ** 20).toFixed(1)} MB) could not be stored: ${messageOf(e)}. A reload will not bring this machine back.`);
  }
}

export async function getSnapshot(lab: string, kind: SnapshotKind): Promise<Snapshot | undefined> {
  const s = await (await open()).get("snapshots", `${lab}/${kind}`);
  if (s === undefined) return undefined;
  if (!s || typeof s !== "object" || !(s.gz instanceof Blob) || !Number.isInteger(s.step) || typeof s.guest !== "string")
    throw new StoreError("The machine stored for this lab was damaged and could not be used.");
  return s;
}

/** The newest stored machine of a lab: a passed step's or the current step's start, whichever was saved last. */
export async function newestSnapshot(lab: string): Promise<(Snapshot & { kind: SnapshotKind }) | undefined> {
  // both asked at once: the lab page's VM waits for this answer
  const [latest, step] = await Promise.all([getSnapshot(lab, "latest"), getSnapshot(lab, "step")]);
  if (latest && (!step || latest.savedAt >= step.savedAt)) return { ...latest, kind: "latest" };
  return step && { ...step, kind: "step" };
}
