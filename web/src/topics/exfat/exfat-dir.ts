// The exfat directory model (wasm/src/exfat/dir.c): where each new entry set goes and how
// many entries the empty-entry search examines, with the Linux 6.2 hint or without it. Its
// EXFAT_EMPTY_SEARCH records carry the same fields as the guest kernel's exfat_empty_search
// tracepoint, so the two streams compare record for record.
import type { ExfatModule } from "@wasm/exfat.mjs";
import { WORDS_PER_EVENT } from "../../shared/events";

export class ExfatDirError extends Error {}

export class ExfatDir {
  private d: number;

  /** a new directory of one cluster; 128 entries per cluster for 4 KiB clusters */
  constructor(private m: ExfatModule, emptyHint: boolean, private dentriesPerCluster = 128) {
    this.d = m._fx_exfat_dir_new(dentriesPerCluster, emptyHint ? 1 : 0);
    if (!this.d) throw new ExfatDirError(`cannot model a directory of ${dentriesPerCluster} entries per cluster (a power of two)`);
  }

  dispose(): void {
    if (this.d) this.m._fx_exfat_dir_free(this.d);
    this.d = 0;
  }

  /** the slot of the new entry set for a name of nameLength characters */
  create(nameLength: number): number {
    const r = this.m._fx_exfat_dir_create(this.d, nameLength);
    if (r < 0) throw new ExfatDirError(r === -28 ? "the directory is full (256 MiB of entries)" : `cannot create a name of ${nameLength} characters`);
    return r;
  }

  remove(slot: number, nameLength: number): void {
    if (this.m._fx_exfat_dir_remove(this.d, slot, nameLength) < 0) throw new ExfatDirError(`no entry set at slot ${slot}`);
  }

  get clusters(): number {
    return this.m._fx_exfat_dir_clusters(this.d);
  }

  /** entries examined by every search so far (the kernel's empty_entries_examined) */
  get examined(): number {
    return this.m._fx_exfat_dir_examined(this.d);
  }

  /** each slot: 0 unused, 1 deleted, 2 in use */
  slots(): Uint8Array {
    const p = this.m._fx_exfat_dir_slots(this.d);
    return this.m.HEAPU8.slice(p, p + this.clusters * this.dentriesPerCluster);
  }

  takeEvents(): Uint32Array {
    const len = this.m._fx_exfat_dir_events_len(this.d);
    if (len < 0) throw new ExfatDirError("the event stream ran out of memory");
    const p = this.m._fx_exfat_dir_events_ptr(this.d) >>> 2;
    const out = this.m.HEAPU32.slice(p, p + len * WORDS_PER_EVENT);
    this.m._fx_exfat_dir_events_clear(this.d);
    return out;
  }
}

/** Runs creates ("+name") and removes ("-name") in one new directory. Names are ASCII here:
 *  the kernel counts UTF-16 units. */
export function runDirScript(m: ExfatModule, emptyHint: boolean, ops: string[]): { events: Uint32Array; examined: number; dir: ExfatDir; slotOf: Map<string, number> } {
  const dir = new ExfatDir(m, emptyHint);
  const at = new Map<string, number>();
  for (const op of ops) {
    const name = op.slice(1);
    if (op[0] === "+") at.set(name, dir.create([...name].length));
    else {
      dir.remove(at.get(name)!, [...name].length);
      at.delete(name);
    }
  }
  return { events: dir.takeEvents(), examined: dir.examined, dir, slotOf: at };
}

/** One create's search(es), and the directory just after it (where the new set went). */
export interface DirSweep {
  op: number; // index into the script
  create: number; // which create of the script, from 1
  name: string;
  searches: Array<{ start: number; examined: number; result: number | null }>; // result null: -ENOSPC (the directory grew)
  slot: number; // where the entry set went
  entries: number; // how many entries it takes
  slots: Uint8Array; // 0 unused, 1 deleted, 2 in use, after the create
  clusters: number;
}

/**
 * A script's creates, each with its searches as the EXFAT_EMPTY_SEARCH records give them (from
 * the hint, or from slot 0 without one, `examined` entries on) and the directory after it, for
 * a step-through of the search sweeping across the slots. Each keeps a copy of the slots, so
 * only the first `head` and the last `tail` creates are kept (the start, and where removals
 * have left holes).
 */
