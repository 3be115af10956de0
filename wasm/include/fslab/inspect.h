/* SPDX-License-Identifier: MIT */
/*
 * Inspectors: parse the on-disk structures of a real image (made by the real mkfs tools,
 * written by the real kernel) into a JSON report. They trust nothing in the image: every
 * offset is checked against its length, every chain is bounded, and a structure that does
 * not hold up ends the parse with a message naming it.
 */
#ifndef FSLAB_INSPECT_H
#define FSLAB_INSPECT_H

#include <stddef.h>
#include <stdint.h>
#include "fslab/json.h"

#define FSLAB_ERR_LEN 256

/* writes a message into err (FSLAB_ERR_LEN bytes) and returns -FSLAB_EINVAL */
int inspect_error(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* a run of clusters, [first, count], as the reports write them */
void inspect_json_run(struct fslab_json *j, uint64_t first, uint64_t count);

/* 0 and a report in *out, or -FSLAB_EINVAL and a message in err ("not an exFAT volume: ...") */
int exfat_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

/* the same for ext2/3/4 ("not an ext4 volume: bad magic ...") */
int ext4_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

/* F2FS: superblock, checkpoint, NAT ("not an F2FS volume: ...") */
int f2fs_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

/* FAT12/16/32 with VFAT long names ("not a FAT volume: ...") */
int vfat_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

/* Detects the filesystem and runs its inspector. */
int fslab_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err);

#endif
