// Everything a lab keeps in the browser is one IndexedDB object store, "labs", one record a key
// (through idb), each record saying what it is:
//
//   <lab>/progress            ProgressRecord  what the learner did: steps, marks, answers (progress.ts)
//   <lab>/head                HeadRecord      which machine records count (machine-store.ts)
//   <lab>/m/<taken>-<n>-<r>   MachineRecord   one kept machine, a compressed v86 snapshot:
//                                             written once, never changed
//
// and the progress's journal, a copy in localStorage written at once on every save (progress.ts):
// a page unloading aborts IndexedDB's transaction, never a localStorage write.
//
// Version 2. Version 1 kept the progress and the machines in two stores ("progress" by lab id,
// "snapshots"), and before heads a lab's machines were "<lab>/step" and "<lab>/latest": the
// upgrade moves all of it into "labs" (migrateV1) in its own transaction, so a failure leaves
// version 1 as it was.
import { openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction } from "idb";
import type { PredictionRecord } from "./predict";
import type { QuestionRecord } from "./question";
import type { CompileMessage } from "./code-grade";
import type { SeenEvent } from "./expect";

// ---- the records ----

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
  /**
   * the step's predict blocks in order: measured before they were answered (a command entered,
   * the events counted), kept over a reload, a reset and a visit to another step; "commands": a
   * count of events whose guess commands alone came before (the kernel had not done it)
   */
  measured?: Array<boolean | "commands">;
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

/**
 * A kept machine: a step's start ("step"), the machine as a step passed ("latest"), or the
 * machine as the learner left the page mid-step ("left": hidden, the shell at its prompt).
 */
export type SnapshotKind = "step" | "latest" | "left";

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
  /** a machine left mid-step: the kernel events the page had parsed since the step opened */
  stepEvents?: SeenEvent[];
}

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

/** A code step's recorded workload (grade-trace-store.ts), for the guest build and workload it ran. */
export interface GradeTrace {
  lab: string;
  step: number;
  guest: string;
  /** sha-256 of the workload as this learner's step has it (their values in it) */
  workload: string;
  trace: string;
  at: number;
}

export type ProgressRecord = LabProgress & { kind: "progress" };
export type HeadRecord = MachineHead & { kind: "head" };
export type MachineRecord = Snapshot & { kind: "machine" };
export type GradeTraceRecord = GradeTrace & { kind: "grade-trace" };
export type LabRecord = ProgressRecord | HeadRecord | MachineRecord | GradeTraceRecord;

interface FslabDB extends DBSchema {
  labs: { key: string; value: LabRecord; indexes: { kind: LabRecord["kind"] } };
}

/** the store in a transaction, read-only or not */
export type LabsStore = IDBPObjectStore<FslabDB, ["labs"], "labs", "readwrite" | "readonly">;

export const VERSION = 2;
export const progressKey = (lab: string) => `${lab}/progress`;
export const headKey = (lab: string) => `${lab}/head`;
export const machineKey = (lab: string, taken: number, tag: string) => `${lab}/m/${taken}-${tag}`;
export const gradeTraceKey = (lab: string, step: number) => `${lab}/g/${step}`;
/** every key of a lab: its progress, its head, its machines, its code steps' recorded runs */
export const labKeys = (lab: string) => IDBKeyRange.bound(`${lab}/`, `${lab}/\uffff`);
/** the keys of a lab's machine records */
export const machineKeys = (lab: string) => IDBKeyRange.bound(`${lab}/m/`, `${lab}/m/\uffff`);

export class StoreError extends Error {}

export function messageOf(e: unknown): string {
  if (e instanceof DOMException && e.name === "QuotaExceededError") return "the browser refused the space (its storage quota is full)";
  // without its closing period: the messages here end the sentence themselves
  return (e instanceof Error ? e.message : String(e)).replace(/\.+$/, "");
}

let db: Promise<IDBPDatabase<FslabDB>> | null = null;
/**
 * An open request a tab of an older page holds up (blocked): it stays queued until that tab
 * closes, and every open of this origin would queue behind it, so none is made while it waits.
 */
let heldUp: Error | null = null;

export function open(): Promise<IDBPDatabase<FslabDB>> {
  if (heldUp) return Promise.reject(storeError(heldUp));
  db ??= openLabs().catch((e) => {
    db = null;
    throw storeError(e);
  });
  return db;
}

function storeError(e: unknown): StoreError {
  // the journal (localStorage) still keeps the marks where the browser allows it
  const kept = journalWritable()
    ? "Your marks are kept in its local storage instead, but not your machine: after a reload the lab's own machine starts."
    : "Neither your marks nor your machine will survive a reload.";
  return new StoreError(`The browser's storage (IndexedDB) could not be opened: ${messageOf(e)}. ${kept}`);
}

async function openLabs(): Promise<IDBPDatabase<FslabDB>> {
  // async: a browser whose indexedDB.open() throws at once rejects here like one whose request fails
  return new Promise((resolve, reject) => {
    const request: Promise<IDBPDatabase<FslabDB>> = openDB<FslabDB>("fslab", VERSION, {
      upgrade(d, oldVersion, _newVersion, tx) {
        const labs = d.createObjectStore("labs");
        labs.createIndex("kind", "kind");
        if (oldVersion >= 1) moveV1(d as unknown as IDBPDatabase, tx as unknown as IDBPTransaction<unknown, string[], "versionchange">);
      },
      // a tab of the page from before version 2, still open, holds version 1: the upgrade waits
      // for it; once that tab closes, the request completes and is this page's store
      blocked() {
        heldUp = new Error("another tab of this site, opened before it was updated, holds it: close that tab, then reload this one");
        request.then(
          (d) => {
            heldUp = null;
            db = Promise.resolve(d);
          },
          () => (heldUp = null),
        );
        reject(heldUp);
      },
      // a newer page wants to upgrade: let it (this tab opens the store again on its next read).
      // The connection the event is for, which may be one given up on above (blocked).
      blocking(_current, _wanted, e) {
        (e.target as IDBDatabase).close();
        db = null;
      },
    });
    request.then(resolve, reject);
  });
}

