// exFAT's records (the model's and the kernel's, one schema: shared/events.ts) and the events
// our patch 0001 adds to the kernel's exfat tracepoints. The C side: wasm/src/exfat/include/
// fslab/exfat_events.h (topics/events.test.ts holds the two equal).
import { WORDS_PER_EVENT, recordTypes } from "../../shared/events";
import { traceEvent, u32 } from "../../shared/event-table";

/** exFAT's records (fs/exfat/balloc.c, fatent.c, dir.c), type 0x01xx */
export const RECORDS = {
  EXFAT_BITMAP_SET: { type: 0x0101, a: "first cluster", b: "clusters (a run)" },
  EXFAT_BITMAP_CLEAR: { type: 0x0102, a: "first cluster", b: "clusters (a run)" },
  EXFAT_FAT_WRITE: { type: 0x0103, a: "cluster", b: "new FAT entry" },
  EXFAT_DISCARD: { type: 0x0104, a: "start cluster", b: "clusters", c: "DiscardPolicy" },
  EXFAT_EMPTY_SEARCH: { type: 0x0105, a: "entries examined", b: "hint (NONE: none)", c: "result slot (NONE: -ENOSPC)" },
};
export const EV = recordTypes(RECORDS);

/** exfat `batch_discard`: 0 = one discard per cluster (Linux ≤ 6.14), 1 = per contiguous run (≥ 6.15). */
export enum DiscardPolicy {
  PerCluster = 0,
  Batched = 1,
}

export interface ExfatDiscard {
  start: number; // first cluster
  count: number; // clusters
  policy: DiscardPolicy;
}

export function discardsOf(stream: Uint32Array): ExfatDiscard[] {
  const out: ExfatDiscard[] = [];
  for (let i = 0; i < stream.length; i += WORDS_PER_EVENT) {
    if (stream[i] === EV.EXFAT_DISCARD) out.push({ start: stream[i + 1], count: stream[i + 2], policy: stream[i + 3] });
  }
  return out;
}

export const traceEvents = {
  /** our patch 0001: one per discard __exfat_free_cluster() issues */
  exfat_discard: traceEvent({
    system: "exfat",
    format: /^dev (\d+),(\d+) clu (\d+) count (\d+) batched (\d)/,
    expect: "dev major,minor clu N count N batched 0|1",
    sample: "dev 7,0 clu 7 count 10240 batched 1",
    decode: (m) => ({ clu: Number(m[3]), count: Number(m[4]), batched: Number(m[5]) }),
    records: (f) => [EV.EXFAT_DISCARD, f.clu, f.count, f.batched],
  }),
  /** our patch 0001: one per empty-entry search of exfat_find_dir_entry() / exfat_search_empty_slot() */
  exfat_empty_search: traceEvent({
    system: "exfat",
    format: /^dev (\d+),(\d+) hint (-?\d+) start -?\d+ examined (\d+) result (-?\d+)/,
    expect: "dev major,minor hint N start N examined N result N",
    sample: "dev 7,0 hint -1 start 0 examined 451 result -28 num_entries 3",
    decode: (m) => ({ hint: Number(m[3]), examined: Number(m[4]), result: Number(m[5]) }),
    records: (f) => [EV.EXFAT_EMPTY_SEARCH, f.examined, u32(f.hint), u32(f.result)],
  }),
};
