// What the page had of the machine when a lab kept it, kept with it: the kernel's trace as the
// page had received it, and the terminal's screen. A reload then brings back the live panels'
// runs and what the learner's commands printed, with the machine that made them; the guest's
// trace stream goes on where it was (its next line follows the last one counted, not a gap
// counted as lost lines).
//
//   [ machine (v86's, the SD host's) ][ record words ][ JSON ][ u32 word bytes | u32 JSON bytes | "FSLABPG1" ]
//
// A machine without this footer (dist/state.bin, snapshots from before it) has no page part.
import type { TraceStats } from "../../shared/machine";
import type { BufferKept } from "../../shared/live-buffer";
import { endsWith, joinPieces, magicFooter } from "./devices/machine-state";

export type { BufferKept };

const MAGIC = "FSLABPG1";
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

export interface PagePart {
  channel: ChannelKept;
  /** what the page held of the trace (its LiveBuffer); null where nobody keeps the lines (Node's host) */
  buffer: BufferKept | null;
  /** the terminal's screen and scrollback, as escape sequences that draw it again; null without a terminal */
  screen: string | null;
}

/** The machine's pieces (machine-state.ts) with the page's part after them, joined in one copy. */
export function joinPagePart(machine: Uint8Array[], p: PagePart): ArrayBuffer {
  const { words, ...buffer } = p.buffer ?? { words: new Uint32Array(0) };
  const json = new TextEncoder().encode(JSON.stringify({ v: 1, channel: p.channel, buffer: p.buffer ? buffer : null, screen: p.screen }));
  const footer = magicFooter([words.byteLength, json.length], MAGIC);
  return joinPieces([...machine, new Uint8Array(words.buffer, words.byteOffset, words.byteLength), json, footer]);
}

const damaged = (why: string) => new Error(`the saved machine's page part is damaged: ${why}`);
const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const counts = (a: unknown): a is number[] => Array.isArray(a) && a.every(count);

function checkChannel(c: unknown): ChannelKept {
  const v = c as ChannelKept;
  if (!v || typeof v !== "object") throw damaged("no trace channel");
  const s = v.stats;
  if (!count(v.lastSeq) || !counts(v.keptSeqs) || !counts(v.keptWords) || v.keptSeqs.length !== v.keptWords.length) throw damaged("the trace's line numbers");
  if (!s || typeof s !== "object" || !count(s.lines) || !count(s.lost) || !count(s.unknown) || !(s.overrun === null || count(s.overrun))) throw damaged("the trace's counts");
  if (!(v.lastMarker === null || typeof v.lastMarker === "string") || typeof v.partial !== "string") throw damaged("the trace's last line");
  return { lastSeq: v.lastSeq, keptSeqs: v.keptSeqs, keptWords: v.keptWords, stats: { lines: s.lines, lost: s.lost, unknown: s.unknown, overrun: s.overrun }, lastMarker: v.lastMarker, partial: v.partial };
}

/** Where the machine's own bytes end, from the footer alone (a reset reads no more of the page's part). */
export function pagePartFooter(state: ArrayBuffer): { machineBytes: number; wordBytes: number; jsonBytes: number } {
  if (state.byteLength < FOOTER || !endsWith(state, state.byteLength, MAGIC)) return { machineBytes: state.byteLength, wordBytes: 0, jsonBytes: 0 };
  const f = new DataView(state, state.byteLength - FOOTER);
  const wordBytes = f.getUint32(0, true);
  const jsonBytes = f.getUint32(4, true);
  const machineBytes = state.byteLength - FOOTER - jsonBytes - wordBytes;
  if (machineBytes < 0 || wordBytes % 4) throw damaged("its lengths do not fit the file");
  return { machineBytes, wordBytes, jsonBytes };
}

/**
 * The machine's own bytes (the first `machineBytes` of `state`, not copied) and the page's part,
 * or null for a machine saved without one. Throws a clear error for a damaged page part.
 */
export function splitPagePart(state: ArrayBuffer): { machineBytes: number; page: PagePart | null } {
  const { machineBytes, wordBytes, jsonBytes } = pagePartFooter(state);
  if (machineBytes === state.byteLength) return { machineBytes, page: null };
  let j: { v?: unknown; channel?: unknown; screen?: unknown; buffer?: { lines?: unknown; droppedRecords?: unknown; droppedLines?: unknown } | null };
  try {
    j = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(state, machineBytes + wordBytes, jsonBytes)));
  } catch (e) {
    throw damaged(e instanceof Error ? e.message : String(e));
  }
  if (!j || typeof j !== "object" || j.v !== 1) throw damaged("not a version this page reads");
  const channel = checkChannel(j.channel);
  if (!(j.screen === null || typeof j.screen === "string")) throw damaged("the terminal's screen");
  const screen = j.screen;
  const b = j.buffer;
  if (b === null || b === undefined) return { machineBytes, page: { channel, buffer: null, screen } };
  if (typeof b !== "object" || !Array.isArray(b.lines) || !b.lines.every((l) => typeof l === "string") || !count(b.droppedRecords) || !count(b.droppedLines)) throw damaged("the trace's lines");
  // a copy: the words need 4-byte alignment, which the machine's length does not give them
  const words = new Uint32Array(state.slice(machineBytes, machineBytes + wordBytes));
  return { machineBytes, page: { channel, buffer: { words, lines: b.lines as string[], droppedRecords: b.droppedRecords, droppedLines: b.droppedLines }, screen } };
}
