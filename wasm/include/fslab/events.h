/* SPDX-License-Identifier: MIT */
/*
 * The event stream every fslab core returns: a growable array of fixed-size records
 * (four little-endian u32: type, a, b, c). The browser reads it as one Uint32Array and
 * transfers it; the live-kernel parser emits the same records, so one view draws both.
 * Types are grouped by topic in the high byte; web/src/shared/events.ts mirrors this file (event-table.test.ts compares them).
 */
#ifndef FSLAB_EVENTS_H
#define FSLAB_EVENTS_H

#include <stddef.h>
#include <stdint.h>

enum fslab_event_type {
	/* exFAT (fs/exfat/balloc.c, fatent.c) */
	FSLAB_EV_EXFAT_BITMAP_SET = 0x0101,   /* a = first cluster, b = clusters (a run) */
	FSLAB_EV_EXFAT_BITMAP_CLEAR = 0x0102, /* a = first cluster, b = clusters (a run) */
	FSLAB_EV_EXFAT_FAT_WRITE = 0x0103,    /* a = cluster, b = new FAT entry value */
	FSLAB_EV_EXFAT_DISCARD = 0x0104,      /* a = start cluster, b = cluster count, c = policy */
	FSLAB_EV_EXFAT_EMPTY_SEARCH = 0x0105, /* a = entries examined, b = hint (~0: none), c = slot (~0: -ENOSPC) */

	/* F2FS free-NID scan (fs/f2fs/node.c, with our CLUE switch); two records per phase */
	FSLAB_EV_F2FS_NID_SCAN = 0x0301,        /* a = phase (0 bitmap, 1 NAT, 2 deferred) | skipped << 8
	                                               | sync << 9 (a NID was needed now),
	                                           b = start nid, c = end nid */
	FSLAB_EV_F2FS_NID_SCAN_RESULT = 0x0302, /* a = entries scanned, b = free NIDs found,
	                                           c = NAT blocks visited (0: not reported) */
};

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
