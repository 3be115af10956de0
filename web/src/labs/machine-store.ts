// A lab's kept machines in the lab store (lab-store.ts): MachineRecords, written once, and the
// lab's HeadRecord naming the ones that count. A machine is stored in one transaction: the
// record, then the head switched to it, then the records the head no longer names dropped. A
// reload or a closed tab at any moment finds the head before or after that transaction, never
// between: the newest complete machine, whatever was still being compressed or written.
import { headKey, isCleared, machineKey, machineKeys, messageOf, open, StoreError } from "./lab-store";
import type { HeadRecord, LabsStore, MachineHead, MachineRecord, Snapshot, SnapshotKind } from "./lab-store";

export type { MachineHead, Snapshot, SnapshotKind } from "./lab-store";

/** Forget the lab's stored machines (its progress stays): a reload then starts the lab's own saved machine. */
export async function dropSnapshots(lab: string): Promise<void> {
  const d = await open();
  const tx = d.transaction("labs", "readwrite");
  await Promise.all([tx.store.delete(headKey(lab)), tx.store.delete(machineKeys(lab)), tx.done]);
}

let written = 0;

async function readHead(store: LabsStore, lab: string): Promise<MachineHead | undefined> {
  const h = await store.get(headKey(lab));
  return validHead(h, lab) ? h : undefined;
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
  const named = new Set([next.newest, next.step]);
  const drop = [...new Set([head?.newest, head?.step])].filter((k): k is string => !!k && !named.has(k));
  return { head: next, drop };
}

const headRecord = (h: MachineHead): HeadRecord => ({ ...h, kind: "head" });

/**
 * Store a machine: its record, then the head switched to it, then the records the head no longer
 * names dropped, all in one transaction. Until it commits, the head names the machines before it.
 */
export async function putSnapshot(kind: SnapshotKind, s: Snapshot): Promise<void> {
  try {
    const d = await open();
    if (isCleared(s.lab)) return;
    const tx = d.transaction("labs", "readwrite");
    const key = machineKey(s.lab, s.savedAt, `${++written}-${Math.random().toString(36).slice(2, 8)}`);
    const next = nextHead(await readHead(tx.store, s.lab), s.lab, kind, key, s.savedAt);
    if (next) {
      await tx.store.put({ ...s, kind: "machine" } satisfies MachineRecord, key);
      await tx.store.put(headRecord(next.head), headKey(s.lab));
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
  if (isCleared(lab)) return false;
  const tx = d.transaction("labs", "readwrite");
  const head = await readHead(tx.store, lab);
  const rec = head?.step ? await tx.store.get(head.step) : undefined;
  if (!head?.step || !validSnapshot(rec) || rec.step !== step) return false;
  const drop = head.newest !== head.step ? [head.newest] : [];
  await tx.store.put(headRecord({ ...head, newest: head.step, newestAt: at, newestKind: "step" }), headKey(lab));
  await Promise.all(drop.map((k) => tx.store.delete(k)));
  await tx.done;
  return true;
}

function validSnapshot(s: unknown): s is MachineRecord {
  const v = s as MachineRecord;
  return !!v && typeof v === "object" && v.kind === "machine" && v.gz instanceof Blob && Number.isInteger(v.step) && typeof v.guest === "string" && Number.isFinite(v.savedAt);
}

function validHead(h: unknown, lab: string): h is HeadRecord {
  const v = h as HeadRecord;
  return !!v && typeof v === "object" && v.kind === "head" && v.lab === lab && typeof v.newest === "string" && Number.isFinite(v.newestAt) && (v.step === undefined || typeof v.step === "string");
}

/** A stored record, checked: another version of the page, or a damaged store, may have written it. */
async function readSnapshot(store: LabsStore, key: string | undefined): Promise<Snapshot | undefined> {
  if (!key) return undefined;
  const s = await store.get(key);
  if (s === undefined) return undefined;
  if (!validSnapshot(s)) throw new StoreError("The machine stored for this lab was damaged and could not be used.");
  const { kind: _, ...snapshot } = s;
  return snapshot;
}

/** The open step's stored start (`kind` "step"), or the newest machine (`kind` "latest"). */
export async function getSnapshot(lab: string, kind: SnapshotKind): Promise<Snapshot | undefined> {
  const store = (await open()).transaction("labs").store;
  const head = await readHead(store, lab);
  return readSnapshot(store, kind === "step" ? head?.step : head?.newest);
}

/** The newest stored machine of a lab: a passed step's or the current step's start, whichever was saved last. */
export async function newestSnapshot(lab: string): Promise<(Snapshot & { kind: SnapshotKind }) | undefined> {
  // one read-only transaction: the head and what it names, as one moment of the store
  const store = (await open()).transaction("labs").store;
  const head = await readHead(store, lab);
  if (!head) return undefined;
  const newest = await readSnapshot(store, head.newest);
  if (newest) return { ...newest, kind: head.newestKind };
  // its newest gone (a damaged store): the step's start, if it is there
  const step = await readSnapshot(store, head.step);
  return step && { ...step, kind: "step" };
}
