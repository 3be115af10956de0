/* SPDX-License-Identifier: MIT */
/*
 * The event stream every fslab core returns: a growable array of fixed-size records
 * (four little-endian u32: type, a, b, c). The browser reads it as one Uint32Array and
 * transfers it; the live-kernel parser emits the same records, so one view draws both.
 * Types are grouped by topic in the high byte; web/src/cores/events.ts mirrors this file.
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
};

struct fslab_event {
	uint32_t type, a, b, c;
};

struct fslab_events {
	struct fslab_event *ev;
	size_t len, cap;
	int oom; /* set when an append could not grow the buffer: the stream is incomplete */
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

#endif
