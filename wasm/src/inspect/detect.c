/* SPDX-License-Identifier: MIT */
/* Which filesystem is this? The magic numbers the kernel's own probes look at. */
#include <stdio.h>
#include <string.h>
#include "fslab/errno.h"
#include "fslab/inspect.h"
#include "fslab/inspectors.h"

int fslab_inspect(const uint8_t *img, size_t len, struct fslab_json *out, char *err)
{
	if (len >= 11 && !memcmp(img + 3, "EXFAT   ", 8))
		return exfat_inspect(img, len, out, err);
	if (len >= 1082 && img[1080] == 0x53 && img[1081] == 0xEF)
		return ext4_inspect(img, len, out, err);
	if (len >= 1028 && img[1024] == 0x10 && img[1025] == 0x20 && img[1026] == 0xF5 && img[1027] == 0xF2)
		return f2fs_inspect(img, len, out, err);
	/* mkfs.fat names the type at 54 (FAT12/16) or 82 (FAT32); the BPB decides which it is */
	if (len >= 512 && img[510] == 0x55 && img[511] == 0xAA && (!memcmp(img + 54, "FAT", 3) || !memcmp(img + 82, "FAT32", 5)))
		return vfat_inspect(img, len, out, err);
	snprintf(err, FSLAB_ERR_LEN,
		 "no filesystem fslab can inspect: not exFAT (no \"EXFAT   \" at byte 3), not ext2/3/4 (no 0xEF53 at 1080), not F2FS (no 0xF2F52010 at 1024), not FAT (no boot signature and \"FAT\" name)");
	return -FSLAB_EINVAL;
}
