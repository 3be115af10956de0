/* SPDX-License-Identifier: MIT */
/*
 * exFAT's records in the event stream (fslab/events.h): type 0x01xx. web/src/topics/exfat/
 * events.ts mirrors this file (web/src/topics/events.test.ts compares them).
 */
#ifndef FSLAB_EXFAT_EVENTS_H
#define FSLAB_EXFAT_EVENTS_H

#include "fslab/events.h"

/* fs/exfat/balloc.c, fatent.c, dir.c */
enum fslab_exfat_event {
	FSLAB_EV_EXFAT_BITMAP_SET = 0x0101,   /* a = first cluster, b = clusters (a run) */
	FSLAB_EV_EXFAT_BITMAP_CLEAR = 0x0102, /* a = first cluster, b = clusters (a run) */
	FSLAB_EV_EXFAT_FAT_WRITE = 0x0103,    /* a = cluster, b = new FAT entry value */
	FSLAB_EV_EXFAT_DISCARD = 0x0104,      /* a = start cluster, b = cluster count, c = policy */
	FSLAB_EV_EXFAT_EMPTY_SEARCH = 0x0105, /* a = entries examined, b = hint (~0: none), c = slot (~0: -ENOSPC) */
};

#endif
