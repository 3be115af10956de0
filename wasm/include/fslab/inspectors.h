/* SPDX-License-Identifier: MIT */
/*
 * Inspectors: parse the on-disk structures of a real image (made by the real mkfs tools,
 * written by the real kernel) into a JSON report. They trust nothing in the image: every
 * offset is checked against its length, every chain is bounded, and a structure that does
 * not hold up ends the parse with a message naming it.
 *
 * Each sits beside its filesystem's model (src/<fs>/inspect.c) and writes with the helpers
 * of fslab/inspect_report.h; detection (fslab/inspect.h) picks one.
 */
#ifndef FSLAB_INSPECTORS_H
#define FSLAB_INSPECTORS_H

#include <stddef.h>
#include <stdint.h>
#include "fslab/inspect_report.h"

/* 0 and a report in *out, or -FSLAB_EINVAL and a message in err ("not an exFAT volume: ...") */
int exfat_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

/* the same for ext2/3/4 ("not an ext4 volume: bad magic ...") */
int ext4_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

/* F2FS: superblock, checkpoint, NAT ("not an F2FS volume: ...") */
int f2fs_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

/* FAT12/16/32 with VFAT long names ("not a FAT volume: ...") */
int vfat_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

#endif
