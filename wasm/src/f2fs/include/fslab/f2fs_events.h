/* SPDX-License-Identifier: MIT */
/*
 * F2FS's records in the event stream (fslab/events.h): type 0x03xx, the free-NID scan
 * (fs/f2fs/node.c, with our CLUE switch), two records per phase. web/src/topics/f2fs/events.ts
 * mirrors this file (web/src/topics/events.test.ts compares them).
 */
#ifndef FSLAB_F2FS_EVENTS_H
#define FSLAB_F2FS_EVENTS_H

#include "fslab/events.h"

enum fslab_f2fs_event {
	FSLAB_EV_F2FS_NID_SCAN = 0x0301,        /* a = phase (0 bitmap, 1 NAT, 2 deferred) | skipped << 8
	                                               | sync << 9 (a NID was needed now),
	                                           b = start nid, c = end nid */
	FSLAB_EV_F2FS_NID_SCAN_RESULT = 0x0302, /* a = entries scanned, b = free NIDs found,
	                                           c = NAT blocks visited (0: not reported) */
};

#endif
