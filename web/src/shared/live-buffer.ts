// The kernel's events streamed into a lab page, kept with bounded memory over a long class:
// records in one growable Uint32Array (capacity doubles, so appends are amortized O(1), not a
// copy of everything so far per batch), tracefs lines in one array; past a cap the oldest half
// goes, and what went is counted so the page can say so.
import { WORDS_PER_EVENT } from "./events";

export const MAX_LIVE_RECORDS = 1 << 20; // 16 MiB of records
export const MAX_LIVE_LINES = 100_000;

/** What a buffer held, kept with a saved machine (vm/machine/page-part.ts): a reload brings it back. */
export interface BufferKept {
  words: Uint32Array;
  lines: string[];
  droppedRecords: number;
  droppedLines: number;
}

export class LiveBuffer {
  private words: Uint32Array;
  private len = 0;
  /** the tracefs lines, oldest first (the same array between appends: read it with `version`) */
  readonly lines: string[] = [];
  droppedRecords = 0;
  droppedLines = 0;
  /** one more per append that changed anything */
  version = 0;

  constructor(
    readonly maxRecords = MAX_LIVE_RECORDS,
    readonly maxLines = MAX_LIVE_LINES,
  ) {
    this.words = new Uint32Array(Math.min(4096, maxRecords * WORDS_PER_EVENT));
  }

  /** `undone`: record words a rewind took back (the machine put back), dropped from the end first */
  append(records: Uint32Array, lines: readonly string[], undone = 0): void {
    if (undone) this.len = Math.max(0, this.len - undone);
    if (records.length) {
      const maxWords = this.maxRecords * WORDS_PER_EVENT;
      if (this.len + records.length > maxWords) {
        // keep the newest half of the cap (whole records), then append
        const keep = Math.min(this.len, Math.max(0, Math.floor(maxWords / 2) - records.length));
        const from = this.len - (keep - (keep % WORDS_PER_EVENT));
        this.droppedRecords += from / WORDS_PER_EVENT;
        this.words.copyWithin(0, from, this.len);
        this.len -= from;
      }
      const need = this.len + Math.min(records.length, maxWords);
      if (need > this.words.length) {
        let cap = this.words.length;
        while (cap < need) cap *= 2;
        const grown = new Uint32Array(Math.min(cap, maxWords));
        grown.set(this.words.subarray(0, this.len));
        this.words = grown;
      }
      const tail = records.length > maxWords ? records.subarray(records.length - maxWords) : records;
      this.droppedRecords += (records.length - tail.length) / WORDS_PER_EVENT;
      this.words.set(tail, this.len);
      this.len += tail.length;
    }
    if (lines.length) {
      for (const l of lines) this.lines.push(l);
      if (this.lines.length > this.maxLines) {
        const drop = this.lines.length - Math.floor(this.maxLines / 2);
        this.lines.splice(0, drop);
        this.droppedLines += drop;
      }
    }
    if (records.length || lines.length || undone) this.version++;
  }

  /** the records so far (a view, not a copy; a new one after each append) */
  get events(): Uint32Array {
    return this.words.subarray(0, this.len);
  }

  /** What it holds, copied: kept with a saved machine (vm/machine/page-part.ts). */
  kept(): BufferKept {
    return { words: this.events.slice(), lines: this.lines.slice(), droppedRecords: this.droppedRecords, droppedLines: this.droppedLines };
  }

  /** What a saved machine kept, in place of what it holds (`lines` stays the same array; `version` moves on). */
  restore(k: BufferKept): void {
    this.len = 0;
    this.lines.length = 0;
    this.droppedRecords = k.droppedRecords;
    this.droppedLines = k.droppedLines;
    this.append(k.words, k.lines); // (past this buffer's caps, its oldest counted as dropped too)
    this.version++;
  }

  /** bytes held for the records (the buffer's capacity) */
  get capacityBytes(): number {
    return this.words.byteLength;
  }
}
