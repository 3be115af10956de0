/* SPDX-License-Identifier: MIT */
/*
 * The event stream every fslab core returns: a growable array of fixed-size records
 * (four little-endian u32: type, a, b, c). The browser reads it as one Uint32Array and
 * transfers it; the live-kernel parser emits the same records, so one view draws both.
 * Each topic's core declares its types in its own header (src/<topic>/include/fslab/<topic>_events.h,
 * the topic's byte high); web/src/topics/<topic>/events.ts mirrors it (topics/events.test.ts compares them).
 */
#ifndef FSLAB_EVENTS_H
#define FSLAB_EVENTS_H

#include <stddef.h>
#include <stdint.h>

/* a block request's operation (the blk core's requests; the kernel's, from the tracepoints' rwbs) */
enum fslab_blk_op { FSLAB_BLK_READ = 0, FSLAB_BLK_WRITE = 1, FSLAB_BLK_DISCARD = 2, FSLAB_BLK_FLUSH = 3, FSLAB_BLK_OTHER = 255 };

struct fslab_event {
	uint32_t type, a, b, c;
};

struct fslab_events {
	struct fslab_event *ev;
	size_t len, cap;
	int oom; /* set when an append could not grow the buffer: the stream is incomplete */
	int off; /* recording switched off (counts only, e.g. freeing 20 million clusters one by one) */
};

void fslab_events_init(struct fslab_events *s);
void fslab_events_free(struct fslab_events *s);
void fslab_events_clear(struct fslab_events *s);
void fslab_emit(struct fslab_events *s, uint32_t type, uint32_t a, uint32_t b, uint32_t c);
/*
 * Record that unit `a` changed: extends the previous record when it has the same type and
 * ends at a (b counts the units). Freeing an 80 GiB file is 20 million bitmap clears; as
 * runs they are a handful of records instead of 320 MB of them.
 */
void fslab_emit_run(struct fslab_events *s, uint32_t type, uint32_t a);
/* fslab_emit_run() for a, a+1, ..., a+n-1: the same records as n calls */
void fslab_emit_run_n(struct fslab_events *s, uint32_t type, uint32_t a, uint32_t n);

#endif
