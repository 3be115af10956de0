// The live kernel's events: lines from the guest's fslab-trace (tracefs -> /dev/hvc1, each
// prefixed with a sequence number) parsed into the same records the wasm models emit
// (cores/events.ts). A gap in the sequence numbers counts as lost lines; the guest's final
// "fslab-trace: overrun N" line gives the events the kernel's ring buffer dropped.
import { EV, NONE, BlkOp, WORDS_PER_EVENT } from "../shared/events";

const u32 = (n: number) => (n < 0 ? NONE : n >>> 0);

function blkOp(rwbs: string): BlkOp {
  if (rwbs.includes("D")) return BlkOp.Discard;
  if (rwbs.includes("W")) return BlkOp.Write;
  if (rwbs.includes("R")) return BlkOp.Read;
  if (rwbs.includes("F")) return BlkOp.Flush;
  return BlkOp.Other;
}

const PATTERNS: Array<[RegExp, (m: RegExpMatchArray) => number[]]> = [
  [/exfat_discard: dev \d+,\d+ clu (\d+) count (\d+) batched (\d)/, (m) => [EV.EXFAT_DISCARD, +m[1], +m[2], +m[3]]],
  [
    /exfat_empty_search: dev \d+,\d+ hint (-?\d+) start -?\d+ examined (\d+) result (-?\d+)/,
    (m) => [EV.EXFAT_EMPTY_SEARCH, +m[2], u32(+m[1]), u32(+m[3])],
  ],
  [
    /f2fs_free_nid_scan: dev = \(\d+,\d+\), phase = (\w+), start = (\d+), end = (\d+), scanned = (\d+), found = (\d+), skipped = (\d)/,
    (m) => {
      const phase = { bitmap: 0, nat: 1, deferred: 2 }[m[1]] ?? 255;
      return [EV.F2FS_NID_SCAN, phase | (+m[6] << 8), +m[2], +m[3], EV.F2FS_NID_SCAN_RESULT, +m[4], +m[5], 0];
    },
  ],
  [
    /block_rq_(insert|issue|complete): \d+,\d+ (\S+) (?:\d+ )?\(.*?\) (\d+) \+ (\d+)/,
    (m) => {
      const type = m[1] === "insert" ? EV.BLK_RQ_INSERT : m[1] === "issue" ? EV.BLK_RQ_ISSUE : EV.BLK_RQ_COMPLETE;
      return [type, Number(BigInt(m[3]) & 0xffffffffn), +m[4], blkOp(m[2])];
    },
  ],
];

/** One tracefs line to event records (words, 4 per record); null if not an event we know. */
export function parseTraceLine(line: string): number[] | null {
  for (const [re, make] of PATTERNS) {
    const m = line.match(re);
    if (m) return make(m);
  }
  return null;
}

export interface TraceStats {
  lines: number; // event lines received
  lost: number; // lines missing from the sequence
  unknown: number; // lines of events we do not parse
  overrun: number | null; // the kernel ring buffer's dropped events, once the guest reports it
}

const MAX_LINES = 200_000;

export class TraceChannel {
  private partial = "";
  private decoder = new TextDecoder();
  private words: number[] = [];
  private text: string[] = [];
  private lastSeq = 0;
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
      return;
    }
    const m = line.match(/^(\d+) (.*)$/);
    if (!m) return;
    const seq = +m[1];
    if (seq > this.lastSeq + 1) this.stats.lost += seq - this.lastSeq - 1;
    this.lastSeq = seq;
    this.stats.lines++;
    // the tracefs lines themselves, for views that parse them whole (the block trace parser)
    if (this.text.length >= MAX_LINES) this.text.splice(0, MAX_LINES / 2); // nobody is taking them
    this.text.push(m[2]);
    const rec = parseTraceLine(m[2]);
    if (rec) this.words.push(...rec);
    else if (!/ (dd_dispatch_request|tracing_mark_write): /.test(m[2])) this.stats.unknown++;
  }

  /** The records parsed since the last take, as one transferable array. */
  take(): Uint32Array {
    const out = Uint32Array.from(this.words);
    this.words = [];
    return out;
  }

  /** The event lines (sequence numbers stripped) received since the last take. */
  takeLines(): string[] {
    const out = this.text;
    this.text = [];
    return out;
  }

  get pendingEvents(): number {
    return this.words.length / WORDS_PER_EVENT;
  }
}
