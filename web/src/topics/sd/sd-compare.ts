// The card's state and registers as the kernel's records show them, set beside the model's.
//
// The state: the kernel's mmc events carry no state, but the card's answer does: an R1 (and CMD3's
// R6) holds CURRENT_STATE, the state the card was in when it *received* the command. So the state
// after request i is in request i+1's answer, when that answer is an R1 or R6; after a request
// followed by CMD0, CMD2, CMD8, CMD9 or ACMD41 (no R1) the records do not say, and nothing is
// compared there. (CMD7's own R1 says stby; the CMD55 after it says tran.)
//
// The registers: the CID and CSD are the R2 answers to CMD2 and CMD9, decoded by the core's
// decoders (sd-core.ts decodeCid/decodeCsd, wasm/src/sd/decode.c); the fields below only name
// and format what the core decoded.
import { answersWithStatus, hex, r1State, type Cid, type Csd, type SdRecord, type StateName } from "./sd-core";

/** The card's state after a request, as the kernel's records show it. */
export interface KernelState {
  /** undefined: the next request's answer carries no CURRENT_STATE (or there is no next yet) */
  state?: StateName;
  /** the request (index) whose answer reported it */
  from?: number;
}

/** Per request, the card's state after it read from the next request's R1/R6. `next`: the
 * request after the last one (the block driver's first read, after an initialisation). */
export function kernelStates(records: readonly SdRecord[], next?: SdRecord): KernelState[] {
  const all = next ? [...records, next] : records;
  return records.map((_, i) => {
    const n = all[i + 1];
    return n && answersWithStatus(n) ? { state: r1State(n.resp[0]), from: i + 1 } : {};
  });
}

/** The latest state the kernel's records show at or before request `position`, and where. */
export function kernelStateAt(states: readonly KernelState[], position: number): { state: StateName; at: number } | null {
  for (let i = Math.min(position, states.length - 1); i >= 0; i--) {
    const s = states[i].state;
    if (s) return { state: s, at: i };
  }
  return null;
}

export interface StateRow {
  kernel?: StateName;
  model?: StateName;
  /** both known and not the same */
  differ: boolean;
}

/** Per request, the kernel's state after it beside the model's; compared only where both are known. */
export function compareStates(model: readonly SdRecord[], kernel: readonly KernelState[]): StateRow[] {
  return kernel.map((k, i) => {
    const m = model[i]?.state;
    return { kernel: k.state, model: m, differ: !!(k.state && m && k.state !== m) };
  });
}

/** A register's field: its name in the specification, and its value as text. */
export interface Field<T> {
  name: string;
  value(r: T): string;
}

export const CID_FIELDS: Field<Cid>[] = [
  { name: "manufacturer (MID)", value: (c) => hex(c.manfid) },
  { name: "OEM (OID)", value: (c) => c.oemid },
  { name: "product name (PNM)", value: (c) => c.name },
  { name: "revision (PRV)", value: (c) => `${c.hwrev}.${c.fwrev}` },
  { name: "serial (PSN)", value: (c) => hex(c.serial) },
  { name: "made (MDT)", value: (c) => `${c.year}-${String(c.month).padStart(2, "0")}` },
];

export const CSD_FIELDS: Field<Csd>[] = [
  { name: "CSD_STRUCTURE", value: (c) => `${c.structure} (version ${c.structure + 1})` },
  { name: "TAAC", value: (c) => hex(c.taac) },
  { name: "TRAN_SPEED", value: (c) => `${c.tranSpeedHz / 1e6} MHz` },
  { name: "command classes (CCC)", value: (c) => `${hex(c.cmdclass)}${(c.cmdclass >> 10) & 1 ? " (class 10: CMD6 SWITCH_FUNC)" : " (no class 10: no CMD6)"}` },
  { name: "READ_BL_LEN", value: (c) => `${c.readBlLen} (${2 ** c.readBlLen} bytes)` },
  { name: "C_SIZE", value: (c) => String(c.cSize) },
  { name: "C_SIZE_MULT", value: (c) => (c.structure === 0 ? String(c.cSizeMult) : "(not in version 2)") },
  { name: "capacity", value: (c) => `${c.sectors} sectors (${c.sectors * 512} bytes)` },
];

export interface FieldRow {
  name: string;
  /** one value per side shown (undefined: that side has no such register yet) */
  values: Array<string | undefined>;
  /** two sides, both known, not the same */
  differ: boolean;
}

/** The register's fields, a column per side (e.g. kernel, model), those that differ marked. */
export function compareFields<T>(fields: readonly Field<T>[], sides: ReadonlyArray<T | null | undefined>): FieldRow[] {
  return fields.map((f) => {
    const values = sides.map((s) => (s ? f.value(s) : undefined));
    const differ = values.length === 2 && values[0] !== undefined && values[1] !== undefined && values[0] !== values[1];
    return { name: f.name, values, differ };
  });
}

/** The answers (cmd_resp) that hold the CID and the CSD: CMD2's and CMD9's R2. */
export function registerAnswers(records: readonly SdRecord[]): { cid: number[] | null; csd: number[] | null } {
  const r2 = (op: number) => records.find((r) => r.opcode === op && !r.app && r.err === 0)?.resp ?? null;
  const cid = r2(2), csd = r2(9);
  return { cid: cid && [...cid], csd: csd && [...csd] };
}
