// What a learner did in a lab, kept in the browser's IndexedDB (through idb) so a reload
// returns to it: the current step, each step's result and when, attempts, hints and the
// solution used, the last check's output; and the machine itself, as compressed v86 snapshots.
//
//   progress   key: lab id                   LabProgress
//   snapshots  key: "<lab>/head"             MachineHead: which records below are the lab's machines
//              key: "<lab>/m/<taken>-<n>"    Snapshot: one kept machine, written once, never changed
//              key: "<lab>/step", "/latest"  Snapshot: the layout before heads (read until the next write)
//
// A snapshot is stored in one transaction: the record, then the head switched to it, then the
// records the head no longer names dropped. A reload or a closed tab at any moment finds the head
// before or after that transaction, never between: the newest complete machine, whatever was
// still being compressed or written. (The database keeps version 1: a tab of an older version of
// the page, still open, shares it without an upgrade to wait for.)
import { openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore } from "idb";
import type { PredictionRecord } from "./predict";
import type { QuestionRecord } from "./question";
import type { CompileMessage } from "./code-grade";

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
  /** a code step's function (code-block.ts): the learner's text and their grades */
  code?: CodeRecord;
}

/** The learner's function in a code step, kept with their progress (the guest's file is the machine's). */
export interface CodeRecord {
  text: string;
  /** "Compile and grade" rounds, and the last one's verdict in a few lines (code-grade.ts gradeLines) */
  grades: number;
  last?: { kind: "compile" | "crash" | "error" | "agree" | "diverge"; lines: string[]; at: number; messages?: CompileMessage[] };
  /** the last grade the learner's function failed (a compile error, a crash, a divergence): its first line */
  lastFailure?: string;
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
  /** whose problem the lab's seeded values are (seed.ts): set as the lab starts, kept until "Start over" */
  identity?: string;
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

export type SnapshotKind = "step" | "latest";

/**
 * Which of a lab's stored machines count: `newest` is what a reload restores (a step's start or
 * the machine as a step passed, whichever was in its state last), `step` the open step's start
 * ("Reset this step" after a reload). Each names a record's key.
 */
export interface MachineHead {
  lab: string;
  newest: string;
  /** when the newest machine was in its state (its savedAt, or a reset's time) */
  newestAt: number;
  newestKind: SnapshotKind;
  step?: string;
  stepAt?: number;
}

interface FslabDB extends DBSchema {
  progress: { key: string; value: LabProgress };
  snapshots: { key: string; value: Snapshot | MachineHead };
}

let db: Promise<IDBPDatabase<FslabDB>> | null = null;

function open(): Promise<IDBPDatabase<FslabDB>> {
  // async: a browser whose indexedDB.open() throws at once rejects here like one whose request fails
  const request = async () =>
    openDB<FslabDB>("fslab", 1, {
      upgrade(d) {
        d.createObjectStore("progress");
        d.createObjectStore("snapshots");
      },
    });
  db ??= request().catch((e) => {
    db = null;
    // the journal (localStorage) still keeps the marks where the browser allows it
    const kept = journalWritable()
      ? "Your marks are kept in its local storage instead, but not your machine: after a reload the lab's own machine starts."
      : "Neither your marks nor your machine will survive a reload.";
    throw new StoreError(`The browser's storage (IndexedDB) could not be opened: ${messageOf(e)}. ${kept}`);
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
  // without its closing period: the messages here end the sentence themselves
  return (e instanceof Error ? e.message : String(e)).replace(/\.+$/, "");
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
    stored = newerProgress(await (await open()).get("progress", lab), journal);
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

/**
 * Labs started over in this page: nothing more is stored for them until the page reloads, so a
 * check or a snapshot still under way when the learner pressed "Start over" cannot bring back
 * what was cleared.
 */
const cleared = new Set<string>();

export async function saveProgress(p: LabProgress): Promise<void> {
  p.updatedAt = Date.now();
  if (cleared.has(p.lab)) return;
  const { token, written } = writeJournal(p);
  try {
    const d = await open();
    if (cleared.has(p.lab)) return;
    await d.put("progress", structuredClone(p), p.lab);
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
// dropped once IndexedDB has it. A reload in the milliseconds after Next (before IndexedDB's
// transaction commits: a page unloading aborts it) then still finds the step the learner is on.
// A load takes the newer of the two.
const JOURNAL = "fslab-progress-journal:";
const journalKey = (lab: string) => JOURNAL + lab;
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

/** Whether localStorage takes a write here (a browser may have none, or refuse it). */
function journalWritable(): boolean {
  try {
    localStorage.setItem("fslab-storage-probe", "1");
    localStorage.removeItem("fslab-storage-probe");
    return true;
  } catch {
    return false;
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

function dropJournal(lab: string): void {
  try {
    localStorage.removeItem(journalKey(lab));
  } catch {
    // nothing to drop
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
    const stored = (await d.getAll("progress")).filter((p) => validProgress(p, p?.lab));
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

export async function clearLab(lab: string): Promise<void> {
  cleared.add(lab);
  dropJournal(lab);
  const d = await open();
  const tx = d.transaction(["progress", "snapshots"], "readwrite");
  await Promise.all([tx.objectStore("progress").delete(lab), tx.objectStore("snapshots").delete(labKeys(lab)), tx.done]);
}

/** Forget the lab's stored machines (its progress stays): a reload then starts the lab's own saved machine. */
export async function dropSnapshots(lab: string): Promise<void> {
  const d = await open();
  await d.delete("snapshots", labKeys(lab));
}

/** every key of a lab's machines: its head, its records, and the layout before heads */
const labKeys = (lab: string) => IDBKeyRange.bound(`${lab}/`, `${lab}/\uffff`);
const headKey = (lab: string) => `${lab}/head`;
const LEGACY: Record<SnapshotKind, (lab: string) => string> = { step: (lab) => `${lab}/step`, latest: (lab) => `${lab}/latest` };

let written = 0;

type Store = IDBPObjectStore<FslabDB, ["snapshots"], "snapshots", "readwrite" | "readonly">;

/** The lab's head; for a store in the layout before heads, one made from its two keys. */
async function readHead(store: Store, lab: string): Promise<MachineHead | undefined> {
  const h = await store.get(headKey(lab));
  if (h !== undefined) return validHead(h, lab) ? h : undefined;
  const [step, latest] = await Promise.all([store.get(LEGACY.step(lab)), store.get(LEGACY.latest(lab))]);
  return legacyHead(lab, validSnapshot(step) ? step : undefined, validSnapshot(latest) ? latest : undefined);
}

/**
 * A head for the layout before heads: "<lab>/step" the step's start, "<lab>/latest" the machine
 * as a step passed since, the newer of the two what a reload restores.
 */
export function legacyHead(lab: string, step: Pick<Snapshot, "savedAt"> | undefined, latest: Pick<Snapshot, "savedAt"> | undefined): MachineHead | undefined {
  const stepPart = step ? { step: LEGACY.step(lab), stepAt: step.savedAt } : {};
  if (latest && (!step || latest.savedAt >= step.savedAt)) return { lab, newest: LEGACY.latest(lab), newestAt: latest.savedAt, newestKind: "latest", ...stepPart };
  return step && { lab, newest: LEGACY.step(lab), newestAt: step.savedAt, newestKind: "step", ...stepPart };
}

/**
 * The head once a machine taken at `at` is stored under `key`, and the records it no longer
 * names (to drop); null if the machine is older than what the head holds (nothing to store). A
 * step's start replaces the step's start; either kind is the newest if it is newer.
 */
export function nextHead(head: MachineHead | undefined, lab: string, kind: SnapshotKind, key: string, at: number): { head: MachineHead; drop: string[] } | null {
  const newest = !head || at >= head.newestAt;
  const step = kind === "step" && (!head?.step || at >= (head.stepAt ?? 0));
  if (!newest && !step) return null;
  const next: MachineHead = head ? { ...head } : { lab, newest: key, newestAt: at, newestKind: kind };
  if (newest) Object.assign(next, { newest: key, newestAt: at, newestKind: kind });
  if (step) Object.assign(next, { step: key, stepAt: at });
  // a head from the layout before heads names its keys: they go once nothing names them
  const named = new Set([next.newest, next.step]);
  const drop = [...new Set([head?.newest, head?.step, LEGACY.step(lab), LEGACY.latest(lab)])].filter((k): k is string => !!k && !named.has(k));
  return { head: next, drop };
}

/**
 * Store a machine: its record, then the head switched to it, then the records the head no longer
 * names dropped, all in one transaction. Until it commits, the head names the machines before it.
 */
export async function putSnapshot(kind: SnapshotKind, s: Snapshot): Promise<void> {
  try {
    const d = await open();
    if (cleared.has(s.lab)) return;
    const tx = d.transaction("snapshots", "readwrite");
    const key = `${s.lab}/m/${s.savedAt}-${++written}-${Math.random().toString(36).slice(2, 8)}`;
    const next = nextHead(await readHead(tx.store, s.lab), s.lab, kind, key, s.savedAt);
    if (next) {
      await tx.store.put(s, key);
      await tx.store.put(next.head, headKey(s.lab));
      await Promise.all(next.drop.map((k) => tx.store.delete(k)));
    }
    await tx.done;
  } catch (e) {
    if (e instanceof StoreError) throw e; // IndexedDB could not be opened: its message says so
    throw new StoreError(`The machine's snapshot (${(s.gz.size / 2 ** 20).toFixed(1)} MB) could not be stored: ${messageOf(e)}. A reload will not bring this machine back.`);
  }
}

/**
 * The machine is as the open step `step` began again (a reset): the stored start of that step
 * becomes the newest, at `at`, and the newer machine is dropped. False if the step's start is not
 * stored.
 */
export async function stepIsNewest(lab: string, step: number, at: number): Promise<boolean> {
  const d = await open();
  if (cleared.has(lab)) return false;
  const tx = d.transaction("snapshots", "readwrite");
  const head = await readHead(tx.store, lab);
  const rec = head?.step ? await tx.store.get(head.step) : undefined;
  if (!head?.step || !validSnapshot(rec) || rec.step !== step) return false;
  const drop = head.newest !== head.step ? [head.newest] : [];
  await tx.store.put({ ...head, newest: head.step, newestAt: at, newestKind: "step" }, headKey(lab));
  await Promise.all(drop.map((k) => tx.store.delete(k)));
  await tx.done;
  return true;
}

function validSnapshot(s: unknown): s is Snapshot {
  const v = s as Snapshot;
  return !!v && typeof v === "object" && v.gz instanceof Blob && Number.isInteger(v.step) && typeof v.guest === "string" && Number.isFinite(v.savedAt);
}

function validHead(h: unknown, lab: string): h is MachineHead {
  const v = h as MachineHead;
  return !!v && typeof v === "object" && v.lab === lab && typeof v.newest === "string" && Number.isFinite(v.newestAt) && (v.step === undefined || typeof v.step === "string");
}

/** A stored record, checked: another version of the page, or a damaged store, may have written it. */
async function readSnapshot(store: Store, key: string | undefined): Promise<Snapshot | undefined> {
  if (!key) return undefined;
  const s = await store.get(key);
  if (s === undefined) return undefined;
  if (!validSnapshot(s)) throw new StoreError("The machine stored for this lab was damaged and could not be used.");
  return s;
}

/** The open step's stored start (`kind` "step"), or the newest machine (`kind` "latest"). */
export async function getSnapshot(lab: string, kind: SnapshotKind): Promise<Snapshot | undefined> {
  const store = (await open()).transaction("snapshots").store;
  const head = await readHead(store, lab);
  return readSnapshot(store, kind === "step" ? head?.step : head?.newest);
}

/** The newest stored machine of a lab: a passed step's or the current step's start, whichever was saved last. */
export async function newestSnapshot(lab: string): Promise<(Snapshot & { kind: SnapshotKind }) | undefined> {
  // one read-only transaction: the head and what it names, as one moment of the store
  const store = (await open()).transaction("snapshots").store;
  const head = await readHead(store, lab);
  if (!head) return undefined;
  const newest = await readSnapshot(store, head.newest);
  if (newest) return { ...newest, kind: head.newestKind };
  // its newest gone (a tab of the page from before heads drops "<lab>/latest" as a step opens)
  const step = await readSnapshot(store, head.step);
  return step && { ...step, kind: "step" };
}
