// The kernel's mmc events (include/trace/events/mmc.h), as tracefs prints them, into the
// records the sd model emits: one per request, from its mmc_request_start (argument, retries)
// and its mmc_request_done (error, response, bytes). An ACMD is a request that follows a CMD55
// the card answered with APP_CMD set.
import type { SdRecord } from "./sd-core";
import type { CardType } from "../../shared/sd-card-spec";

/**
 * The cards fixtures/<type>-init.trace were recorded with (e2e/record-sd-fixtures.ts): 64 MiB, and 4 GiB
 * for SDHC, whose smallest card holds more than 2 GiB. Tests give the model the same.
 */
export const RECORDED_CARD_BYTES: Record<CardType, number> = { sdhc: 2 ** 32, sdsc: 2 ** 26, v1: 2 ** 26 };

const START = /mmc_request_start: (\S+): start struct mmc_request\[[^\]]*\]: cmd_opcode=(\d+) cmd_arg=0x([0-9a-f]+) cmd_flags=0x[0-9a-f]+ cmd_retries=(\d+)/;
const DONE = /mmc_request_done: (\S+): end struct mmc_request\[[^\]]*\]: cmd_opcode=(\d+) cmd_err=(-?\d+) cmd_resp=0x([0-9a-f]+) 0x([0-9a-f]+) 0x([0-9a-f]+) 0x([0-9a-f]+) .*bytes_xfered=(\d+)/;

/** Records from tracefs lines (other events and hosts than `host` are skipped). */
export function recordsFromTrace(lines: readonly string[], host = "mmc0"): SdRecord[] {
  const out: SdRecord[] = [];
  let open: { opcode: number; arg: number; retries: number } | null = null;
  let appNext = false;
  for (const line of lines) {
    const s = START.exec(line);
    if (s && s[1] === host) {
      open = { opcode: Number(s[2]), arg: parseInt(s[3], 16), retries: Number(s[4]) };
      continue;
    }
    const d = DONE.exec(line);
    if (!d || d[1] !== host || !open || Number(d[2]) !== open.opcode) continue;
    const err = Number(d[3]);
    const resp: SdRecord["resp"] = [parseInt(d[4], 16), parseInt(d[5], 16), parseInt(d[6], 16), parseInt(d[7], 16)];
    const app = appNext && open.opcode !== 55;
    out.push({ ...open, app, err, resp, bytes: Number(d[8]) });
    appNext = open.opcode === 55 && err === 0 && (resp[0] & (1 << 5)) !== 0;
    open = null;
  }
  return out;
}

export type RecordField = "opcode" | "app" | "arg" | "err" | "resp" | "bytes" | "retries";
export const FIELDS: RecordField[] = ["opcode", "app", "arg", "retries", "err", "resp", "bytes"];

/** Per position, the fields in which model and kernel differ (empty: the same request). */
export function compareRecords(model: readonly SdRecord[], kernel: readonly SdRecord[]): Array<{ model?: SdRecord; kernel?: SdRecord; differ: RecordField[] }> {
  const n = Math.max(model.length, kernel.length);
  return Array.from({ length: n }, (_, i) => {
    const a = model[i], b = kernel[i];
    if (!a || !b) return { model: a, kernel: b, differ: [...FIELDS] };
    const differ = FIELDS.filter((f) => (f === "resp" ? a.resp.some((w, k) => w >>> 0 !== b.resp[k] >>> 0) : a[f] !== b[f]));
    return { model: a, kernel: b, differ };
  });
}

/** The kernel's initialisation: from the rescan's first CMD52 through the ACMD6 that sets the bus width. */
export function initialisation(records: readonly SdRecord[]): SdRecord[] {
  const from = records.findIndex((r) => r.opcode === 52);
  if (from < 0) return [];
  const to = records.findIndex((r, i) => i > from && r.app && r.opcode === 6);
  return records.slice(from, to < 0 ? undefined : to + 1);
}
