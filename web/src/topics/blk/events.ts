// The events our patch 0003 adds to mq-deadline (include/trace/events/mq_deadline.h). The block
// core's model emits no records of the shared schema (its requests go to the views as they are),
// so RECORDS is empty; the kernel's own block events are shared/event-table.ts's BLOCK_EVENTS.
import type { RecordSpec } from "../../shared/events";
import { traceEvent } from "../../shared/event-table";

export const RECORDS: Record<string, RecordSpec> = {};

export const traceEvents = {
  /** our patch 0003: a dispatch call that handed on nothing but moved the shared counters */
  dd_dispatch_none: traceEvent({
    system: "mq_deadline",
    format: /^(\d+),(\d+) last_dir=([RW]) batching=(\d+) starved=(\d+) jiffies=(\d+)$/,
    expect: "major,minor last_dir=R|W batching= starved= jiffies=",
    sample: "254,3 last_dir=R batching=0 starved=0 jiffies=4294938239",
    decode: (m) => ({ dev: `${m[1]},${m[2]}`, lastDir: (m[3] === "W" ? 1 : 0) as 0 | 1, batching: Number(m[4]), starved: Number(m[5]), jiffies: Number(m[6]) }),
  }),
  /** our patch 0003: one per request mq-deadline hands on */
  dd_dispatch_request: traceEvent({
    system: "mq_deadline",
    format: /^(\d+),(\d+) ([RW]) (\d+) \+ (\d+) prio=(RT|BE|IDLE) because=([a-z_]+) pick=([a-z_]+) batching=(\d+) starved=(\d+) jiffies=(\d+) fifo_left_ms=(-?\d+) fifo=(\d+),(\d+)$/,
    expect: "major,minor R|W sector + sectors prio= because= pick= batching= starved= jiffies= fifo_left_ms= fifo=r,w",
    sample: "254,2 W 2576 + 8 prio=BE because=batch pick=sorted batching=1 starved=0 jiffies=4294938083 fifo_left_ms=5000 fifo=0,1",
    decode: (m) => ({
      dev: `${m[1]},${m[2]}`, dir: m[3] as "R" | "W", sector: m[4], sectors: Number(m[5]), prio: m[6] as "RT" | "BE" | "IDLE",
      because: m[7], pick: m[8], batching: Number(m[9]), starved: Number(m[10]), jiffies: Number(m[11]),
      fifoLeftMs: Number(m[12]), fifoRead: Number(m[13]), fifoWrite: Number(m[14]),
    }),
  }),
};