export function dirSweeps(m: ExfatModule, emptyHint: boolean, ops: string[], head = 50, tail = 350): DirSweep[] {
  const dir = new ExfatDir(m, emptyHint);
  const at = new Map<string, number>();
  const out: DirSweep[] = [];
  const NONE = 0xffffffff;
  const creates = ops.filter((o) => o[0] === "+").length;
  const keep = (n: number) => n <= head || n > creates - tail;
  let n = 0;
  try {
    for (let i = 0; i < ops.length; i++) {
      const name = ops[i].slice(1);
      if (ops[i][0] === "-") {
        dir.remove(at.get(name)!, [...name].length);
        at.delete(name);
        continue;
      }
      dir.takeEvents();
      const slot = dir.create([...name].length);
      at.set(name, slot);
      const ev = dir.takeEvents();
      if (!keep(++n)) continue;
      const searches = [];
      for (let k = 0; k + WORDS_PER_EVENT <= ev.length; k += WORDS_PER_EVENT)
        searches.push({ start: ev[k + 2] === NONE ? 0 : ev[k + 2], examined: ev[k + 1], result: ev[k + 3] === NONE ? null : ev[k + 3] });
      out.push({ op: i, create: n, name, searches, slot, entries: entrySetSize([...name].length), slots: dir.slots(), clusters: dir.clusters });
    }
    return out;
  } finally {
    dir.dispose();
  }
}

/** file, stream extension, and a name entry per 15 UTF-16 units */
export const entrySetSize = (nameLength: number) => 2 + Math.ceil(nameLength / 15);

/** The lab's steps (labs/exfat-empty-hint): 200 short names, every third removed, then 60 long
 *  names of 4 entries that do not fit the 3-entry holes. The guest test runs the same. */
export const LAB_SCENARIO: string[] = [
  ...Array.from({ length: 200 }, (_, i) => `+f${i + 1}`),
  ...Array.from({ length: 200 }, (_, i) => i + 1).filter((i) => i % 3 === 0).map((i) => `-f${i}`),
  ...Array.from({ length: 60 }, (_, i) => `+file-with-long-name-${i + 201}`),
];

/** A playground's directory script: f1..fN created, every k-th removed (0: none), M long names created. */
export interface DirScenario {
  files: number;
  removeEvery: number;
  longNames: number;
}

export function dirScenarioOps(sc: DirScenario): string[] {
  return [
    ...Array.from({ length: sc.files }, (_, i) => `+f${i + 1}`),
    ...(sc.removeEvery ? Array.from({ length: sc.files }, (_, i) => i + 1).filter((i) => i % sc.removeEvery === 0).map((i) => `-f${i}`) : []),
    ...Array.from({ length: sc.longNames }, (_, i) => `+file-with-long-name-${sc.files + i + 1}`),
  ];
}

/**
 * The lab's steps for a learner: their seed's `files`, `remove_every` and `long_names`
 * (labs/exfat-empty-hint), or the lab's fixed steps without them.
 */
export function labDirScenario(seed?: Readonly<Record<string, number | string>>): string[] {
  const n = (k: string) => (typeof seed?.[k] === "number" ? (seed[k] as number) : undefined);
  const files = n("files");
  const removeEvery = n("remove_every");
  const longNames = n("long_names");
  if (files === undefined || removeEvery === undefined || longNames === undefined) return LAB_SCENARIO;
  return dirScenarioOps({ files, removeEvery, longNames });
}

export interface DirRun {
  emptyHint: boolean;
  events: Uint32Array; // EXFAT_EMPTY_SEARCH records
  slots: Uint8Array; // 0 unused, 1 deleted, 2 in use
  examined: number;
  clusters: number;
}

/** A fresh directory after `ops`: what the lab's views draw. */
export function dirRun(m: ExfatModule, emptyHint: boolean, ops: string[]): DirRun {
  const r = runDirScript(m, emptyHint, ops);
  try {
    return { emptyHint, events: r.events, slots: r.dir.slots(), examined: r.examined, clusters: r.dir.clusters };
  } finally {
    r.dir.dispose();
  }
}

/** Where two streams of records first differ (record index), or -1 if they are the same. */
export function firstDifference(a: Uint32Array, b: Uint32Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return Math.floor(i / WORDS_PER_EVENT);
  return a.length === b.length ? -1 : Math.floor(n / WORDS_PER_EVENT);
}
