// The kernel's trace as the page had received it, kept with each machine a lab keeps: a reload
// then brings back the live panels' runs with the machine that made them, and the stream goes
// on where it was (the restored guest's next line follows the last one counted, not a gap
// counted as lost lines).
//
//   [ machine (v86's, the SD host's) ][ record words ][ JSON ][ u32 word bytes | u32 JSON bytes | "FSLABTR1" ]
//
// A machine without this footer (dist/state.bin, snapshots from before it) has no trace.
import type { TraceStats } from "../../shared/machine";
import type { BufferKept } from "../../shared/live-buffer";
import { joinPieces } from "./devices/machine-state";

export type { BufferKept };

const MAGIC = "FSLABTR1";
const FOOTER = 8 + MAGIC.length;

/** The trace channel's count of the stream (trace-channel.ts): where the next line goes on from. */
export interface ChannelKept {
  lastSeq: number;
  /** the lines' numbers since the stream began, and each one's record words: what a rewind takes back */
  keptSeqs: number[];
  keptWords: number[];
  stats: TraceStats;
  lastMarker: string | null;
  /** a line the guest had begun to send */
  partial: string;
}

export interface TraceKept {
  channel: ChannelKept;
  /** what the page held (its LiveBuffer); null where nobody keeps the lines (Node's host) */
  buffer: BufferKept | null;
}

/** The machine's pieces (machine-state.ts) with its trace after them, joined in one copy. */
export function joinTrace(machine: Uint8Array[], t: TraceKept): ArrayBuffer {
  const { words, ...buffer } = t.buffer ?? { words: new Uint32Array(0) };
  const json = new TextEncoder().encode(JSON.stringify({ v: 1, channel: t.channel, buffer: t.buffer ? buffer : null }));
  const footer = new Uint8Array(FOOTER);
  const f = new DataView(footer.buffer);
  f.setUint32(0, words.byteLength, true);
  f.setUint32(4, json.length, true);
  for (let i = 0; i < MAGIC.length; i++) f.setUint8(8 + i, MAGIC.charCodeAt(i));
  return joinPieces([...machine, new Uint8Array(words.buffer, words.byteOffset, words.byteLength), json, footer]);
}

const damaged = (why: string) => new Error(`the saved machine's trace part is damaged: ${why}`);
const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const counts = (a: unknown): a is number[] => Array.isArray(a) && a.every(count);

function checkChannel(c: unknown): ChannelKept {
  const v = c as ChannelKept;
  if (!v || typeof v !== "object") throw damaged("no channel");
  const s = v.stats;
  if (!count(v.lastSeq) || !counts(v.keptSeqs) || !counts(v.keptWords) || v.keptSeqs.length !== v.keptWords.length) throw damaged("the stream's line numbers");
  if (!s || typeof s !== "object" || !count(s.lines) || !count(s.lost) || !count(s.unknown) || !(s.overrun === null || count(s.overrun))) throw damaged("the stream's counts");
  if (!(v.lastMarker === null || typeof v.lastMarker === "string") || typeof v.partial !== "string") throw damaged("the stream's last line");
  return { lastSeq: v.lastSeq, keptSeqs: v.keptSeqs, keptWords: v.keptWords, stats: { lines: s.lines, lost: s.lost, unknown: s.unknown, overrun: s.overrun }, lastMarker: v.lastMarker, partial: v.partial };
}

/** Where the machine's own bytes end, from the footer alone (a reset reads no more of the trace). */
export function traceFooter(state: ArrayBuffer): { machineBytes: number; wordBytes: number; jsonBytes: number } {
  const tail = state.byteLength >= FOOTER ? new Uint8Array(state, state.byteLength - MAGIC.length) : null;
  if (!tail || [...MAGIC].some((ch, i) => tail[i] !== ch.charCodeAt(0))) return { machineBytes: state.byteLength, wordBytes: 0, jsonBytes: 0 };
  const f = new DataView(state, state.byteLength - FOOTER);
  const wordBytes = f.getUint32(0, true);
  const jsonBytes = f.getUint32(4, true);
  const machineBytes = state.byteLength - FOOTER - jsonBytes - wordBytes;
  if (machineBytes < 0 || wordBytes % 4) throw damaged("its lengths do not fit the file");
  return { machineBytes, wordBytes, jsonBytes };
}

/**
 * The machine's own bytes (the first `machineBytes` of `state`, not copied) and its trace, or
 * null for a machine saved without one. Throws a clear error for a damaged trace part.
 */
export function splitTrace(state: ArrayBuffer): { machineBytes: number; trace: TraceKept | null } {
  const { machineBytes, wordBytes, jsonBytes } = traceFooter(state);
  if (machineBytes === state.byteLength) return { machineBytes, trace: null };
  let j: { v?: unknown; channel?: unknown; buffer?: { lines?: unknown; droppedRecords?: unknown; droppedLines?: unknown } | null };
  try {
    j = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(state, machineBytes + wordBytes, jsonBytes)));
  } catch (e) {
    throw damaged(e instanceof Error ? e.message : String(e));
  }
  if (!j || typeof j !== "object" || j.v !== 1) throw damaged("not a version this page reads");
  const channel = checkChannel(j.channel);
  const b = j.buffer;
  if (b === null || b === undefined) return { machineBytes, trace: { channel, buffer: null } };
  if (typeof b !== "object" || !Array.isArray(b.lines) || !b.lines.every((l) => typeof l === "string") || !count(b.droppedRecords) || !count(b.droppedLines)) throw damaged("the page's lines");
  // a copy: the words need 4-byte alignment, which the machine's length does not give them
  const words = new Uint32Array(state.slice(machineBytes, machineBytes + wordBytes));
  return { machineBytes, trace: { channel, buffer: { words, lines: b.lines as string[], droppedRecords: b.droppedRecords, droppedLines: b.droppedLines } } };
}
