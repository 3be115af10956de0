// The live kernel's events: lines from the guest's fslab-trace (tracefs -> /dev/hvc1, each
// prefixed with a sequence number) parsed into the same records the wasm models emit
// (shared/events.ts) by the event tables (shared/event-table.ts, each topic's gathered in topics/events.gen.ts). A gap in the sequence numbers counts as lost lines; the guest's final
// "fslab-trace: overrun N" line gives the events the kernel's ring buffer dropped.
import { WORDS_PER_EVENT } from "../../shared/events";
import { recordsOf, rewindLine, splitTraceLine } from "../../shared/event-table";
import { TRACE_EVENTS } from "../../topics/events.gen";
import type { TraceStats } from "../../shared/machine";
import type { ChannelKept } from "./page-part";

/**
 * One tracefs line to event records (words, 4 per record), through the event table: null if
 * it is not an event the table knows, [] if the event has no model record (block events,
 * which views read as lines through the block trace parser).
 */
export function parseTraceLine(line: string): number[] | null {
  const l = splitTraceLine(line);
  return l ? recordsOf(TRACE_EVENTS, l) : null;
}

export type { TraceStats };

const MAX_LINES = 200_000;

export class TraceChannel {
  private partial = "";
  private decoder = new TextDecoder();
  private words: number[] = [];
  private text: string[] = [];
  private lastSeq = 0;
  /** the sequence numbers of the lines kept (`text`) from this stream, for a rewind to count back */
  private keptSeqs: number[] = [];
  /** each kept line's record words, beside keptSeqs: what a rewind takes back from the records */
  private keptWords: number[] = [];
  /** record words undone by rewinds that a take() had already handed on (takeUndone) */
  private undone = 0;
  /** The newest settle marker (`settleMarker`) seen in the stream. */
  lastMarker: string | null = null;
  stats: TraceStats = { lines: 0, lost: 0, unknown: 0, overrun: null };

  feed(bytes: Uint8Array): void {
    const text = this.partial + this.decoder.decode(bytes, { stream: true });
    const lines = text.split("\n");
    this.partial = lines.pop()!;
    for (const raw of lines) this.line(raw.replace(/\r$/, ""));
  }

  private line(line: string): void {
    const over = line.match(/^fslab-trace: overrun (\d+)/);
    if (over) {
      this.stats.overrun = +over[1];
      this.lastSeq = 0; // the next stream starts again at 1
      this.keptSeqs = [];
      this.keptWords = [];
      return;
    }
    const m = line.match(/^(\d+) (.*)$/);
    if (!m) return;
    const seq = +m[1];
    if (seq <= this.lastSeq) {
      // the guest's count went back: the machine was put back to a snapshot taken after it had
      // sent seq - 1 lines, so the lines kept since, from seq on, are undone. (A restore to
      // before this stream started, with another stream since, is not seen: its count began at 1.)
      let n = 0;
      let words = 0;
      while (this.keptSeqs.length && this.keptSeqs[this.keptSeqs.length - 1] >= seq) {
        this.keptSeqs.pop();
        words += this.keptWords.pop()!;
        n++;
      }
      if (n) this.keep(rewindLine(n));
      // their records too: those not handed on yet here, the rest from the taker's tail
      const here = Math.min(words, this.words.length);
      this.words.length -= here;
      this.undone += words - here;
      this.lastSeq = seq - 1;
    }
    const mark = m[2].match(/ tracing_mark_write: (fslab-settle-\d+)$/);
    if (mark) {
      // ours, not the kernel's: it only says that everything before it has arrived
      this.lastSeq = seq;
      this.lastMarker = mark[1];
      return;
    }
    if (seq > this.lastSeq + 1) this.stats.lost += seq - this.lastSeq - 1;
    this.lastSeq = seq;
    this.stats.lines++;
    // the tracefs lines themselves, for views that parse them whole (the block trace parser)
    this.keep(m[2]);
    const rec = parseTraceLine(m[2]);
    this.keptSeqs.push(seq);
    this.keptWords.push(rec?.length ?? 0);
    if (this.keptSeqs.length > MAX_LINES) {
      // a rewind that far back is not counted whole
      this.keptSeqs.splice(0, MAX_LINES / 2);
      this.keptWords.splice(0, MAX_LINES / 2);
    }
    if (rec) this.words.push(...rec);
    else if (!/ tracing_mark_write: /.test(m[2])) this.stats.unknown++;
  }

  private keep(line: string): void {
    if (this.text.length >= MAX_LINES) this.text.splice(0, MAX_LINES / 2); // nobody is taking them
    this.text.push(line);
  }

  /** The records parsed since the last take, as one transferable array. */
  take(): Uint32Array {
    const out = Uint32Array.from(this.words);
    this.words = [];
    return out;
  }

  /**
   * Record words a rewind undid after an earlier take() had handed them on: the taker drops
   * that many from the end of what it holds, before it appends the next take()'s records.
   */
  takeUndone(): number {
    const n = this.undone;
    this.undone = 0;
    return n;
  }

  /** The event lines (sequence numbers stripped) received since the last take. */
  takeLines(): string[] {
    const out = this.text;
    this.text = [];
    return out;
  }

  /** Its count of the stream, kept with a saved machine (page-part.ts); what is not taken yet is not in it. */
  kept(): ChannelKept {
    return { lastSeq: this.lastSeq, keptSeqs: this.keptSeqs.slice(), keptWords: this.keptWords.slice(), stats: { ...this.stats }, lastMarker: this.lastMarker, partial: this.partial };
  }

  /**
   * The stream as it was when a machine now started again was saved: its next line follows on
   * from there. What was received since and not taken is dropped: it was the machine replaced.
   */
  restoreKept(k: ChannelKept): void {
    this.lastSeq = k.lastSeq;
    this.keptSeqs = k.keptSeqs.slice();
    this.keptWords = k.keptWords.slice();
    this.stats = { ...k.stats };
    this.lastMarker = k.lastMarker;
    this.partial = k.partial;
    this.decoder = new TextDecoder();
    this.words = [];
    this.text = [];
    this.undone = 0;
  }

  get pendingEvents(): number {
    return this.words.length / WORDS_PER_EVENT;
  }
}
