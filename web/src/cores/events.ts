// The one event schema shared by the wasm models and the live kernel: records of four u32
// (type, a, b, c), mirroring wasm/include/fslab/events.h. A stream travels as one
// Uint32Array (transferred between threads, never copied record by record).

export const EV = {
  EXFAT_BITMAP_SET: 0x0101, // a = first cluster, b = clusters (a run)
  EXFAT_BITMAP_CLEAR: 0x0102, // a = first cluster, b = clusters (a run)
  EXFAT_FAT_WRITE: 0x0103, // a = cluster, b = new FAT entry
  EXFAT_DISCARD: 0x0104, // a = start cluster, b = clusters, c = DiscardPolicy
} as const;

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
