// The sd core (wasm/src/sd): Linux's initialisation of a card, a record per request as the
// kernel's mmc_request_start/done print it, and the card's registers decoded as Linux does.
import type { SdModule } from "@wasm/sd.mjs";
import { CARD_TYPES, STATES, type CardType, type StateName } from "../../shared/sd-card-spec";

export { CARD_TYPES, STATES, type CardType, type StateName };
export const CARD_LABEL: Record<CardType, string> = {
  sdhc: "SDHC (CSD version 2, block addressing)",
  sdsc: "SDSC (CSD version 1, byte addressing)",
  v1: "SD 1.x (no CMD8, CSD version 1)",
};

/** One request: the command, what the card answered, the card's state after it. */
export interface SdRecord {
  opcode: number;
  /** an application command (ACMD), sent after CMD55 */
  app: boolean;
  arg: number;
  /** mmc_request_start's cmd_retries: how many more tries the core allows after this one */
  retries: number;
  /** 0, or -110 (ETIMEDOUT): the card did not answer */
  err: number;
  resp: [number, number, number, number];
  /** bytes of data moved (mmc_request_done's bytes_xfered) */
  bytes: number;
  /** the model's: the card's state after it (the kernel's trace has no such field) */
  state?: StateName;
}

const RECORD_WORDS = 11;

/** the CID serial (PSN) the model's card has when none is given: each emulated card draws its own (sd-card.ts) */
export const MODEL_SERIAL = 0x0f5ab001;

export function sdAttach(m: SdModule, type: CardType, size: number, serial = MODEL_SERIAL): SdRecord[] {
  const n = m._fx_sd_attach(CARD_TYPES.indexOf(type), size >>> 0, Math.floor(size / 2 ** 32), serial >>> 0);
  if (n < 0) throw new Error("the model's record buffer is too small");
  const at = m._fx_sd_records() >>> 2;
  const w = m.HEAPU32.slice(at, at + n * RECORD_WORDS);
  return Array.from({ length: n }, (_, i) => {
    const r = w.subarray(i * RECORD_WORDS, (i + 1) * RECORD_WORDS);
    return {
      opcode: r[0],
      app: r[1] === 1,
      arg: r[2],
      retries: r[3],
      err: r[4] | 0,
      resp: [r[5], r[6], r[7], r[8]],
      bytes: r[9],
      state: STATES[r[10]],
    };
  });
}

function withWords<T>(m: SdModule, words: readonly number[], f: (p: number) => T): T {
  const p = m._fx_malloc(words.length * 4);
  try {
    m.HEAPU32.set(words, p >>> 2);
    return f(p);
  } finally {
    m._fx_free(p);
  }
}

export interface Csd {
  structure: number;
  taac: number;
  tranSpeedHz: number;
  cmdclass: number;
  readBlLen: number;
  cSize: number;
  cSizeMult: number;
  sectors: number;
}

/** CSD from a CMD9's cmd_resp, as mmc_decode_csd reads it. */
export function decodeCsd(m: SdModule, resp: readonly number[]): Csd {
  return withWords(m, resp, (p) => {
    const at = m._fx_sd_decode_csd(p) >>> 2;
    const v = m.HEAPU32.slice(at, at + 9);
    return { structure: v[0], taac: v[1], tranSpeedHz: v[2], cmdclass: v[3], readBlLen: v[4], cSize: v[5], cSizeMult: v[6], sectors: v[7] + v[8] * 2 ** 32 };
  });
}

export interface Cid {
  manfid: number;
  oemid: string;
  name: string;
  hwrev: number;
  fwrev: number;
  serial: number;
  year: number;
  month: number;
}

/** CID from a CMD2's cmd_resp, as mmc_decode_cid reads it. */
export function decodeCid(m: SdModule, resp: readonly number[]): Cid {
  return withWords(m, resp, (p) => {
    const at = m._fx_sd_decode_cid(p) >>> 2;
    const v = m.HEAPU32.slice(at, at + 12);
    return {
      manfid: v[0],
      oemid: String.fromCharCode(v[1] >> 8, v[1] & 0xff),
      hwrev: v[2],
      fwrev: v[3],
      serial: v[4],
      year: v[5],
      month: v[6],
      name: String.fromCharCode(...v.slice(7, 12)),
    };
  });
}

/** The command's name in the SD specification. */
export function commandName(opcode: number, app: boolean): string {
  const names: Record<number, string> = app
    ? { 6: "SET_BUS_WIDTH", 13: "SD_STATUS", 41: "SD_SEND_OP_COND", 51: "SEND_SCR" }
    : {
        0: "GO_IDLE_STATE",
        2: "ALL_SEND_CID",
        3: "SEND_RELATIVE_ADDR",
        5: "IO_SEND_OP_COND (SDIO)",
        6: "SWITCH_FUNC",
        7: "SELECT_CARD",
        8: "SEND_IF_COND",
        9: "SEND_CSD",
        12: "STOP_TRANSMISSION",
        13: "SEND_STATUS",
        16: "SET_BLOCKLEN",
        17: "READ_SINGLE_BLOCK",
        18: "READ_MULTIPLE_BLOCK",
        24: "WRITE_BLOCK",
        25: "WRITE_MULTIPLE_BLOCK",
        52: "IO_RW_DIRECT (SDIO)",
        55: "APP_CMD",
      };
  return `${app ? "ACMD" : "CMD"}${opcode} ${names[opcode] ?? ""}`.trim();
}

/** R1's CURRENT_STATE (bits 12:9): the state the card was in when it received the command (a
 * change the command makes shows in the next command's R1; Physical Layer spec 4.10.1). R6 (CMD3's
 * answer) carries the same bits in the same place. */
export function r1State(v: number): StateName | undefined {
  return STATES[(v >>> 9) & 0xf];
}

/** Whether the card's answer to this request carries CURRENT_STATE: an R1 (or R1b) or CMD3's R6;
 * not CMD0 (no answer), CMD2 and CMD9 (R2), CMD8 (R7), ACMD41 (R3), nor a request that timed out. */
export function answersWithStatus(r: SdRecord): boolean {
  if (r.err) return false;
  if (r.app) return r.opcode !== 41;
  return ![0, 2, 5, 8, 9, 52].includes(r.opcode);
}

/** R1's CURRENT_STATE and its error bits, in words. */
export function r1Words(v: number): string {
  const bits: Array<[number, string]> = [
    [31, "OUT_OF_RANGE"],
    [30, "ADDRESS_ERROR"],
    [29, "BLOCK_LEN_ERROR"],
    [22, "ILLEGAL_COMMAND"],
    [8, "READY_FOR_DATA"],
    [5, "APP_CMD"],
  ];
  const on = bits.filter(([b]) => (v >>> b) & 1).map(([, n]) => n);
  return [r1State(v) ?? "?", ...on].join(" ");
}

export const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;
