// The one event schema shared by the wasm models and the live kernel: records of four u32
// (type, a, b, c). A stream travels as one Uint32Array (transferred between threads, never
// copied record by record). Each topic declares its own records in its events.ts, mirroring its
// core's C header (wasm/src/<topic>/include/fslab/<topic>_events.h; topics/events.test.ts holds
// each pair equal and the types apart); the type's high byte is the topic's.

/** A u32 field that holds "none" (the kernel's -1). */
export const NONE = 0xffffffff;

/** a block request's operation (the blk core's requests; the kernel's, from the tracepoints' rwbs) */
export enum BlkOp {
  Read = 0,
  Write = 1,
  Discard = 2,
  Flush = 3,
  Other = 255,
}

export const WORDS_PER_EVENT = 4;

/** One record type a topic's model emits: its type and what a, b and c hold (as its C header says). */
export interface RecordSpec {
  type: number;
  a: string;
  b?: string;
  c?: string;
}

/** The types of a topic's records by name (`EV.EXFAT_DISCARD`), from its specs. */
export function recordTypes<R extends Record<string, RecordSpec>>(records: R): { readonly [K in keyof R]: number } {
  return Object.fromEntries(Object.entries(records).map(([k, r]) => [k, r.type])) as { [K in keyof R]: number };
}

export function eventCount(stream: Uint32Array): number {
  return stream.length / WORDS_PER_EVENT;
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
