// The one event schema shared by the wasm models and the live kernel: records of four u32
// (type, a, b, c), mirroring wasm/include/fslab/events.h (event-table.test.ts holds them equal). A stream travels as one
// Uint32Array (transferred between threads, never copied record by record).

export const EV = {
  EXFAT_BITMAP_SET: 0x0101,
  EXFAT_BITMAP_CLEAR: 0x0102,
  EXFAT_FAT_WRITE: 0x0103,
  EXFAT_DISCARD: 0x0104,
  EXFAT_EMPTY_SEARCH: 0x0105,
  F2FS_NID_SCAN: 0x0301,
  F2FS_NID_SCAN_RESULT: 0x0302,
} as const;

/** What a, b and c of each record hold (the C header says the same; event-table.test.ts compares them). */
export const RECORD_FIELDS: Record<keyof typeof EV, { a: string; b?: string; c?: string }> = {
  EXFAT_BITMAP_SET: { a: "first cluster", b: "clusters (a run)" },
  EXFAT_BITMAP_CLEAR: { a: "first cluster", b: "clusters (a run)" },
  EXFAT_FAT_WRITE: { a: "cluster", b: "new FAT entry" },
  EXFAT_DISCARD: { a: "start cluster", b: "clusters", c: "DiscardPolicy" },
  EXFAT_EMPTY_SEARCH: { a: "entries examined", b: "hint (NONE: none)", c: "result slot (NONE: -ENOSPC)" },
  F2FS_NID_SCAN: { a: "phase | skipped << 8 | sync << 9", b: "start nid", c: "end nid" },
  F2FS_NID_SCAN_RESULT: { a: "entries scanned", b: "free NIDs found", c: "NAT blocks visited" },
};

/** A u32 field that holds "none" (the kernel's -1). */
export const NONE = 0xffffffff;

export enum NidScanPhase {
  Bitmap = 0,
  Nat = 1,
  Deferred = 2,
}

export enum BlkOp {
  Read = 0,
  Write = 1,
  Discard = 2,
  Flush = 3,
  Other = 255,
}

export const WORDS_PER_EVENT = 4;

/** exfat `batch_discard`: 0 = one discard per cluster (Linux ≤ 6.14), 1 = per contiguous run (≥ 6.15). */
export enum DiscardPolicy {
  PerCluster = 0,
  Batched = 1,
}

export interface ExfatDiscard {
  start: number; // first cluster
  count: number; // clusters
  policy: DiscardPolicy;
}

export function eventCount(stream: Uint32Array): number {
  return stream.length / WORDS_PER_EVENT;
}

export function discardsOf(stream: Uint32Array): ExfatDiscard[] {
  const out: ExfatDiscard[] = [];
  for (let i = 0; i < stream.length; i += WORDS_PER_EVENT) {
    if (stream[i] === EV.EXFAT_DISCARD) out.push({ start: stream[i + 1], count: stream[i + 2], policy: stream[i + 3] });
  }
  return out;
}

export function countOf(stream: Uint32Array, type: number): number {
  let n = 0;
  for (let i = 0; i < stream.length; i += WORDS_PER_EVENT) if (stream[i] === type) n++;
  return n;
}

/** Units covered by the run records of a type (the b field): clusters set or cleared. */
export function unitsOf(stream: Uint32Array, type: number): number {
  let n = 0;
  for (let i = 0; i < stream.length; i += WORDS_PER_EVENT) if (stream[i] === type) n += stream[i + 2];
  return n;
}

export interface NidScan {
  phase: NidScanPhase;
  skipped: boolean; // CLUE optimistic: a bitmap scan was already running, this caller went on
  sync: boolean; // the caller needed a NID now (f2fs_alloc_nid), not a background build
  start: number; // first NID
  end: number; // where the scan stopped (the next scan's start under CLUE's heuristic)
  scanned: number; // bitmap bits or NAT entries examined
  found: number; // free NIDs added to the list
  blocks: number; // NAT blocks visited (a bitmap walk all the way round visits all of them); 0 if not reported
}

/** F2FS free-NID scans: each F2FS_NID_SCAN record with the F2FS_NID_SCAN_RESULT that follows it. */
export function nidScansOf(stream: Uint32Array): NidScan[] {
  const out: NidScan[] = [];
  for (let i = 0; i < stream.length; i += WORDS_PER_EVENT) {
    if (stream[i] !== EV.F2FS_NID_SCAN) continue;
    const r = stream[i + WORDS_PER_EVENT] === EV.F2FS_NID_SCAN_RESULT ? i + WORDS_PER_EVENT : -1;
    out.push({
      phase: stream[i + 1] & 0xff,
      skipped: ((stream[i + 1] >> 8) & 1) !== 0,
      sync: ((stream[i + 1] >> 9) & 1) !== 0,
      start: stream[i + 2],
      end: stream[i + 3],
      scanned: r < 0 ? 0 : stream[r + 1],
      found: r < 0 ? 0 : stream[r + 2],
      blocks: r < 0 ? 0 : stream[r + 3],
    });
  }
  return out;
}