/** Version 1's records moved into "labs", and its stores dropped, in the upgrade's transaction. */
function moveV1(d: IDBPDatabase, tx: IDBPTransaction<unknown, string[], "versionchange">): void {
  const read = async (name: string): Promise<Array<[string, unknown]>> => {
    const store = tx.objectStore(name);
    const [keys, values] = await Promise.all([store.getAllKeys(), store.getAll()]);
    return keys.map((k, i) => [String(k), values[i]]);
  };
  void (async () => {
    const records = migrateV1(await read("progress"), await read("snapshots"));
    await Promise.all(records.map(([key, value]) => tx.objectStore("labs").put(value, key)));
    d.deleteObjectStore("progress");
    d.deleteObjectStore("snapshots");
  })().catch(() => {
    // version 1 stays as it was; the open fails, and says so
    try {
      tx.abort();
    } catch {
      // already ended
    }
  });
}

/**
 * Version 1's records as version 2's: each lab's progress (keyed by the lab's id) under
 * "<lab>/progress"; its head and machines under their keys; a lab of the layout before heads
 * ("<lab>/step", "<lab>/latest" and no head) gets machine records and a head naming them, the
 * newer of the two what a reload restores. A record that is not an object is left behind; the
 * rest are checked when they are read, as any record is.
 */
export function migrateV1(progress: Array<[string, unknown]>, snapshots: Array<[string, unknown]>): Array<[string, LabRecord]> {
  const out: Array<[string, LabRecord]> = [];
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object";
  for (const [lab, v] of progress) if (isObject(v)) out.push([progressKey(lab), { ...(v as unknown as LabProgress), kind: "progress" }]);
  const legacy = new Map<string, { step?: Snapshot; latest?: Snapshot }>();
  const heads = new Set<string>();
  for (const [key, v] of snapshots) {
    if (!isObject(v)) continue;
    const m = /^(.*)\/(head|step|latest)$/.exec(key);
    if (m?.[2] === "head") {
      heads.add(m[1]);
      out.push([key, { ...(v as unknown as MachineHead), kind: "head" }]);
    } else if (m) legacy.set(m[1], { ...legacy.get(m[1]), [m[2]]: v as unknown as Snapshot });
    else if (key.includes("/m/")) out.push([key, { ...(v as unknown as Snapshot), kind: "machine" }]);
  }
  // a lab with a head had its "<lab>/step" and "<lab>/latest" dropped, unless an older tab wrote them since: the head counts
  for (const [lab, { step, latest }] of legacy) {
    if (heads.has(lab)) continue;
    const key = (s: Snapshot, kind: SnapshotKind) => machineKey(lab, Number(s.savedAt), `v1-${kind}`);
    const head: HeadRecord | undefined =
      latest && (!step || latest.savedAt >= step.savedAt)
        ? { kind: "head", lab, newest: key(latest, "latest"), newestAt: latest.savedAt, newestKind: "latest" }
        : step && { kind: "head", lab, newest: key(step, "step"), newestAt: step.savedAt, newestKind: "step" };
    if (!head) continue;
    if (step) Object.assign(head, { step: key(step, "step"), stepAt: step.savedAt });
    if (step) out.push([key(step, "step"), { ...step, kind: "machine" }]);
    if (latest && head.newest === key(latest, "latest")) out.push([key(latest, "latest"), { ...latest, kind: "machine" }]);
    out.push([headKey(lab), head]);
  }
  return out;
}

/**
 * Labs started over in this page: nothing more is stored for them until the page reloads, so a
 * check or a snapshot still under way when the learner pressed "Start over" cannot bring back
 * what was cleared.
 */
const cleared = new Set<string>();

export const isCleared = (lab: string) => cleared.has(lab);

/** "Start over": the lab's progress, its journal and its machines, gone. */
export async function clearLab(lab: string): Promise<void> {
  cleared.add(lab);
  dropJournal(lab);
  const d = await open();
  await d.delete("labs", labKeys(lab));
}

/**
 * Start opening the browser's storage now (a lab page does so as it opens, while its text
 * downloads: the first open of a profile's database costs tens of ms). Its error, if any, is
 * reported where the storage is first read.
 */
export function openStore(): void {
  open().catch(() => undefined);
}

// The journal's keys in localStorage (progress.ts writes and reads it)
export const JOURNAL = "fslab-progress-journal:";
export const journalKey = (lab: string) => JOURNAL + lab;

export function dropJournal(lab: string): void {
  try {
    localStorage.removeItem(journalKey(lab));
  } catch {
    // nothing to drop
  }
}

/** Whether localStorage takes a write here (a browser may have none, or refuse it). */
export function journalWritable(): boolean {
  try {
    localStorage.setItem("fslab-storage-probe", "1");
    localStorage.removeItem("fslab-storage-probe");
    return true;
  } catch {
    return false;
  }
}
