// F2FS's records (the free-NID scan, fs/f2fs/node.c with our CLUE switch; the model's and the
// kernel's, one schema: shared/events.ts), two records per phase, and the event our patch 0002
// adds. The C side: wasm/src/f2fs/include/fslab/f2fs_events.h (topics/events.test.ts holds the
// two equal).
import { WORDS_PER_EVENT, recordTypes } from "../../shared/events";
import { traceEvent } from "../../shared/event-table";

/** F2FS's records, type 0x03xx */
export const RECORDS = {
  F2FS_NID_SCAN: { type: 0x0301, a: "phase | skipped << 8 | sync << 9", b: "start nid", c: "end nid" },
  F2FS_NID_SCAN_RESULT: { type: 0x0302, a: "entries scanned", b: "free NIDs found", c: "NAT blocks visited" },
};
export const EV = recordTypes(RECORDS);

export enum NidScanPhase {
  Bitmap = 0,
  Nat = 1,
  Deferred = 2,
}

export interface NidScan {
  phase: NidScanPhase;
  skipped: boolean; // CLUE optimistic: a bitmap scan was already running, this caller went on
  sync: boolean; // the caller needed a NID now (f2fs_alloc_nid), not a background build
  start: number; // first NID
  end: number; // where the scan stopped (the next scan's start under CLUE's heuristic)
  scanned: number; // bitmap bits or NAT entries examined
  found: number; // free NIDs added to the list
  blocks: number; // NAT blocks visited (a bitmap walk all the way round visits all of them); 0 if not reported
}

/** F2FS free-NID scans: each F2FS_NID_SCAN record with the F2FS_NID_SCAN_RESULT that follows it. */
export function nidScansOf(stream: Uint32Array): NidScan[] {
  const out: NidScan[] = [];
  for (let i = 0; i < stream.length; i += WORDS_PER_EVENT) {
    if (stream[i] !== EV.F2FS_NID_SCAN) continue;
    const r = stream[i + WORDS_PER_EVENT] === EV.F2FS_NID_SCAN_RESULT ? i + WORDS_PER_EVENT : -1;
    out.push({
      phase: stream[i + 1] & 0xff,
      skipped: ((stream[i + 1] >> 8) & 1) !== 0,
      sync: ((stream[i + 1] >> 9) & 1) !== 0,
      start: stream[i + 2],
      end: stream[i + 3],
      scanned: r < 0 ? 0 : stream[r + 1],
      found: r < 0 ? 0 : stream[r + 2],
      blocks: r < 0 ? 0 : stream[r + 3],
    });
  }
  return out;
}

export const traceEvents = {
  /** our patch 0002: one per free-NID scan phase */
  f2fs_free_nid_scan: traceEvent({
    system: "f2fs",
    // blocks, sync and caller since the patch's fixes (issue 17); older traces end at skipped
    format: /^dev = \((\d+),(\d+)\), phase = (\w+), start = (\d+), end = (\d+), scanned = (\d+), found = (\d+), skipped = (\d)(?:, blocks = (\d+), sync = (\d), caller = (\S+))?/,
    expect: "dev = (major,minor), phase = bitmap|nat|deferred, start = N, end = N, scanned = N, found = N, skipped = 0|1[, blocks = N, sync = 0|1, caller = symbol+off/size]",
    sample: "dev = (7,1), phase = deferred, start = 0, end = 9, scanned = 0, found = 0, skipped = 1",
    decode: (m) => ({
      phase: ({ bitmap: NidScanPhase.Bitmap, nat: NidScanPhase.Nat, deferred: NidScanPhase.Deferred } as Record<string, number>)[m[3]] ?? 255,
      start: Number(m[4]), end: Number(m[5]), scanned: Number(m[6]), found: Number(m[7]), skipped: Number(m[8]),
      blocks: Number(m[9] ?? 0), sync: Number(m[10] ?? 0), caller: m[11] ?? "",
    }),
    records: (f) => [EV.F2FS_NID_SCAN, f.phase | (f.skipped << 8) | ((f.sync & 1) << 9), f.start, f.end, EV.F2FS_NID_SCAN_RESULT, f.scanned, f.found, f.blocks],
  }),
};
